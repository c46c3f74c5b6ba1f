// The typed facts read out of decoded registers: the lab's SD card and a
// Samsung eMMC 5.1 (its CSD from tests/data/registers.json), with SSR, SCR and
// EXT_CSD fields set to chosen values, and what an absent register gives.
#include "regs/card_facts.h"
#include "regs/hex.h"

#include "corpus.h"

#include <gtest/gtest.h>

using namespace mmc::regs;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// The lab's emulated SDHC card: CSD 2.0 with C_SIZE 0x1fff (4 GiB).
const std::string lab_csd = "400e00325b5900001fff7f800a400000";
// The Samsung eMMC 5.1 CSD: C_SIZE 0xfff x C_SIZE_MULT 7 (the placeholder for
// a card over 2 GB), ERASE_GRP_SIZE 31, ERASE_GRP_MULT 31, WRITE_BL_LEN 9.
const std::string samsung_csd = "d02701320f5903fff6dbffef8e404000";

RawRegister raw(RegKind kind, const std::string& hex) { return {kind, parse_register_hex(kind, hex), "sysfs"}; }

// An SCR whose DATA_STAT_AFTER_ERASE (bit 55) is as given.
RawRegister scr(bool erased_ones) { return raw(RegKind::scr, erased_ones ? "02a5000000000000" : "0225000000000000"); }

// An SSR with AU_SIZE (bits 431:428) as given: 9 is 4 MiB.
RawRegister ssr(uint64_t au_code)
{
    std::array<uint8_t, 64> r{};
    mmc::test::set_bits(r, 511, 510, 2); // 4-bit bus
    mmc::test::set_bits(r, 431, 428, au_code);
    return {RegKind::ssr, {r.begin(), r.end()}, "ioctl"};
}

struct ExtCsd {
    uint8_t hc_erase_grp_size = 0;
    uint8_t erase_group_def = 0;
    uint8_t erased_mem_cont = 0;
    uint32_t sectors = 61071360;
};

RawRegister ext_csd(const ExtCsd& e)
{
    std::vector<uint8_t> b(512, 0);
    b[192] = 8; // EXT_CSD_REV: eMMC 5.1
    b[224] = e.hc_erase_grp_size;
    b[175] = e.erase_group_def;
    b[181] = e.erased_mem_cont;
    for (int i = 0; i < 4; ++i) b[212 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(e.sectors >> (8 * i));
    return {RegKind::ext_csd, b, "ioctl"};
}

} // namespace

TEST(RegsCardFacts, ReadersOfOneRegister)
{
    const auto card = decode_card(CardFamily::sd, {raw(RegKind::csd, lab_csd), scr(true)});
    const auto* csd = card.get(RegKind::csd);
    const auto* scr_reg = card.get(RegKind::scr);
    ASSERT_TRUE(csd && scr_reg);
    EXPECT_EQ(field_value(csd, "csd_structure"), 1u);
    EXPECT_EQ(field_value(csd, "c_size"), 0x1fffu);
    EXPECT_FALSE(field_value(csd, "no_such_field"));
    EXPECT_FALSE(field_value(nullptr, "c_size"));
    EXPECT_EQ(derived_int(csd, "capacity_bytes"), int64_t{4} * static_cast<int64_t>(GiB));
    EXPECT_FALSE(derived_int(csd, "csd_version")); // text, not a number
    EXPECT_FALSE(derived_int(nullptr, "capacity_bytes"));
    EXPECT_EQ(derived_positive(csd, "capacity_bytes"), 4 * GiB);
    EXPECT_FALSE(derived_positive(csd, "no_such_key"));
}

TEST(RegsCardFacts, SdCard)
{
    const auto card = decode_card(CardFamily::sd, {raw(RegKind::csd, lab_csd), scr(false), ssr(9)});
    EXPECT_EQ(au_bytes(card), 4 * MiB);
    EXPECT_EQ(erased_byte(card), uint8_t{0x00});
    EXPECT_EQ(capacity_bytes(card), 4 * GiB);
    // An SD CSD has no erase group.
    EXPECT_FALSE(erase_group_bytes(card));

    const auto ones = decode_card(CardFamily::sd, {raw(RegKind::csd, lab_csd), scr(true), ssr(0)});
    EXPECT_EQ(erased_byte(ones), uint8_t{0xff});
    EXPECT_FALSE(au_bytes(ones)) << "AU_SIZE 0 is not defined, not 0 bytes";

    // Only the CSD: nothing about AU or erased data.
    const auto bare = decode_card(CardFamily::sd, {raw(RegKind::csd, lab_csd)});
    EXPECT_FALSE(au_bytes(bare));
    EXPECT_FALSE(erased_byte(bare));
}

