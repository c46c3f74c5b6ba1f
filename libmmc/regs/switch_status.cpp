// Switch function status: the 512-bit data block an SD card returns to CMD6
// (SWITCH_FUNC), in mode 0 (check) or mode 1 (switch). SD only.
// SD Physical Layer Simplified Specification, 4.3.10 (Table 4-13 "Status Data
// Structure", Table 4-11 function groups). Bit 511 is the MSB of byte 0, so
// Linux's status[13] (group 1 support, low byte), status[16] & 0xf (group 1
// selection) and status[15] (group 3 / group 4 selection) land where this
// table puts them (drivers/mmc/core/sd.c mmc_read_switch, mmc_sd_switch_hs,
// sd_select_driver_type, sd_set_current_limit).
#include "regs/decode.h"
#include "regs/field_raw.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

constexpr std::array<FieldSpec, 20> switch_status_layout{{
    {"max_current", 511, 496, "maximum current of the selected functions, mA (0: error)"},
    {"fun_grp6_support", 495, 480, "function group 6 (reserved): supported functions"},
    {"fun_grp5_support", 479, 464, "function group 5 (reserved): supported functions"},
    {"fun_grp4_support", 463, 448, "function group 4 (power limit): supported functions"},
    {"fun_grp3_support", 447, 432, "function group 3 (driver strength): supported functions"},
    {"fun_grp2_support", 431, 416, "function group 2 (command system): supported functions"},
    {"fun_grp1_support", 415, 400, "function group 1 (access mode / bus speed): supported functions"},
    {"fun_grp6_sel", 399, 396, "function group 6: selected function (0xf: not supported)"},
    {"fun_grp5_sel", 395, 392, "function group 5: selected function (0xf: not supported)"},
    {"fun_grp4_sel", 391, 388, "function group 4: selected function (0xf: not supported)"},
    {"fun_grp3_sel", 387, 384, "function group 3: selected function (0xf: not supported)"},
    {"fun_grp2_sel", 383, 380, "function group 2: selected function (0xf: not supported)"},
    {"fun_grp1_sel", 379, 376, "function group 1: selected function (0xf: not supported)"},
    {"data_structure_version", 375, 368, "data structure version (0: bits 511:376, 1: adds busy status)"},
    {"fun_grp6_busy", 367, 352, "function group 6: busy functions (version 1)"},
    {"fun_grp5_busy", 351, 336, "function group 5: busy functions (version 1)"},
    {"fun_grp4_busy", 335, 320, "function group 4: busy functions (version 1)"},
    {"fun_grp3_busy", 319, 304, "function group 3: busy functions (version 1)"},
    {"fun_grp2_busy", 303, 288, "function group 2: busy functions (version 1)"},
    {"fun_grp1_busy", 287, 272, "function group 1: busy functions (version 1)"},
}};

struct Function {
    int number;
    std::string_view name;  // as listed in bus_speed_modes_supported etc.
    std::string_view brief; // for the summary
};

// Group 1, access mode (bus speed). Functions 5-14 are reserved.
constexpr std::array<Function, 5> access_modes{{
    {0, "SDR12/default", "SDR12"},
    {1, "SDR25/high speed", "SDR25"},
    {2, "SDR50", "SDR50"},
    {3, "SDR104", "SDR104"},
    {4, "DDR50", "DDR50"},
}};

// Group 2, command system. 2 and 5-13 are reserved; 14 is vendor specific
// (SanDisk's DDR200 mode is entered through it).
constexpr std::array<Function, 5> command_systems{{
    {0, "default", "default"},
    {1, "eC", "eC"},
    {3, "OTP", "OTP"},
    {4, "ASSD", "ASSD"},
    {14, "vendor specific", "vendor"},
}};

// Group 3, driver strength: type B is the default.
constexpr std::array<Function, 4> driver_types{{
    {0, "B", "B"},
    {1, "A", "A"},
    {2, "C", "C"},
    {3, "D", "D"},
}};

// Group 4: "current limit" in SD 3.0x (200-800 mA), "power limit" since SD
// 4.00 (the same functions at 3.6 V, plus 1.80 W).
constexpr std::array<Function, 5> power_limits{{
    {0, "0.72 W (200 mA)", "0.72 W"},
    {1, "1.44 W (400 mA)", "1.44 W"},
    {2, "2.16 W (600 mA)", "2.16 W"},
    {3, "2.88 W (800 mA)", "2.88 W"},
    {4, "1.80 W", "1.80 W"},
}};
constexpr std::array<int64_t, 4> current_limit_ma{200, 400, 600, 800};

