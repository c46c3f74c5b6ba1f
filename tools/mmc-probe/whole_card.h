// The card a writing subcommand (capacity, verify) works on: resolved for
// writing probe patterns, a partition refused (the probes address the whole
// card), the resolver's safety verdict enforced. Says why not on stderr.
#pragma once

#include "cli/cli.h"
#include "dev/resolver.h"
#include "probe/capacity_view.h"
#include "tool.h"

#include <optional>
#include <string>

namespace mmc_probe {

// The device, or nothing with `status` set (2 for a partition, 1 otherwise).
// Inline: every file of tools/mmc-probe/ with a body is a subcommand.
inline std::optional<mmc::dev::Device> resolve_whole_card(const std::string& typed, bool any_device, const mmc::dev::SysRoots& roots, int& status)
{
    namespace cli = mmc::cli;
    mmc::dev::ResolveOptions ro;
    ro.roots = roots;
    ro.any_device = any_device;
    try {
        mmc::dev::Device d = mmc::dev::resolve_device(typed, mmc::dev::Purpose::probe, ro);
        if (d.is_partition) {
            cli::error(tool, mmc::probe::partition_refusal(d.path, d.disk_path));
            status = cli::usage;
            return std::nullopt;
        }
        d.require_allowed();
        return d;
    } catch (const mmc::dev::DeviceError& e) {
        cli::error(tool, cli::error_text(e));
        status = cli::failure;
        return std::nullopt;
    }
}


} // namespace mmc_probe
