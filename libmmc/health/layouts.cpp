#include "health/layouts.h"

#include "health/block_bytes.h"
#include "health/block_check.h"

#include <array>
#include <fmt/format.h>

namespace mmc::health {

namespace {

using regs::CardFamily;

// Sources, by the tag used below:
//   [sdmon]     Ognian/sdmon src/sdmon.c (master, 2025), its issues and PRs
//   [collectd]  collectd src/mmc.c (Micron eMMC CMD56, Swissbit SSR)
//   [transcend] transcend-information/RaspberryPi_NVIDIAJetson-SDcard-SMARTQuery mmc-utils/mmc_cmds.c
//   [TN-SD-02]  Micron TN-SD-02 "Enable SD health monitor", as quoted in sdmon issue 15
//   [TN-FC-42]  Micron TN-FC-42 "e.MMC device health report", as quoted in kernel drivers
const std::array<Layout, 9> layouts{{
    {"sandisk", CardFamily::sd, {0x00000001}, std::nullopt, "\"DS\" or \"DW\"", "[sdmon] SanDisk/WD industrial",
     decode_sandisk},
    {"longsys", CardFamily::sd, {0x00000001}, std::nullopt, "\"pX\" (0x70 0x58)", "[sdmon] Longsys", decode_longsys},
    {"innodisk", CardFamily::sd, {0x110005fd}, std::nullopt, "\"LX\"", "[sdmon] Innodisk", decode_innodisk},
    {"adata", CardFamily::sd, {0x110005f1}, std::nullopt, "0x09 0x41", "[sdmon] PR 22, from SDeMMCHealth",
     decode_adata},
    {"transcend", CardFamily::sd, {0x110005f9}, std::nullopt, "\"Tr\" (\"Transcend\")",
     "[transcend] mmc-utils fork; [sdmon] PR 20", decode_transcend},
    {"micron_sd", CardFamily::sd, {0x110005fb}, std::nullopt, "\"ME\"", "[TN-SD-02] via [sdmon] issue 15",
     decode_micron_sd},
    {"swissbit", CardFamily::sd, {0x53420001}, std::nullopt, "\"Sw\"", "[sdmon] Swissbit", decode_swissbit},
    {"two_step", CardFamily::sd, {0x00000021}, 0x00000010, "none (plausibility checks)",
     "[sdmon] 2step: Apacer, Kingston SDCIT/SDCIT2/SDCE, GOODRAM", decode_two_step},
    {"micron_emmc", CardFamily::mmc, {0x11, 0x23, 0x25}, std::nullopt, "none (plausibility checks)",
     "[collectd] Micron eMMC; [TN-FC-42]", decode_micron_emmc},
}};

} // namespace

std::span<const Layout> cmd56_layouts() { return layouts; }

const Layout* find_layout(std::string_view name)
{
    for (const auto& l : layouts)
        if (l.name == name) return &l;
    return nullptr;
}

std::string layout_names()
{
    std::string s;
    for (std::size_t i = 0; i < layouts.size(); ++i)
        s += (i == 0 ? "" : i + 1 == layouts.size() ? " or " : ", ") + std::string(layouts[i].name);
    return s;
}

const Cmd56Block* checked_block(std::span<const Cmd56Block> blocks, uint32_t arg, std::string_view signature,
                                LayoutResult& result)
{
    const Cmd56Block* found = nullptr;
    for (const auto& b : blocks)
        if (b.arg == arg) found = &b;
    if (!found) {
        result.not_health = fmt::format("no block read with CMD56 argument 0x{:08x}", arg);
        return nullptr;
    }
    if (auto why = not_health_data(found->bytes)) {
        result.not_health = *why;
        return nullptr;
    }
    if (!BlockBytes(found->bytes).starts_with(signature)) {
        result.not_health = fmt::format("the block does not start with the layout's signature \"{}\" (it starts 0x{:02x} 0x{:02x})",
                                        signature, found->bytes[0], found->bytes[1]);
        return nullptr;
    }
    return found;
}

} // namespace mmc::health
