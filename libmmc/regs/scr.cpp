// SCR, the SD card configuration register (64 bits, SD only).
// SD Physical Layer Simplified Specification 9.10, 5.6 (Table 5-17 SCR
// fields, Table 5-18 physical layer specification version).
#include "regs/decode.h"
#include "regs/field_raw.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

// Bits [37:36] are reserved and not listed. CMD_SUPPORT is the four bits
// [35:32] defined since SD 6.00 (bit 32 CMD20 ... bit 35 CMD58/59).
constexpr std::array<FieldSpec, 11> scr_layout{{
    {"scr_structure", 63, 60, "SCR structure version"},
    {"sd_spec", 59, 56, "physical layer specification version"},
    {"data_stat_after_erase", 55, 55, "data status after erase (0: 0x00, 1: 0xff)"},
    {"sd_security", 54, 52, "CPRM security version"},
    {"sd_bus_widths", 51, 48, "DAT bus widths supported (bit 0: 1-bit, bit 2: 4-bit)"},
    {"sd_spec3", 47, 47, "specification version 3.00 or higher"},
    {"ex_security", 46, 43, "extended security support"},
    {"sd_spec4", 42, 42, "specification version 4.00 or higher"},
    {"sd_specx", 41, 38, "specification version 5.00 or higher (1: 5.xx, 2: 6.xx, ...)"},
    {"cmd_support", 35, 32, "command support bits (CMD20, CMD23, CMD48/49, CMD58/59)"},
    {"reserved_mfg", 31, 0, "reserved for manufacturer usage"},
}};

// Table 5-18. Returns the version text; pushes a warning for combinations
// the table does not list.
std::string spec_version(DecodedRegister& r)
{
    const uint64_t spec = field_raw(r, "sd_spec");
    const uint64_t spec3 = field_raw(r, "sd_spec3");
    const uint64_t spec4 = field_raw(r, "sd_spec4");
    const uint64_t specx = field_raw(r, "sd_specx");

    if (spec != 2 && (spec3 || spec4 || specx))
        r.warnings.push_back(fmt::format(
            "SD_SPEC is {} but SD_SPEC3/SD_SPEC4/SD_SPECX are set; they are defined only with SD_SPEC 2", spec));
    if (spec == 0) return "1.0 and 1.01";
    if (spec == 1) return "1.10";
    if (spec > 2) {
        r.warnings.push_back(fmt::format("SD_SPEC {} is reserved", spec));
        return fmt::format("reserved (SD_SPEC {})", spec);
    }
    if (!spec3) {
        if (spec4 || specx)
            r.warnings.push_back("SD_SPEC4 or SD_SPECX is set without SD_SPEC3; the table requires SD_SPEC3 = 1");
        return "2.00";
    }
    if (specx == 0) return spec4 ? "4.xx" : "3.0x";
    // SD_SPEC4 is "don't care" once SD_SPECX is non-zero.
    if (specx <= 5) return fmt::format("{}.xx", specx + 4);
    r.warnings.push_back(fmt::format("SD_SPECX {} is newer than this decoder knows (5 = 9.xx)", specx));
    return fmt::format("newer than 9.xx (SD_SPECX {})", specx);
}

std::string security_text(uint64_t security)
{
    static constexpr std::array<std::string_view, 5> names{
        "none", "not used", "SDSC (security v1.01)", "SDHC (security v2.00)", "SDXC (security v3.xx)"};
    return security < names.size() ? std::string(names[security]) : fmt::format("reserved ({})", security);
}

} // namespace

std::span<const FieldSpec> scr_table() { return scr_layout; }

DecodedRegister decode_scr(std::span<const uint8_t> reg)
{
    require_size(RegKind::scr, reg);
    DecodedRegister r{RegKind::scr, CardFamily::sd, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_bit_fields(reg, scr_layout);

    if (field_raw(r, "scr_structure") != 0)
        r.warnings.push_back(fmt::format("SCR_STRUCTURE {} is reserved (only 0, SCR 1.0, is defined); "
                                         "fields decoded with the 1.0 layout",
                                         field_raw(r, "scr_structure")));

    const std::string version = spec_version(r);
    r.add("spec_version", version, "Physical layer specification", "Version " + version);

    const uint64_t widths = field_raw(r, "sd_bus_widths");
    StringList bus;
    if (widths & 1) bus.emplace_back("1-bit");
    if (widths & 4) bus.emplace_back("4-bit");
    r.add("bus_widths", bus, "Bus widths");
    if (!(widths & 1) || !(widths & 4))
        r.warnings.push_back(fmt::format("SD_BUS_WIDTHS is 0x{:x}: every SD card shall support both 1-bit and "
                                         "4-bit (bits 0 and 2 set)",
                                         widths));
    if (widths & 0xa)
        r.warnings.push_back(fmt::format("SD_BUS_WIDTHS 0x{:x} sets reserved bits 1 or 3", widths));

    const uint64_t security = field_raw(r, "sd_security");
    r.add("security", security_text(security), "CPRM security");
    if (security > 4) r.warnings.push_back(fmt::format("SD_SECURITY {} is reserved", security));

    r.add("extended_security", field_raw(r, "ex_security") != 0, "Extended security",
          field_raw(r, "ex_security") ? fmt::format("supported (0x{:x})", field_raw(r, "ex_security")) : "not supported");

    const bool erased_ones = field_raw(r, "data_stat_after_erase") != 0;
    r.add("erased_data_pattern", std::string(erased_ones ? "0xff" : "0x00"), "Data after erase",
          erased_ones ? "0xff (bits read as 1)" : "0x00 (bits read as 0)");

    static constexpr std::array<std::string_view, 4> commands{
        "CMD20 speed class control", "CMD23 set block count", "CMD48/49 extension register single block",
        "CMD58/59 extension register multi block"};
    const uint64_t cmd = field_raw(r, "cmd_support");
    StringList supported;
    for (std::size_t i = 0; i < commands.size(); ++i)
        if (cmd & (1u << i)) supported.emplace_back(commands[i]);
    r.add("command_support", supported, "Optional commands", supported.empty() ? "none" : value_text(supported));
    // Linux reads CMD_SUPPORT only when SD_SPEC3 is set; the bits were
    // reserved before version 3.00.
    if (cmd && !field_raw(r, "sd_spec3"))
        r.warnings.push_back("CMD_SUPPORT is set on a card that does not claim SD 3.00 (SD_SPEC3 = 0)");

    static constexpr std::array<std::string_view, 4> short_names{"CMD20", "CMD23", "CMD48/49", "CMD58/59"};
    StringList short_supported;
    for (std::size_t i = 0; i < short_names.size(); ++i)
        if (cmd & (1u << i)) short_supported.emplace_back(short_names[i]);
    r.summary = fmt::format("SCR: SD {}, {} bus, security {}, {}", version,
                            bus.empty() ? std::string("no") : fmt::format("{}", fmt::join(bus, "/")),
                            r.find("security")->text,
                            short_supported.empty() ? std::string("no optional commands")
                                                    : fmt::format("{}", fmt::join(short_supported, " ")));
    return r;
}

} // namespace mmc::regs
