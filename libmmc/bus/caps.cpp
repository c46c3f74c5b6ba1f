// Names of the debugfs caps and caps2 bits (struct mmc_host in
// include/linux/mmc/host.h), without the MMC_CAP_/MMC_CAP2_ prefix.
// The bit numbers are not stable: v4.11 (commit 20f921bb0114, which added
// MMC_CAP_3_3V_DDR at bit 11) shifted caps bits 11-19 up by one, and caps2
// dropped HC_ERASE_SZ and the packed-command bits in the same cycle. A dump is
// decoded with the table of the kernel that printed it.
#include "bus/doctor.h"

#include <array>
#include <charconv>
#include <fmt/format.h>

namespace mmc::bus {

namespace {

using BitNames = std::array<std::string_view, 32>;

// v4.11 and later (torvalds 1758047057db, v5.19 era). Bit 10 was ERASE until
// MMC_CAP_ERASE was dropped in v5.x and has been unused since, so the name can
// only be right; bit 21 was free until SYNC_RUNTIME_PM took it.
constexpr BitNames caps_current{
    "4_BIT_DATA",    "MMC_HIGHSPEED",   "SD_HIGHSPEED",   "SDIO_IRQ",      "SPI",
    "NEEDS_POLL",    "8_BIT_DATA",      "AGGRESSIVE_PM",  "NONREMOVABLE",  "WAIT_WHILE_BUSY",
    "ERASE",         "3_3V_DDR",        "1_8V_DDR",       "1_2V_DDR",      "POWER_OFF_CARD",
    "BUS_WIDTH_TEST", "UHS_SDR12",      "UHS_SDR25",      "UHS_SDR50",     "UHS_SDR104",
    "UHS_DDR50",     "SYNC_RUNTIME_PM", "NEED_RSP_BUSY",  "DRIVER_TYPE_A", "DRIVER_TYPE_C",
    "DRIVER_TYPE_D", "",                "DONE_COMPLETE",  "CD_WAKE",       "CMD_DURING_TFR",
    "CMD23",         "HW_RESET",
};

// Before v4.11 (4.4-4.10 mainline; the 3.x vendor BSPs share every speed bit).
// 3.x named bit 7 DISABLE, bits 20-22 SET_XPC_330/300/180 and 26-29
// MAX_CURRENT_200..800; none of them bears on the bus mode.
constexpr BitNames caps_before_4_11{
    "4_BIT_DATA",    "MMC_HIGHSPEED",  "SD_HIGHSPEED",  "SDIO_IRQ",       "SPI",
    "NEEDS_POLL",    "8_BIT_DATA",     "AGGRESSIVE_PM", "NONREMOVABLE",   "WAIT_WHILE_BUSY",
    "ERASE",         "1_8V_DDR",       "1_2V_DDR",      "POWER_OFF_CARD", "BUS_WIDTH_TEST",
    "UHS_SDR12",     "UHS_SDR25",      "UHS_SDR50",     "UHS_SDR104",     "UHS_DDR50",
    "RUNTIME_RESUME", "",              "",              "DRIVER_TYPE_A",  "DRIVER_TYPE_C",
    "DRIVER_TYPE_D", "",               "",              "",               "CMD_DURING_TFR",
    "CMD23",         "HW_RESET",
};

// v4.11 and later. Bit 9 is SD_UHS2 from ~v6.13 and was unused before; bit 29
// is vendor- or version-dependent, so it stays unnamed.
constexpr BitNames caps2_current{
    "BOOTPART_NOACC",    "",                "FULL_PWR_CYCLE", "FULL_PWR_CYCLE_IN_SUSPEND", "",
    "HS200_1_8V_SDR",    "HS200_1_2V_SDR",  "SD_EXP",         "SD_EXP_1_2V",               "SD_UHS2",
    "CD_ACTIVE_HIGH",    "RO_ACTIVE_HIGH",  "",               "",                          "NO_PRESCAN_POWERUP",
    "HS400_1_8V",        "HS400_1_2V",      "SDIO_IRQ_NOTHREAD", "NO_WRITE_PROTECT",       "NO_SDIO",
    "HS400_ES",          "NO_SD",           "NO_MMC",         "CQE",                       "CQE_DCMD",
    "AVOID_3_3V",        "MERGE_CAPABLE",   "CRYPTO",         "ALT_GPT_TEGRA",             "",
    "",                  "",
};

// v3.15 (HS400) to v4.10. Before v3.15 the bits from 7 up meant other things
// and vendor trees moved them (one put HS400 at 21-22), which the doctor
// guards against separately.
constexpr BitNames caps2_before_4_11{
    "BOOTPART_NOACC",    "",                "FULL_PWR_CYCLE", "",                          "",
    "HS200_1_8V_SDR",    "HS200_1_2V_SDR",  "",               "",                          "HC_ERASE_SZ",
    "CD_ACTIVE_HIGH",    "RO_ACTIVE_HIGH",  "PACKED_RD",      "PACKED_WR",                 "NO_PRESCAN_POWERUP",
    "HS400_1_8V",        "HS400_1_2V",      "SDIO_IRQ_NOTHREAD", "NO_WRITE_PROTECT",       "NO_SDIO",
    "HS400_ES",          "NO_SD",           "NO_MMC",         "",                          "",
    "",                  "",                "",               "",                          "",
    "",                  "",
};

std::vector<std::string> decode(uint32_t value, const BitNames& names)
{
    std::vector<std::string> out;
    for (int bit = 0; bit < 32; ++bit) {
        if (!(value >> bit & 1)) continue;
        const auto name = names[static_cast<std::size_t>(bit)];
        out.push_back(name.empty() ? fmt::format("bit {}", bit) : std::string(name));
    }
    return out;
}

} // namespace

bool kernel_before(std::string_view version, int major, int minor)
{
    int v_major = 0, v_minor = 0;
    const char* end = version.data() + version.size();
    auto r = std::from_chars(version.data(), end, v_major);
    if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return false;
    r = std::from_chars(r.ptr + 1, end, v_minor);
    if (r.ec != std::errc()) return false;
    return v_major < major || (v_major == major && v_minor < minor);
}

bool is_kernel_version(std::string_view text)
{
    int major = 0, minor = 0;
    const char* end = text.data() + text.size();
    auto r = std::from_chars(text.data(), end, major);
    if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.' || major < 1 || major > 99) return false;
    const char* minor_at = r.ptr + 1;
    r = std::from_chars(minor_at, end, minor);
    if (r.ec != std::errc() || r.ptr == minor_at || minor < 0 || minor > 999) return false;
    for (const char* p = r.ptr; p != end; ++p) {
        const char c = *p;
        const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' ||
                        c == '+' || c == '~' || c == '_';
        if (!ok) return false;
    }
    return true;
}

std::vector<std::string> decode_caps(uint32_t caps, std::string_view kernel_version)
{
    return decode(caps, kernel_before(kernel_version, 4, 11) ? caps_before_4_11 : caps_current);
}

std::vector<std::string> decode_caps2(uint32_t caps2, std::string_view kernel_version)
{
    return decode(caps2, kernel_before(kernel_version, 4, 11) ? caps2_before_4_11 : caps2_current);
}

} // namespace mmc::bus

