// OCR decoding: the real dumps in tests/data/registers.json value by value
// (SD and MMC), every bit, the Linux sysfs (host-masked) form and the size
// check.
#include "corpus.h"
#include "regs/decode.h"
#include "regs/hex.h"

#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace mmc::regs;
using namespace mmc::test;
using nlohmann::json;

namespace {

// The corpus names OCR bits by position with SD meanings. For MMC the same
// positions are the access mode (bits 30:29) and reserved bits (28:24), so
// an MMC key may pick one bit of a wider field (mmc_bit_aliases).
const std::map<std::string, std::string> sd_aliases{
    {"busy_or_powerup_done_bit31", "field:busy"}, {"ccs_bit30", "field:ccs"},
    {"uhs2_bit29", "field:uhs2"},                 {"s18a_bit24", "field:s18a"},
    {"low_voltage_bit7", "field:low_voltage"},
};
const std::map<std::string, std::string> mmc_aliases{
    {"busy_or_powerup_done_bit31", "field:busy"},
    {"low_voltage_bit7", "field:low_voltage"},
};
const std::map<std::string, std::pair<std::string, int>> mmc_bit_aliases{
    {"ccs_bit30", {"access_mode", 1}},
    {"uhs2_bit29", {"access_mode", 0}},
    {"s18a_bit24", {"reserved", 0}},
};

testing::AssertionResult check_key(const DecodedRegister& r, const std::string& key, const json& want)
{
    if (r.card == CardFamily::sd) return check_corpus_key(r, key, want, sd_aliases);
    const auto a = mmc_bit_aliases.find(key);
    if (a == mmc_bit_aliases.end()) return check_corpus_key(r, key, want, mmc_aliases);
    const auto& [name, bit] = a->second;
    const Field* f = r.field(name);
    if (!f) return testing::AssertionFailure() << "no field " << name;
    const uint64_t got = (f->raw >> bit) & 1;
    if (want.is_number_integer() && got == want.get<uint64_t>()) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "field " << name << " bit " << bit << " = " << got << ", corpus "
                                       << want.dump();
}

DecodedRegister ocr(uint32_t value, CardFamily card = CardFamily::sd)
{
    const std::array<uint8_t, 4> reg{static_cast<uint8_t>(value >> 24), static_cast<uint8_t>(value >> 16),
                                     static_cast<uint8_t>(value >> 8), static_cast<uint8_t>(value)};
    return decode_ocr(reg, card);
}

std::string str(const DecodedRegister& r, std::string_view key) { return std::get<std::string>(r.find(key)->value); }
int64_t num(const DecodedRegister& r, std::string_view key) { return std::get<int64_t>(r.find(key)->value); }
bool flag(const DecodedRegister& r, std::string_view key) { return std::get<bool>(r.find(key)->value); }
StringList list(const DecodedRegister& r, std::string_view key) { return std::get<StringList>(r.find(key)->value); }
uint64_t raw(const DecodedRegister& r, std::string_view name) { return r.field(name)->raw; }

} // namespace

TEST(OcrCorpus, EveryComputedValueMatches)
{
    check_computed_values(
        "ocr",
        [](const json& e, DecodedRegister& r) {
            ASSERT_TRUE(e.at("card_type") == "SD" || e.at("card_type") == "MMC");
            r = decode_ocr(parse_register_hex(RegKind::ocr, e.at("hex").get<std::string>()), family_of(e));
            EXPECT_FALSE(r.summary.empty());
        },
        check_key);
}

TEST(OcrTable, FieldsInsideRegisterAndDisjoint)
{
    for (const auto card : {CardFamily::sd, CardFamily::mmc}) {
        const auto table = ocr_table(card);
        EXPECT_EQ(table.size(), card == CardFamily::sd ? 7u : 6u);
        std::array<bool, 32> used{};
        for (const auto& f : table) {
            ASSERT_LE(f.lo, f.hi) << f.name;
            ASSERT_LT(f.hi, 32) << f.name;
            for (int bit = f.lo; bit <= f.hi; ++bit) {
                EXPECT_FALSE(used[static_cast<std::size_t>(bit)]) << f.name << " overlaps at bit " << bit;
                used[static_cast<std::size_t>(bit)] = true;
            }
        }
    }
}

TEST(OcrSd, EachFlagBit)
{
    const std::vector<std::pair<int, std::string>> flags{
        {31, "busy"}, {30, "ccs"}, {29, "uhs2"}, {27, "co2t"}, {24, "s18a"}, {7, "low_voltage"}};
    for (const auto& [bit, name] : flags) {
        const auto r = ocr(1u << bit);
        for (const auto& [other_bit, other] : flags)
            EXPECT_EQ(raw(r, other), other_bit == bit ? 1u : 0u) << "bit " << bit << " field " << other;
        EXPECT_EQ(raw(r, "vdd_window"), 0u);
        EXPECT_EQ(flag(r, "power_up_done"), bit == 31);
        EXPECT_EQ(flag(r, "low_voltage_range"), bit == 7);
    }
}

TEST(OcrSd, EachWindowBit)
{
    const std::array<std::string, 9> names{"2.7-2.8V", "2.8-2.9V", "2.9-3.0V", "3.0-3.1V", "3.1-3.2V",
                                           "3.2-3.3V", "3.3-3.4V", "3.4-3.5V", "3.5-3.6V"};
    for (int bit = 15; bit <= 23; ++bit) {
        const auto r = ocr(1u << bit);
        EXPECT_EQ(list(r, "voltage_ranges"), StringList{names[static_cast<std::size_t>(bit - 15)]});
        EXPECT_EQ(num(r, "voltage_window_mask"), int64_t{1} << bit);
        EXPECT_EQ(raw(r, "vdd_window"), 1u << (bit - 15));
        EXPECT_TRUE(r.warnings.empty());
    }
    // Bit 7 is not part of the 2.7-3.6 V list; it has its own key.
    const auto low = ocr(0x00200080);
    EXPECT_EQ(list(low, "voltage_ranges"), StringList{"3.3-3.4V"});
    EXPECT_TRUE(flag(low, "low_voltage_range"));
}

