// OCR, the operation conditions register (32 bits).
// SD: Physical Layer Simplified Specification 9.10, 5.1 (Table 5-1).
// MMC: JESD84-B51, 7.1 (OCR register).
//
// The image is the 32-bit value, most significant byte first. Linux sysfs
// shows the voltage bits the host selected (mmc_select_voltage), not the R3
// response: usually one or two window bits with busy, CCS and S18A clear.
#include "regs/decode.h"
#include "regs/field_raw.h"

#include "regs/bitfield.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

constexpr std::array<FieldSpec, 7> sd_ocr_layout{{
    {"busy", 31, 31, "card power up status (1: power up done)"},
    {"ccs", 30, 30, "card capacity status (1: SDHC/SDXC/SDUC), valid when busy is 1"},
    {"uhs2", 29, 29, "UHS-II card status"},
    {"co2t", 27, 27, "over 2 TB support status (SDUC)"},
    {"s18a", 24, 24, "switching to 1.8 V signalling accepted"},
    {"vdd_window", 23, 15, "VDD voltage window 2.7-3.6 V, one bit per 0.1 V"},
    {"low_voltage", 7, 7, "reserved for the low voltage range"},
}};

constexpr std::array<FieldSpec, 6> mmc_ocr_layout{{
    {"busy", 31, 31, "card power up status (1: power up done)"},
    {"access_mode", 30, 29, "access mode (0: byte, 2: sector)"},
    {"reserved", 28, 24, "reserved"},
    {"vdd_window", 23, 15, "VDD voltage window 2.7-3.6 V, one bit per 0.1 V"},
    {"vdd_2v0_2v6", 14, 8, "VDD 2.0-2.6 V (0 on e-MMC)"},
    {"low_voltage", 7, 7, "VDD 1.70-1.95 V"},
}};

// Bits the SD table leaves reserved: 28, 26:25, 14:8 and 6:0.
constexpr uint32_t sd_reserved_mask = 0x16007f7f;
constexpr uint32_t mmc_reserved_bits_6_0 = 0x7f;
constexpr uint32_t window_mask = 0x00ff8000;

// "2.7-2.8V" for window bit 15 up to "3.5-3.6V" for bit 23.
std::string window_bit_text(int bit)
{
    const int lo = 27 + (bit - 15);
    return fmt::format("{}.{}-{}.{}V", lo / 10, lo % 10, (lo + 1) / 10, (lo + 1) % 10);
}

// Contiguous runs of window bits, e.g. "2.7-3.6 V" or "3.2-3.4 V".
std::string window_summary(uint32_t value)
{
    std::vector<std::string> runs;
    for (int bit = 15; bit <= 23; ++bit) {
        if (!(value & (1u << bit))) continue;
        int end = bit;
        while (end < 23 && (value & (1u << (end + 1)))) ++end;
        const int lo = 27 + (bit - 15), hi = 28 + (end - 15);
        runs.push_back(fmt::format("{}.{}-{}.{} V", lo / 10, lo % 10, hi / 10, hi % 10));
        bit = end;
    }
    return runs.empty() ? std::string("no 2.7-3.6 V window") : fmt::format("{}", fmt::join(runs, ", "));
}

void add_voltages(DecodedRegister& r, uint32_t value, std::string_view low_text)
{
    r.add("voltage_window_mask", static_cast<int64_t>(value & window_mask), "Voltage window mask",
          fmt::format("0x{:08x}", value & window_mask));
    // Only the 2.7-3.6 V window: bit 7 is reported on its own below.
    StringList ranges;
    for (int bit = 15; bit <= 23; ++bit)
        if (value & (1u << bit)) ranges.push_back(window_bit_text(bit));
    r.add("voltage_ranges", ranges, "Voltage ranges", ranges.empty() ? "none" : value_text(ranges));
    const bool low = field_raw(r, "low_voltage") != 0;
    r.add("low_voltage_range", low, "Low voltage range", low ? std::string(low_text) : "no");
}