TEST(RegsCardFacts, EmmcErasesByTheHighCapacityGroupWhenERASE_GROUP_DEFIsSet)
{
    const auto card = decode_card(CardFamily::mmc, {raw(RegKind::csd, samsung_csd),
                                                    ext_csd({.hc_erase_grp_size = 8, .erase_group_def = 1, .erased_mem_cont = 1})});
    EXPECT_EQ(csd_erase_group_bytes(card), 32u * 32u * 512u);
    EXPECT_EQ(hc_erase_group_bytes(card), 4 * MiB);
    EXPECT_EQ(erase_group_bytes(card), 4 * MiB);

    // ERASE_GROUP_DEF off (Linux left it so: no completed partitioning, no
    // MMC_CAP2_HC_ERASE_SZ): the card erases by the CSD's group, even though
    // EXT_CSD gives a high-capacity one.
    const auto def_off = decode_card(CardFamily::mmc,
                                     {raw(RegKind::csd, samsung_csd), ext_csd({.hc_erase_grp_size = 8, .erased_mem_cont = 1})});
    EXPECT_EQ(hc_erase_group_bytes(def_off), 4 * MiB);
    EXPECT_EQ(erase_group_bytes(def_off), 512 * KiB);
    EXPECT_EQ(erased_byte(card), uint8_t{0xff});
    EXPECT_EQ(capacity_bytes(card), uint64_t{61071360} * 512);
    EXPECT_FALSE(au_bytes(card));

    // HC_ERASE_GRP_SIZE 0: the CSD's group.
    const auto legacy = decode_card(CardFamily::mmc, {raw(RegKind::csd, samsung_csd), ext_csd({})});
    EXPECT_FALSE(hc_erase_group_bytes(legacy));
    EXPECT_EQ(erase_group_bytes(legacy), 512 * KiB);
    EXPECT_EQ(erased_byte(legacy), uint8_t{0x00});
}

TEST(RegsCardFacts, EmmcWithoutEXT_CSDHasNoCapacityInItsPlaceholderCSD)
{
    const auto card = decode_card(CardFamily::mmc, {raw(RegKind::csd, samsung_csd)});
    EXPECT_FALSE(capacity_bytes(card));
    EXPECT_FALSE(erased_byte(card));
    EXPECT_EQ(erase_group_bytes(card), 512 * KiB);
}

TEST(RegsCardFacts, NoRegisters)
{
    const CardRegisters none;
    EXPECT_FALSE(au_bytes(none));
    EXPECT_FALSE(erased_byte(none));
    EXPECT_FALSE(erase_group_bytes(none));
    EXPECT_FALSE(capacity_bytes(none));
}

// The one erase-group rule, over every combination of its three registers.
TEST(RegsCardFacts, EraseGroupInUseForEveryRegisterCombination)
{
    constexpr uint64_t hc = 4 * MiB, csd = 512 * KiB;
    struct Case {
        EraseGroupRegisters in;
        std::optional<uint64_t> bytes;
        std::string_view source;
    };
    const Case cases[] = {
        {{hc, true, csd}, hc, "EXT_CSD HC_ERASE_GRP_SIZE"},
        {{hc, false, csd}, csd, "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT"},
        {{hc, true, 0}, hc, "EXT_CSD HC_ERASE_GRP_SIZE"},
        {{hc, false, 0}, hc, "EXT_CSD HC_ERASE_GRP_SIZE"}, // no CSD group known: the only group there is
        {{0, true, csd}, csd, "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT"}, // DEF set but no HC size: the CSD's
        {{0, false, csd}, csd, "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT"},
        {{0, true, 0}, std::nullopt, {}},
        {{0, false, 0}, std::nullopt, {}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(testing::Message() << "hc " << c.in.hc_bytes << " def " << c.in.hc_in_use << " csd " << c.in.csd_bytes);
        const auto group = erase_group_in_use(c.in);
        ASSERT_EQ(group.has_value(), c.bytes.has_value());
        if (!group) continue;
        EXPECT_EQ(group->bytes, *c.bytes);
        EXPECT_EQ(group->source, c.source);
    }
}
