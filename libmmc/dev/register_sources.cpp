#include "dev/register_sources.h"

#include "dev/mmc_ioctl.h"
#include "regs/hex.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <memory>

namespace mmc::dev {

namespace {

using regs::RegKind;

struct Gatherer {
    const Card& card;
    const SysRoots& roots;
    std::unique_ptr<MmcChannel> channel;
    std::string channel_error; // why no ioctl channel
    RegisterGathering out;

    void add(RegKind kind, std::vector<uint8_t> bytes, std::string source)
    {
        out.registers.push_back({kind, std::move(bytes), std::move(source)});
    }

    // Try the ioctl; on failure note it and return false.
    bool try_ioctl(RegKind kind, const char* command, const std::function<std::vector<uint8_t>()>& read)
    {
        if (!channel) {
            if (!channel_error.empty())
                out.notes.push_back(fmt::format("{}: {} not sent ({})", regs::to_string(kind), command, channel_error));
            return false;
        }
        try {
            add(kind, read(), "ioctl");
            return true;
        } catch (const std::system_error& e) {
            out.notes.push_back(fmt::format("{}: {} failed ({})", regs::to_string(kind), command, e.code().message()));
            return false;
        }
    }

    bool try_text(RegKind kind, const fs::path& path, const char* source)
    {
        const auto text = read_attr(path);
        if (!text || text->empty()) return false;
        try {
            auto bytes = regs::parse_register_hex(kind, *text);
            if (kind == RegKind::ssr && std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; })) {
                out.notes.push_back(fmt::format("ssr: the {} copy is all zeros; not used", source));
                out.zero_copies.push_back(fmt::format("ssr from {}", source));
                return false;
            }
            add(kind, std::move(bytes), source);
            return true;
        } catch (const regs::HexError& e) {
            out.notes.push_back(fmt::format("{}: {} unreadable: {}", regs::to_string(kind), path.string(), e.what()));
            return false;
        }
    }

    void sysfs_or_note(RegKind kind)
    {
        const std::size_t notes = out.notes.size();
        if (!try_text(kind, card.syspath / std::string(regs::to_string(kind)), "sysfs") && out.notes.size() == notes)
            out.notes.push_back(fmt::format("{}: not available", regs::to_string(kind)));
    }
};

std::vector<uint8_t> to_vector(const std::array<uint8_t, 4>& a) { return {a.begin(), a.end()}; }

} // namespace

RegisterGathering gather_registers(const Card& card, const SysRoots& roots, const SourceOptions& options)
{
    Gatherer g{card, roots, nullptr, {}, {}};
    if (!options.use_ioctl)
        g.channel_error = commands_off;
    else if (!card.is_storage())
        g.channel_error = "no block device";
    else if (!roots.is_live())
        g.channel_error = commands_on_fixture;
    else {
        try {
            g.channel = std::make_unique<MmcChannel>(card.device_path(roots));
        } catch (const std::system_error& e) {
            g.channel_error = e.code().message();
            g.out.commands_errno = e.code().value();
        }
    }

    const auto family = family_of(card.type);
    if (!family) {
        g.out.notes.push_back(fmt::format("{} card: no storage registers", to_string(card.type)));
        g.out.commands_error = "not a storage card";
        return std::move(g.out);
    }

    // CID and CSD: one transaction that deselects, reads both, reselects.
    bool cid_csd_live = false;
    if (g.channel) {
        try {
            auto both = g.channel->cid_csd(card.rca);
            g.add(RegKind::cid, std::move(both.cid), "ioctl");
            g.add(RegKind::csd, std::move(both.csd), "ioctl");
            cid_csd_live = true;
        } catch (const std::system_error& e) {
            g.out.notes.push_back(fmt::format("cid, csd: CMD7/CMD9/CMD10 failed ({}); sysfs used", e.code().message()));
        }
    } else if (!g.channel_error.empty()) {
        g.out.notes.push_back(fmt::format("cid, csd: CMD9/CMD10 not sent ({}); sysfs used", g.channel_error));
    }
    if (!cid_csd_live) {
        g.sysfs_or_note(RegKind::cid);
        g.sysfs_or_note(RegKind::csd);
    }
    g.sysfs_or_note(RegKind::ocr);

    if (family == regs::CardFamily::sd) {
        if (!g.try_ioctl(RegKind::scr, "ACMD51", [&] { return g.channel->sd_scr(); })) g.sysfs_or_note(RegKind::scr);
        if (!g.try_ioctl(RegKind::ssr, "ACMD13", [&] { return g.channel->sd_status(); })) g.sysfs_or_note(RegKind::ssr);
        g.try_ioctl(RegKind::switch_status, "CMD6", [&] { return g.channel->sd_switch_query(); });
    } else {
        if (!g.try_ioctl(RegKind::ext_csd, "CMD8", [&] { return g.channel->mmc_ext_csd(); })
            && !g.try_text(RegKind::ext_csd, card_debugfs(card, roots) / "ext_csd", "debugfs"))
            g.out.notes.push_back("ext_csd: not available");
    }
    if (g.channel) {
        try {
            g.add(RegKind::status, to_vector(g.channel->card_status(card.rca)), "ioctl");
            g.out.commands_work = true;
        } catch (const std::system_error& e) {
            g.channel_error = e.code().message();
            g.out.commands_errno = e.code().value();
            g.out.notes.push_back(fmt::format("status: CMD13 failed ({})", g.channel_error));
        }
    } else if (!g.channel_error.empty()) {
        g.out.notes.push_back(fmt::format("status: CMD13 not sent ({})", g.channel_error));
    }
    g.out.commands_error = g.out.commands_work ? "" : g.channel_error;
    if (!g.out.commands_work && !g.try_text(RegKind::status, card_debugfs(card, roots) / "status", "debugfs"))
        g.out.notes.push_back("status: not available");
    return std::move(g.out);
}

} // namespace mmc::dev
