// Card status: the 32-bit R1 response (CMD13 SEND_STATUS and most others).
// SD: Physical Layer Simplified Specification, 4.10.1 (Table 4-42 card status).
// MMC: JESD84-B51, 6.13 (Table 68 device status). The image is 4 bytes,
// big-endian, as Linux logs it ("card status 0x900" is 00000900).
#include "regs/decode.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

// Bits both families define the same way (SD names; JESD84 calls bit 31
// ADDRESS_OUT_OF_RANGE, 30 ADDRESS_MISALIGN, 25 DEVICE_IS_LOCKED, 21
// DEVICE_ECC_FAILED and 16 CID/CSD_OVERWRITE).
constexpr std::array<FieldSpec, 12> core_errors{{
    {"out_of_range", 31, 31, "command argument out of range"},
    {"address_error", 30, 30, "misaligned address"},
    {"block_len_error", 29, 29, "block length not allowed"},
    {"erase_seq_error", 28, 28, "error in the erase command sequence"},
    {"erase_param", 27, 27, "invalid selection of write blocks for erase"},
    {"wp_violation", 26, 26, "write to a write-protected block"},
    {"card_is_locked", 25, 25, "card locked by the host"},
    {"lock_unlock_failed", 24, 24, "lock/unlock sequence or password error"},
    {"com_crc_error", 23, 23, "CRC of the previous command failed"},
    {"illegal_command", 22, 22, "command not legal in the current state"},
    {"card_ecc_failed", 21, 21, "internal ECC failed to correct the data"},
    {"cc_error", 20, 20, "internal card controller error"},
}};

constexpr std::array<FieldSpec, 1> general_error{{{"error", 19, 19, "general or unknown error"}}};

// MMC 4.41 and earlier: stream read/write could not keep up. The stream
// commands (CMD11, CMD20) are gone in eMMC 4.5+, where the bits are obsolete.
constexpr std::array<FieldSpec, 2> mmc_stream{{
    {"underrun", 18, 18, "stream read could not sustain the transfer (MMC <= 4.41)"},
    {"overrun", 17, 17, "stream write could not sustain the transfer (MMC <= 4.41)"},
}};

constexpr std::array<FieldSpec, 6> core_status{{
    {"csd_overwrite", 16, 16, "CID/CSD overwrite: read-only section mismatch or bad copy/WP change"},
    {"wp_erase_skip", 15, 15, "only part of the range was erased (write-protected blocks)"},
    {"card_ecc_disabled", 14, 14, "command executed without internal ECC"},
    {"erase_reset", 13, 13, "erase sequence cleared by an out-of-sequence command"},
    {"current_state", 12, 9, "state of the card when the command was received"},
    {"ready_for_data", 8, 8, "buffer empty: ready for data"},
}};

// SD bits 7, 4 and 18 are reserved, 17 is reserved for DEFERRED_RESPONSE,
// 2 for application-specific commands and 1:0 for manufacturer test mode.
constexpr std::array<FieldSpec, 3> sd_low{{
    {"fx_event", 6, 6, "extension functions event (SD 6.00+)"},
    {"app_cmd", 5, 5, "next command is expected as an application command"},
    {"ake_seq_error", 3, 3, "error in the authentication sequence"},
}};

// MMC bits 4:2 are reserved and 1:0 reserved for manufacturer test mode.
constexpr std::array<FieldSpec, 3> mmc_low{{
    {"switch_error", 7, 7, "SWITCH command refused: the mode was not changed"},
    {"exception_event", 6, 6, "an exception is raised in EXT_CSD EXCEPTION_EVENTS_STATUS"},
    {"app_cmd", 5, 5, "next command is expected as an application command"},
}};

constexpr auto sd_status_layout = concat(core_errors, general_error, core_status, sd_low);
constexpr auto mmc_status_layout = concat(core_errors, general_error, mmc_stream, core_status, mmc_low);

// Error bits (type E in the specs) by field name; the rest are status bits.
constexpr std::array<std::string_view, 18> error_bits{
    "out_of_range",   "address_error",   "block_len_error", "erase_seq_error", "erase_param", "wp_violation",
    "lock_unlock_failed", "com_crc_error", "illegal_command", "card_ecc_failed", "cc_error", "error",
    "underrun",       "overrun",         "csd_overwrite",   "wp_erase_skip",   "ake_seq_error", "switch_error",
};

bool is_error(std::string_view name)
{
    for (auto e : error_bits)
        if (e == name) return true;
    return false;
}

std::string_view state_name(uint64_t state, CardFamily card)
{
    static constexpr std::array<std::string_view, 9> common{"idle", "ready", "ident", "stby", "tran",
                                                            "data", "rcv",   "prg",   "dis"};
    if (state < common.size()) return common[state];
    if (card == CardFamily::mmc && state == 9) return "btst";
    if (card == CardFamily::mmc && state == 10) return "slp";
    if (card == CardFamily::sd && state == 15) return "reserved for I/O mode";
    return "reserved";
}

} // namespace

std::span<const FieldSpec> card_status_table(CardFamily card)
{
    if (card == CardFamily::mmc) return mmc_status_layout;
    return sd_status_layout;
}

DecodedRegister decode_card_status(std::span<const uint8_t> reg, CardFamily card)
{
    require_size(RegKind::status, reg);
    DecodedRegister r{RegKind::status, card, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_bit_fields(reg, card_status_table(card));

    const uint64_t state = r.field("current_state")->raw;
    const std::string name(state_name(state, card));
    r.add("current_state_name", name, "Current state", fmt::format("{} ({})", name, state));
    if (name.starts_with("reserved"))
        r.warnings.push_back(fmt::format("CURRENT_STATE {} is {}", state, name));

    StringList errors, flags;
    for (const auto& f : r.fields) {
        if (f.spec->hi != f.spec->lo || f.raw == 0) continue;
        (is_error(f.spec->name) ? errors : flags).emplace_back(f.spec->name);
    }
    const bool ok = errors.empty();
    r.add("errors", errors, "Error bits set", ok ? "none" : fmt::format("{}", fmt::join(errors, ", ")));
    r.add("status_flags", flags, "Status bits set", flags.empty() ? "none" : fmt::format("{}", fmt::join(flags, ", ")));
    r.add("ok", ok, "No error bits set");

    const uint32_t value = static_cast<uint32_t>(reg[0]) << 24 | static_cast<uint32_t>(reg[1]) << 16 |
                           static_cast<uint32_t>(reg[2]) << 8 | reg[3];
    r.add("value", static_cast<int64_t>(value), "Card status", fmt::format("0x{:08x}", value));
    const uint32_t reserved = card == CardFamily::sd ? 0x00040090u : 0x0000001cu;
    if (value & reserved)
        r.warnings.push_back(fmt::format("reserved bits set: 0x{:08x}", value & reserved));

    r.summary = fmt::format("state {}, {}, {}", name,
                            r.field("ready_for_data")->raw ? "ready for data" : "not ready for data",
                            ok ? "no errors" : fmt::format("errors: {}", fmt::join(errors, ", ")));
    if (r.field("card_is_locked")->raw) r.summary += ", card locked";
    return r;
}

} // namespace mmc::regs