template <std::size_t N>
std::string function_name(const std::array<Function, N>& names, uint64_t fn, bool brief = false)
{
    if (fn == 0xf) return "none (0xf: not supported)";
    for (const auto& f : names)
        if (static_cast<uint64_t>(f.number) == fn) return std::string(brief ? f.brief : f.name);
    return fmt::format("function {} (reserved)", fn);
}

// Bit 15 of a support field stands for argument 0xf ("no change"), which
// every card accepts, so it is not a function to list.
template <std::size_t N>
StringList supported(const std::array<Function, N>& names, uint64_t mask, bool brief = false)
{
    StringList out;
    for (uint64_t fn = 0; fn < 15; ++fn)
        if (mask & (uint64_t{1} << fn)) out.push_back(function_name(names, fn, brief));
    return out;
}

std::string join(const StringList& list) { return list.empty() ? "none" : fmt::format("{}", fmt::join(list, ", ")); }

} // namespace

std::span<const FieldSpec> switch_status_table() { return switch_status_layout; }

DecodedRegister decode_switch_status(std::span<const uint8_t> reg)
{
    require_size(RegKind::switch_status, reg);
    DecodedRegister r{RegKind::switch_status, CardFamily::sd, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_bit_fields(reg, switch_status_layout);

    const auto max_current = static_cast<int64_t>(field_raw(r, "max_current"));
    r.add("max_current_ma", max_current, "Maximum current",
          max_current ? fmt::format("{} mA", max_current) : "0 (a selected function is in error)");
    if (max_current == 0)
        r.warnings.push_back("maximum current is 0: the card reports an error in the selected functions");

    const uint64_t grp1 = field_raw(r, "fun_grp1_support"), sel1 = field_raw(r, "fun_grp1_sel");
    r.add("bus_speed_modes_supported", supported(access_modes, grp1), "Bus speed modes supported");
    r.add("bus_speed_mode_selected", function_name(access_modes, sel1), "Bus speed mode selected");

    const uint64_t grp2 = field_raw(r, "fun_grp2_support"), sel2 = field_raw(r, "fun_grp2_sel");
    r.add("command_system_supported", supported(command_systems, grp2), "Command systems supported");
    r.add("command_system_selected", function_name(command_systems, sel2), "Command system selected");

    const uint64_t grp3 = field_raw(r, "fun_grp3_support"), sel3 = field_raw(r, "fun_grp3_sel");
    r.add("driver_types_supported", supported(driver_types, grp3), "Driver strengths supported");
    r.add("driver_type_selected", function_name(driver_types, sel3), "Driver strength selected");

    const uint64_t grp4 = field_raw(r, "fun_grp4_support"), sel4 = field_raw(r, "fun_grp4_sel");
    IntList currents;
    for (std::size_t fn = 0; fn < current_limit_ma.size(); ++fn)
        if (grp4 & (uint64_t{1} << fn)) currents.push_back(current_limit_ma[fn]);
    r.add("current_limits_supported", currents, "Current limits supported (mA)",
          currents.empty() ? "none" : fmt::format("{} mA", fmt::join(currents, ", ")));
    r.add("power_limits_supported", supported(power_limits, grp4), "Power limits supported");
    r.add("power_limit_selected", function_name(power_limits, sel4), "Power limit selected");

    const uint64_t version = field_raw(r, "data_structure_version");
    r.add("data_structure_version", static_cast<int64_t>(version), "Data structure version");
    if (version == 1) {
        StringList busy;
        for (int g = 1; g <= 6; ++g) {
            const uint64_t mask = field_raw(r, fmt::format("fun_grp{}_busy", g));
            for (uint64_t fn = 0; fn < 16; ++fn)
                if (mask & (uint64_t{1} << fn)) busy.push_back(fmt::format("group {} function {}", g, fn));
        }
        r.add("busy_functions", busy, "Busy functions", join(busy));
    } else if (version > 1) {
        r.warnings.push_back(fmt::format("data structure version {} is not defined (0 or 1)", version));
    }

    for (int g = 1; g <= 6; ++g) {
        if (field_raw(r, fmt::format("fun_grp{}_sel", g)) == 0xf)
            r.warnings.push_back(fmt::format("function group {}: selection 0xf, the requested function is not "
                                             "supported",
                                             g));
        if ((field_raw(r, fmt::format("fun_grp{}_support", g)) & 1) == 0)
            r.warnings.push_back(fmt::format("function group {}: default function 0 is not marked supported", g));
    }

    r.summary = fmt::format("supports {}; selected {}", join(supported(access_modes, grp1, true)),
                            function_name(access_modes, sel1, true));
    return r;
}

} // namespace mmc::regs