void decode_sd_ocr(DecodedRegister& r, uint32_t value)
{
    const bool busy = field_raw(r, "busy") != 0;
    r.add("power_up_done", busy, "Power up done", busy ? "yes (busy bit 31 set)" : "no (busy bit 31 clear)");
    add_voltages(r, value, "1.70-1.95V (dual voltage card)");

    std::string capacity;
    if (!busy)
        capacity = "not reported (CCS is valid only when bit 31 is 1)";
    else if (!field_raw(r, "ccs"))
        capacity = "SDSC (CCS=0)";
    else if (field_raw(r, "co2t"))
        capacity = "SDUC (CCS=1, CO2T=1)";
    else
        capacity = "SDHC/SDXC (CCS=1)";
    r.add("capacity", capacity, "Capacity status");
    r.add("signalling",
          std::string(field_raw(r, "s18a") ? "1.8 V switching accepted (S18A)" : "3.3 V only (S18A=0)"),
          "Signalling voltage");
    r.add("uhs2_card", field_raw(r, "uhs2") != 0, "UHS-II card");

    if (value & sd_reserved_mask)
        r.warnings.push_back(fmt::format("reserved OCR bits set: 0x{:08x}", value & sd_reserved_mask));
    if (!busy && (field_raw(r, "ccs") || field_raw(r, "s18a") || field_raw(r, "uhs2") || field_raw(r, "co2t")))
        r.warnings.push_back("CCS, UHS-II, CO2T or S18A set while bit 31 (power up done) is 0: "
                             "those bits are valid only once the card is powered up");
    if (busy && !(value & window_mask)) r.warnings.push_back("no 2.7-3.6 V window bit set");

    if (busy)
        r.summary = fmt::format("SD OCR: powered up, {}, {}, {}{}", capacity, window_summary(value),
                                field_raw(r, "s18a") ? "1.8 V switching accepted" : "no 1.8 V switching",
                                field_raw(r, "uhs2") ? ", UHS-II" : "");
    else
        r.summary = fmt::format("SD OCR: {}; busy bit clear, so this looks like the host-masked voltage "
                                "selection Linux shows in sysfs, not the card's R3 response",
                                window_summary(value));
}

void decode_mmc_ocr(DecodedRegister& r, uint32_t value)
{
    const bool busy = field_raw(r, "busy") != 0;
    r.add("power_up_done", busy, "Power up done", busy ? "yes (busy bit 31 set)" : "no (busy bit 31 clear)");
    add_voltages(r, value, "1.70-1.95V");

    // The access mode is the device's answer only in its R3 response (busy
    // set); Linux's sysfs copy is the host's voltage selection without it.
    const uint64_t mode = field_raw(r, "access_mode");
    std::string mode_text = !busy       ? "not reported (valid only when bit 31 is 1)"
                            : mode == 0 ? "byte mode (up to 2 GB)"
                            : mode == 2 ? "sector mode (over 2 GB)"
                                        : fmt::format("reserved ({})", mode);
    r.add("access_mode_text", mode_text, "Access mode");

    if (mode == 1 || mode == 3) r.warnings.push_back(fmt::format("access mode {} is reserved", mode));
    if (field_raw(r, "reserved") || (value & mmc_reserved_bits_6_0))
        r.warnings.push_back(fmt::format("reserved OCR bits set: 0x{:08x}", value & (0x1f000000u | mmc_reserved_bits_6_0)));
    if (busy && !(value & window_mask) && !field_raw(r, "low_voltage"))
        r.warnings.push_back("no voltage range bit set");

    const std::string voltages = field_raw(r, "low_voltage") ? window_summary(value) + " and 1.70-1.95 V"
                                                       : window_summary(value);
    if (busy)
        r.summary = fmt::format("MMC OCR: powered up, {}, {}", mode_text, voltages);
    else
        r.summary = fmt::format("MMC OCR: {}; busy bit clear, so this looks like the host-masked voltage "
                                "selection Linux shows in sysfs, not the device's R3 response",
                                voltages);
}

} // namespace

std::span<const FieldSpec> ocr_table(CardFamily card)
{
    if (card == CardFamily::mmc) return mmc_ocr_layout;
    return sd_ocr_layout;
}

DecodedRegister decode_ocr(std::span<const uint8_t> reg, CardFamily card)
{
    require_size(RegKind::ocr, reg);
    DecodedRegister r{RegKind::ocr, card, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_bit_fields(reg, ocr_table(card));
    const auto value = static_cast<uint32_t>(bits(reg, 31, 0));
    if (card == CardFamily::sd)
        decode_sd_ocr(r, value);
    else
        decode_mmc_ocr(r, value);
    return r;
}

} // namespace mmc::regs
