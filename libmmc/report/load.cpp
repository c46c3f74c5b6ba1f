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

namespace {

// Loads one file; returns false with a warning when it is not a usable bundle.
void load_one(const fs::path& path, bool named, Loaded& out)
{
    const std::string p = path.string();
    auto skip = [&](const std::string& why) {
        out.warnings.push_back(why + "; skipped");
        out.named_file_failed |= named;
    };
    std::string text;
    try {
        text = cli::read_file_capped(path, cli::json_input_cap, "bundle");
    } catch (const cli::InputError& e) {
        return skip(e.what());
    }
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

} // namespace

Loaded load_paths(const std::vector<std::string>& paths)
{
    Loaded out;
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
            for (const auto& f : files) load_one(f, false, out);
        } else if (fs::exists(path, ec)) {
            load_one(path, true, out);
        } else {
            out.warnings.push_back(fmt::format("{}: No such file or directory", arg));
            out.named_file_failed = true;
        }
    }
    return out;
}

} // namespace mmc::report