// ---- the mode bits a trial sets (bus/mode_caps.h) ----

#include "bus/mode_caps.h"

namespace mmc::bus {

namespace {

uint32_t bit_named(std::string_view name, const BitNames& names)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return 1u << i;
    return 0;
}

uint32_t bits(std::initializer_list<std::string_view> names, bool two)
{
    uint32_t v = 0;
    for (const auto n : names) v |= two ? caps2_bit(n) : caps_bit(n);
    return v;
}

} // namespace

std::span<const ModeFlag> mode_flags(regs::CardFamily family)
{
    static constexpr std::array<ModeFlag, 6> sd_flags{{
        {"SD_HIGHSPEED", "cap-sd-highspeed", Mode::hs},
        {"UHS_SDR12", "sd-uhs-sdr12", Mode::sdr12},
        {"UHS_SDR25", "sd-uhs-sdr25", Mode::sdr25},
        {"UHS_SDR50", "sd-uhs-sdr50", Mode::sdr50},
        {"UHS_SDR104", "sd-uhs-sdr104", Mode::sdr104},
        {"UHS_DDR50", "sd-uhs-ddr50", Mode::ddr50},
    }};
    static constexpr std::array<ModeFlag, 12> mmc_flags{{
        {"MMC_HIGHSPEED", "cap-mmc-highspeed", Mode::hs26},
        {"MMC_HIGHSPEED", "cap-mmc-highspeed", Mode::mmc_hs},
        {"3_3V_DDR", "mmc-ddr-3_3v", Mode::ddr52},
        {"1_8V_DDR", "mmc-ddr-1_8v", Mode::ddr52},
        {"1_2V_DDR", "mmc-ddr-1_2v", Mode::ddr52},
        {"HS200_1_8V_SDR", "mmc-hs200-1_8v", Mode::hs200},
        {"HS200_1_2V_SDR", "mmc-hs200-1_2v", Mode::hs200},
        {"", "mmc-hs400-1_8v", Mode::hs200},
        {"", "mmc-hs400-1_2v", Mode::hs200},
        {"HS400_1_8V", "mmc-hs400-1_8v", Mode::hs400},
        {"HS400_1_2V", "mmc-hs400-1_2v", Mode::hs400},
        {"HS400_ES", "mmc-hs400-enhanced-strobe", Mode::hs400es},
    }};
    if (family == regs::CardFamily::mmc) return mmc_flags;
    return sd_flags;
}

