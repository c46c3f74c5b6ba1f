#include "bench/safety.h"

#include "erase/device.h"
#include "erase/safety.h"

#include <fmt/format.h>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace mmc::bench {

void check_destructive(const std::string& device_path, const dev::SysRoots& roots, bool any_device)
{
    struct stat st{};
    if (::stat(device_path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode))
        throw WriteRefused(fmt::format("{}: not a block device", device_path), "");
    erase::Target target;
    try {
        erase::TargetOptions to;
        to.roots = roots;
        to.any_device = any_device;
        to.use_ioctl = false; // only who it is; the registers are read elsewhere
        target = erase::find_target(device_path, to);
    } catch (const erase::TargetError& e) {
        if (e.why == erase::TargetError::Why::not_mmc)
            throw WriteRefused(fmt::format("{}: not an MMC/SD device ({})", device_path, e.what()),
                               "use --any-device to write to it anyway");
        throw WriteRefused(e.what(), "");
    }
    erase::SafetyRoots sr;
    sr.sysfs = roots.sysfs;
    const auto problems = erase::check_safety(target.name, sr);
    if (!problems.empty()) {
        std::string list;
        for (const auto& p : problems) list += (list.empty() ? "" : "; ") + p.what;
        throw WriteRefused(fmt::format("{}: in use: {}", device_path, list), "unmount or release it first");
    }
}

Confirmation confirm(const std::string& question, bool assume_yes)
{
    if (assume_yes) return Confirmation::yes;
    if (!::isatty(STDIN_FILENO)) return Confirmation::no_terminal;
    fmt::print(stderr, "{} Type 'yes' to go on: ", question);
    std::fflush(stderr);
    std::string answer;
    if (!std::getline(std::cin, answer)) return Confirmation::declined;
    return answer == "yes" ? Confirmation::yes : Confirmation::declined;
}

} // namespace mmc::bench