TEST(OcrSd, RawR3AfterPowerUp)
{
    const auto r = ocr(0xc1ff8000);
    EXPECT_TRUE(flag(r, "power_up_done"));
    EXPECT_EQ(str(r, "capacity"), "SDHC/SDXC (CCS=1)");
    EXPECT_EQ(str(r, "signalling"), "1.8 V switching accepted (S18A)");
    EXPECT_EQ(list(r, "voltage_ranges").size(), 9u);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.summary, "SD OCR: powered up, SDHC/SDXC (CCS=1), 2.7-3.6 V, 1.8 V switching accepted");

    EXPECT_EQ(str(ocr(0x80ff8000), "capacity"), "SDSC (CCS=0)");
    EXPECT_EQ(str(ocr(0x80ff8000), "signalling"), "3.3 V only (S18A=0)");
    EXPECT_EQ(str(ocr(0xc8ff8000), "capacity"), "SDUC (CCS=1, CO2T=1)");
    EXPECT_TRUE(flag(ocr(0xe0ff8000), "uhs2_card"));
}

TEST(OcrSd, LinuxSysfsValueIsHostMasked)
{
    const auto r = decode_ocr(parse_register_hex(RegKind::ocr, "0x00300000"), CardFamily::sd);
    EXPECT_FALSE(flag(r, "power_up_done"));
    EXPECT_EQ(list(r, "voltage_ranges"), (StringList{"3.2-3.3V", "3.3-3.4V"}));
    EXPECT_EQ(str(r, "capacity"), "not reported (CCS is valid only when bit 31 is 1)");
    EXPECT_TRUE(r.warnings.empty()); // not an error
    EXPECT_NE(r.summary.find("host-masked"), std::string::npos);
    EXPECT_NE(r.summary.find("3.2-3.4 V"), std::string::npos);
}

TEST(OcrSd, Warnings)
{
    EXPECT_EQ(ocr(0x10ff8000 | 0x80000000).warnings.size(), 1u); // reserved bit 28
    EXPECT_EQ(ocr(0x00000001).warnings.size(), 1u);              // reserved bit 0
    EXPECT_EQ(ocr(0x40200000).warnings.size(), 1u);              // CCS while busy is 0
    EXPECT_EQ(ocr(0x80000000).warnings.size(), 1u);              // powered up, no window
}

TEST(OcrMmc, AccessModeAndVoltages)
{
    const auto r = ocr(0xc0ff8080, CardFamily::mmc);
    EXPECT_EQ(raw(r, "busy"), 1u);
    EXPECT_EQ(raw(r, "access_mode"), 2u);
    EXPECT_EQ(raw(r, "low_voltage"), 1u);
    EXPECT_EQ(str(r, "access_mode_text"), "sector mode (over 2 GB)");
    EXPECT_TRUE(flag(r, "low_voltage_range"));
    EXPECT_EQ(r.find("low_voltage_range")->text, "1.70-1.95V");
    EXPECT_EQ(num(r, "voltage_window_mask"), 0x00ff8000);
    EXPECT_EQ(list(r, "voltage_ranges").size(), 9u);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.summary, "MMC OCR: powered up, sector mode (over 2 GB), 2.7-3.6 V and 1.70-1.95 V");
    EXPECT_EQ(r.field("ccs"), nullptr);

    EXPECT_EQ(str(ocr(0x80ff8000, CardFamily::mmc), "access_mode_text"), "byte mode (up to 2 GB)");
    for (const uint32_t mode : {1u, 3u}) {
        const auto bad = ocr(0x80ff8000 | (mode << 29), CardFamily::mmc);
        EXPECT_EQ(str(bad, "access_mode_text"), "reserved (" + std::to_string(mode) + ")");
        EXPECT_EQ(bad.warnings.size(), 1u);
    }
    EXPECT_EQ(ocr(0x81ff8000, CardFamily::mmc).warnings.size(), 1u); // reserved bit 24
    EXPECT_EQ(raw(ocr(0x00007f00, CardFamily::mmc), "vdd_2v0_2v6"), 0x7fu);
}

TEST(OcrMmc, HostMaskedSummary)
{
    const auto r = ocr(0x00000080, CardFamily::mmc);
    EXPECT_NE(r.summary.find("host-masked"), std::string::npos);
    EXPECT_TRUE(list(r, "voltage_ranges").empty());
}

TEST(OcrDecode, ShortHexIsAWord)
{
    const auto r = decode(RegKind::ocr, CardFamily::sd, parse_register_hex(RegKind::ocr, "0x200000"));
    EXPECT_EQ(num(r, "voltage_window_mask"), 0x00200000);
    EXPECT_EQ(r.kind, RegKind::ocr);
}

TEST(OcrDecode, WrongSizeThrows)
{
    const std::vector<uint8_t> short_reg(3), long_reg(5);
    for (const auto card : {CardFamily::sd, CardFamily::mmc}) {
        EXPECT_THROW(decode_ocr(short_reg, card), std::invalid_argument);
        EXPECT_THROW(decode_ocr(long_reg, card), std::invalid_argument);
    }
}
