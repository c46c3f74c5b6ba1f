#include "report/load.h"

#include "cli/input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <system_error>

namespace mmc::report {

namespace fs = std::filesystem;

std::string read_file(const std::string& path)
{
    // Capped: a bundle is JSON of a few hundred KiB; /dev/zero is not.
    return cli::read_file_capped(path, cli::json_input_cap, "bundle");
}

void load_text(const std::string& p, const std::string& text, bool named, Loaded& out)
{
    auto skip = [&](const std::string& why) {
        out.warnings.push_back(why + "; skipped");
        out.named_file_failed |= named;
    };
    json doc;
    std::vector<std::string> twice;
    try {
        doc = cli::parse_json_capped(text, &twice);
    } catch (const json::parse_error&) {
        return skip(fmt::format("{}: not JSON", p));
    } catch (const cli::InputError& e) {
        return skip(fmt::format("{}: {}", p, e.what()));
    }
    if (!looks_like_bundle(doc) && !named) {
        out.ignored.push_back(p);
        return;
    }
    try {
        Bundle b = from_json(doc);
        b.path = p;
        for (const auto& key : twice) b.warnings.push_back(duplicate_key_warning(key));
        for (const auto& w : b.warnings) out.warnings.push_back(fmt::format("{}: {}", p, w));
        out.bundles.push_back(std::move(b));
    } catch (const NotABundle& e) {
        out.warnings.push_back(fmt::format("{}: {}; skipped", p, e.what()));
        out.named_file_failed |= named;
    }
}

std::vector<FoundFile> find_files(const std::vector<std::string>& paths, Loaded& out)
{
    std::vector<FoundFile> found;
    for (const auto& arg : paths) {
        std::error_code ec;
        const fs::path path(arg);
        if (fs::is_directory(path, ec)) {
            std::vector<fs::path> files;
            for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                std::error_code fec;
                if (it->is_regular_file(fec) && it->path().extension() == ".json") files.push_back(it->path());
            }
            if (ec) out.warnings.push_back(fmt::format("{}: {}", arg, ec.message()));
            std::sort(files.begin(), files.end());
            for (const auto& f : files) found.push_back({f.string(), false});
        } else if (fs::exists(path, ec)) {
            found.push_back({arg, true});
        } else {
            out.warnings.push_back(fmt::format("{}: No such file or directory", arg));
            out.named_file_failed = true;
        }
    }
    return found;
}

Loaded load_paths(const std::vector<std::string>& paths)
{
    Loaded out;
    for (const auto& arg : paths) // one at a time: warnings stay in argument order
        for (const auto& f : find_files({arg}, out)) {
            std::string text;
            try {
                text = read_file(f.path);
            } catch (const std::runtime_error& e) { // cli::InputError too
                out.warnings.push_back(fmt::format("{}; skipped", e.what()));
                out.named_file_failed |= f.named;
                continue;
            }
            load_text(f.path, text, f.named, out);
        }
    return out;
}

} // namespace mmc::report
