// Card status (R1) for SD and MMC.
#include "regs/decode.h"
#include "regs/hex.h"

#include <array>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mmc::regs;

namespace {

DecodedRegister status(uint32_t value, CardFamily card)
{
    const std::vector<uint8_t> reg{static_cast<uint8_t>(value >> 24), static_cast<uint8_t>(value >> 16),
                                   static_cast<uint8_t>(value >> 8), static_cast<uint8_t>(value)};
    return decode_card_status(reg, card);
}

template <typename T>
const T& value(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    if (!d) throw std::runtime_error(std::string("missing ") + std::string(key));
    return std::get<T>(d->value);
}

} // namespace

TEST(CardStatus, TranReadyNoErrors)
{
    const auto r = decode_card_status(parse_register_hex(RegKind::status, "00000900"), CardFamily::sd);
    EXPECT_EQ(r.kind, RegKind::status);
    EXPECT_EQ(r.field("current_state")->raw, 4u);
    EXPECT_EQ(r.field("ready_for_data")->raw, 1u);
    EXPECT_EQ(value<std::string>(r, "current_state_name"), "tran");
    EXPECT_TRUE(value<bool>(r, "ok"));
    EXPECT_TRUE(value<StringList>(r, "errors").empty());
    EXPECT_EQ(value<StringList>(r, "status_flags"), (StringList{"ready_for_data"}));
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.summary, "state tran, ready for data, no errors");
}

TEST(CardStatus, ShortHexIsANumber)
{
    // Linux logs "card status 0x400900": illegal command, in tran.
    const auto r = decode_card_status(parse_register_hex(RegKind::status, "0x400900"), CardFamily::mmc);
    EXPECT_EQ(value<StringList>(r, "errors"), (StringList{"illegal_command"}));
    EXPECT_FALSE(value<bool>(r, "ok"));
    EXPECT_EQ(r.summary, "state tran, ready for data, errors: illegal_command");
}

TEST(CardStatus, ErrorBitsBySpecName)
{
    const auto r = status(0xfdf9c000u | 0x8u, CardFamily::sd); // every SD error bit, card not locked
    EXPECT_EQ(value<StringList>(r, "errors"),
              (StringList{"out_of_range", "address_error", "block_len_error", "erase_seq_error", "erase_param",
                          "wp_violation", "lock_unlock_failed", "com_crc_error", "illegal_command",
                          "card_ecc_failed", "cc_error", "error", "csd_overwrite", "wp_erase_skip",
                          "ake_seq_error"}));
    EXPECT_EQ(value<StringList>(r, "status_flags"), (StringList{"card_ecc_disabled"}));
    EXPECT_EQ(value<std::string>(r, "current_state_name"), "idle");
}

TEST(CardStatus, StatusBitsAreNotErrors)
{
    const auto r = status(0x02002920u, CardFamily::sd); // locked, erase_reset, tran, ready, app_cmd
    EXPECT_TRUE(value<bool>(r, "ok"));
    EXPECT_EQ(value<StringList>(r, "status_flags"),
              (StringList{"card_is_locked", "erase_reset", "ready_for_data", "app_cmd"}));
    EXPECT_EQ(r.summary, "state tran, ready for data, no errors, card locked");
}

TEST(CardStatus, SdStates)
{
    const std::array<std::string, 9> names{"idle", "ready", "ident", "stby", "tran", "data", "rcv", "prg", "dis"};
    for (uint32_t s = 0; s < names.size(); ++s) {
        const auto r = status(s << 9, CardFamily::sd);
        EXPECT_EQ(value<std::string>(r, "current_state_name"), names[s]);
        EXPECT_TRUE(r.warnings.empty());
    }
    const auto io = status(15u << 9, CardFamily::sd);
    EXPECT_EQ(value<std::string>(io, "current_state_name"), "reserved for I/O mode");
    EXPECT_EQ(io.warnings.size(), 1u);
    const auto nine = status(9u << 9, CardFamily::sd);
    EXPECT_EQ(value<std::string>(nine, "current_state_name"), "reserved");
    EXPECT_EQ(nine.warnings.size(), 1u);
}

TEST(CardStatus, MmcStates)
{
    EXPECT_EQ(value<std::string>(status(9u << 9, CardFamily::mmc), "current_state_name"), "btst");
    EXPECT_EQ(value<std::string>(status(10u << 9, CardFamily::mmc), "current_state_name"), "slp");
    EXPECT_EQ(value<std::string>(status(7u << 9, CardFamily::mmc), "current_state_name"), "prg");
    const auto r = status(11u << 9, CardFamily::mmc);
    EXPECT_EQ(value<std::string>(r, "current_state_name"), "reserved");
    EXPECT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(value<std::string>(status(15u << 9, CardFamily::mmc), "current_state_name"), "reserved");
}

TEST(CardStatus, FamilySpecificLowBits)
{
    // Bit 7: SWITCH_ERROR on MMC, reserved on SD. Bit 6: EXCEPTION_EVENT / FX_EVENT.
    const auto mmc = status(0x000009c0u, CardFamily::mmc);
    EXPECT_EQ(value<StringList>(mmc, "errors"), (StringList{"switch_error"}));
    EXPECT_EQ(value<StringList>(mmc, "status_flags"), (StringList{"ready_for_data", "exception_event"}));
    EXPECT_TRUE(mmc.warnings.empty());

    const auto sd = status(0x000009c0u, CardFamily::sd);
    EXPECT_TRUE(value<bool>(sd, "ok"));
    EXPECT_EQ(value<StringList>(sd, "status_flags"), (StringList{"ready_for_data", "fx_event"}));
    ASSERT_EQ(sd.warnings.size(), 1u);
    EXPECT_NE(sd.warnings[0].find("0x00000080"), std::string::npos);

    // Bits 18/17: MMC stream UNDERRUN/OVERRUN errors; bit 3: SD AKE_SEQ_ERROR, MMC reserved.
    EXPECT_EQ(value<StringList>(status(0x00060000u, CardFamily::mmc), "errors"),
              (StringList{"underrun", "overrun"}));
    const auto mmc3 = status(0x00000008u, CardFamily::mmc);
    EXPECT_TRUE(value<bool>(mmc3, "ok"));
    EXPECT_EQ(mmc3.warnings.size(), 1u);
}

TEST(CardStatus, TablesDoNotOverlap)
{
    for (CardFamily card : {CardFamily::sd, CardFamily::mmc}) {
        std::set<int> used;
        for (const auto& f : card_status_table(card))
            for (int b = f.lo; b <= f.hi; ++b) EXPECT_TRUE(used.insert(b).second) << f.name;
        EXPECT_TRUE(used.count(9) && used.count(12));
    }
    EXPECT_EQ(card_status_table(CardFamily::sd).size(), 22u);
    EXPECT_EQ(card_status_table(CardFamily::mmc).size(), 24u);
}

TEST(CardStatus, WrongSizeThrows)
{
    EXPECT_THROW(decode_card_status(std::vector<uint8_t>(3), CardFamily::sd), std::invalid_argument);
    EXPECT_THROW(decode_card_status(std::vector<uint8_t>(5), CardFamily::mmc), std::invalid_argument);
    EXPECT_THROW(decode(RegKind::status, CardFamily::sd, std::vector<uint8_t>(16)), std::invalid_argument);
}
