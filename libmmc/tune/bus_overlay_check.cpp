#include "tune/bus_overlay_check.h"

#include "cli/process.h"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <system_error>

namespace mmc::tune {

namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// A temporary directory that goes with its scope.
struct TempDir {
    fs::path path;
    TempDir()
    {
        std::string name = (fs::temp_directory_path() / "mmckit-overlay-XXXXXX").string();
        if (!::mkdtemp(name.data())) throw std::system_error(errno, std::generic_category(), "a temporary directory");
        path = name;
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

} // namespace

OverlayTargets overlay_targets(const std::string& source)
{
    OverlayTargets t;
    std::istringstream in(source);
    int depth_in_overlay = 0; // > 0 inside __overlay__'s braces
    for (std::string raw; std::getline(in, raw);) {
        const std::string line = trimmed(raw.substr(0, raw.find("//")));
        if (line.empty()) continue;
        if (const auto at = line.find("target-path"); at != std::string::npos && depth_in_overlay == 0) {
            const auto q1 = line.find('"', at);
            const auto q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
            if (q2 != std::string::npos) t.path = line.substr(q1 + 1, q2 - q1 - 1);
            continue;
        }
        if (const auto at = line.find("target = <&"); at != std::string::npos && depth_in_overlay == 0) {
            const auto end = line.find('>', at);
            if (end != std::string::npos) t.label = line.substr(at + 11, end - at - 11);
            continue;
        }
        if (depth_in_overlay == 0) {
            if (line.rfind("__overlay__", 0) == 0 && line.find('{') != std::string::npos) depth_in_overlay = 1;
            continue;
        }
        if (line.find('{') != std::string::npos) { ++depth_in_overlay; continue; }
        if (line.rfind("}", 0) == 0) { --depth_in_overlay; continue; }
        if (depth_in_overlay != 1 || line.front() == '/') continue; // a child node's, or /delete-property/
        const auto end = line.find_first_of(" =;");
        if (end != std::string::npos && end > 0) t.properties.push_back(line.substr(0, end));
    }
    return t;
}

OverlayCheck check_overlay(const std::string& overlay_source, const fs::path& base)
{
    OverlayCheck c;
    auto targets = overlay_targets(overlay_source);
    if ((targets.path.empty() && targets.label.empty()) || targets.properties.empty()) {
        c.lines.push_back("not checked: the overlay names no target or no property");
        return c;
    }
    for (const char* tool : {"dtc", "fdtoverlay", "fdtget"})
        if (cli::find_program(tool).empty()) {
            c.lines.push_back(fmt::format("not checked: {} is not installed (Debian package device-tree-compiler)", tool));
            return c;
        }
    TempDir tmp;
    const auto step = [&](const std::vector<std::string>& argv, const std::string& done) {
        const auto said = cli::run_captured(argv);
        if (said.code != 0) {
            c.lines.push_back(fmt::format("{} failed (exit {}): {}", argv[0], said.code, cli::last_lines(said.output, 2)));
            return false;
        }
        c.lines.push_back(done);
        return true;
    };
    {
        std::ofstream(tmp.path / "overlay.dts") << overlay_source;
    }
    const std::string overlay = (tmp.path / "overlay.dtbo").string();
    if (!step({"dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", overlay, (tmp.path / "overlay.dts").string()},
              "dtc -@: the overlay compiles"))
        return c;
    std::string base_dtb = base.string();
    if (fs::is_directory(base)) {
        base_dtb = (tmp.path / "base.dtb").string();
        if (!step({"dtc", "-q", "-I", "fs", "-O", "dtb", "-o", base_dtb, base.string()},
                  fmt::format("dtc -I fs: the tree at {} read", base.string())))
            return c;
    }
    if (targets.path.empty()) {
        // fdtoverlay resolves <&label> through the base's __symbols__: the
        // same entry names the path to read the properties back from.
        const auto said = cli::run_captured({"fdtget", base_dtb, "/__symbols__", targets.label});
        if (said.code != 0) {
            c.lines.push_back(fmt::format("the base tree has no __symbols__ entry for {} (not built with dtc -@): {}", targets.label,
                                          cli::last_lines(said.output, 1)));
            return c;
        }
        targets.path = trimmed(said.output.substr(0, said.output.find('\n')));
        c.lines.push_back(fmt::format("fdtget: label {} is {}", targets.label, targets.path));
    }
    const std::string merged = (tmp.path / "merged.dtb").string();
    if (!step({"fdtoverlay", "-i", base_dtb, "-o", merged, overlay}, fmt::format("fdtoverlay: applies to {}", base.string())))
        return c;
    for (const auto& p : targets.properties)
        if (!step({"fdtget", merged, targets.path, p}, fmt::format("fdtget: {} carries {}", targets.path, p))) return c;
    c.ok = true;
    return c;
}

} // namespace mmc::tune
