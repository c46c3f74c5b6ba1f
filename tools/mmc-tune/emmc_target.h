// The eMMC a subcommand works on, as typed: its whole block device and RCA
// (mmc-tune emmc and rpmb both take one; one place says what is refused).
#pragma once

#include "cli/cli.h"
#include "dev/resolver.h"

#include <fmt/format.h>

#include <string>

namespace mmc_tune {

struct Target {
    mmc::dev::Device device;
    uint16_t rca = 0;
};

// Throws cli::Error for a device that is not an eMMC, and a usage error
// for a partition of one. (Inline: every .cpp beside the tool's front end
// is a subcommand.)
inline Target resolve_emmc(const std::string& typed, const mmc::dev::SysRoots& roots, const std::filesystem::path& proc)
{
    mmc::dev::ResolveOptions ro;
    ro.roots = roots;
    ro.proc = proc;
    Target t{mmc::dev::resolve_device(typed, mmc::dev::Purpose::erase, ro), 0};
    const auto& d = t.device;
    if (!d.card || d.card->type != mmc::dev::CardType::mmc)
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure,
                         fmt::format("{}: not an eMMC: {}", d.typed, d.card ? fmt::format("{} is a {} card", d.card->name,
                                                                                          mmc::dev::to_string(d.card->type))
                                                                            : d.not_mmc));
    if (d.name != d.card->block)
        throw mmc::cli::UsageError(fmt::format("{}: a partition of {}; name the eMMC itself ({})", d.typed, d.card->block, d.disk_path));
    t.rca = d.card->rca;
    return t;
}


} // namespace mmc_tune