uint32_t caps_bit(std::string_view name) { return bit_named(name, caps_current); }
uint32_t caps2_bit(std::string_view name) { return bit_named(name, caps2_current); }

CapsPair writable_caps_bits()
{
    return {bits({"AGGRESSIVE_PM", "SD_HIGHSPEED", "MMC_HIGHSPEED", "UHS_SDR12", "UHS_SDR25", "UHS_SDR50", "UHS_SDR104",
                  "UHS_DDR50", "1_8V_DDR", "1_2V_DDR"},
                 false),
            bits({"HS200_1_8V_SDR", "HS200_1_2V_SDR", "HS400_1_8V", "HS400_1_2V"}, true)};
}

std::optional<CapsPair> caps_for_mode(Mode mode, CapsPair start, regs::CardFamily family_of_card)
{
    // Only the family's own bits change: an SD trial leaves the MMC bits
    // as they were, and the other way round.
    const bool sd = (mode == Mode::legacy && family_of_card != regs::CardFamily::mmc) || mode == Mode::hs || mode == Mode::sdr12 || mode == Mode::sdr25 ||
                    mode == Mode::sdr50 || mode == Mode::ddr50 || mode == Mode::sdr104;
    const CapsPair family = sd ? CapsPair{bits({"SD_HIGHSPEED", "UHS_SDR12", "UHS_SDR25", "UHS_SDR50", "UHS_SDR104", "UHS_DDR50"}, false), 0}
                               : CapsPair{bits({"MMC_HIGHSPEED", "1_8V_DDR", "1_2V_DDR"}, false), writable_caps_bits().caps2};
    CapsPair out{start.caps & ~family.caps, start.caps2 & ~family.caps2};
    // The voltage variants the host had stay as they were; 1.8 V is asked
    // for where it had none.
    const auto keep_or = [](uint32_t had, uint32_t v18, uint32_t v12) { return (had & (v18 | v12)) ? had & (v18 | v12) : v18; };
    const uint32_t ddr = keep_or(start.caps, caps_bit("1_8V_DDR"), caps_bit("1_2V_DDR"));
    const uint32_t hs200 = keep_or(start.caps2, caps2_bit("HS200_1_8V_SDR"), caps2_bit("HS200_1_2V_SDR"));
    const uint32_t hs400 = keep_or(start.caps2, caps2_bit("HS400_1_8V"), caps2_bit("HS400_1_2V"));
    const uint32_t uhs[] = {caps_bit("UHS_SDR12"), caps_bit("UHS_SDR25"), caps_bit("UHS_SDR50"), caps_bit("UHS_DDR50"),
                            caps_bit("UHS_SDR104")};
    const auto uhs_up_to = [&](int n) {
        uint32_t v = caps_bit("SD_HIGHSPEED");
        for (int i = 0; i <= n; ++i) v |= uhs[i];
        return v;
    };
    switch (mode) {
    case Mode::legacy: break;
    case Mode::hs: out.caps |= caps_bit("SD_HIGHSPEED"); break;
    case Mode::sdr25: out.caps |= uhs_up_to(1); break;
    case Mode::sdr50: out.caps |= uhs_up_to(2); break;
    case Mode::ddr50: out.caps |= uhs_up_to(3); break;
    case Mode::sdr104: out.caps |= uhs_up_to(4); break;
    case Mode::hs26:
    case Mode::mmc_hs: out.caps |= caps_bit("MMC_HIGHSPEED"); break;
    case Mode::ddr52: out.caps |= caps_bit("MMC_HIGHSPEED") | ddr; break;
    case Mode::hs200:
        out.caps |= caps_bit("MMC_HIGHSPEED") | ddr;
        out.caps2 |= hs200;
        break;
    case Mode::hs400es:
        if (!(start.caps2 & caps2_bit("HS400_ES"))) return std::nullopt;
        [[fallthrough]];
    case Mode::hs400:
        out.caps |= caps_bit("MMC_HIGHSPEED") | ddr;
        out.caps2 |= hs200 | hs400;
        break;
    case Mode::sdr12:
    case Mode::off: return std::nullopt;
    }
    return out;
}

std::vector<std::string> caps_change(CapsPair from, CapsPair to)
{
    std::vector<std::string> out;
    const auto diff = [&](uint32_t a, uint32_t b, const BitNames& names) {
        for (int bit = 0; bit < 32; ++bit) {
            const uint32_t m = 1u << bit;
            if ((a & m) == (b & m)) continue;
            const auto name = names[static_cast<std::size_t>(bit)];
            out.push_back(fmt::format("{}{}", (b & m) ? "+" : "-", name.empty() ? fmt::format("bit {}", bit) : std::string(name)));
        }
    };
    diff(from.caps, to.caps, caps_current);
    diff(from.caps2, to.caps2, caps2_current);
    return out;
}

} // namespace mmc::bus
