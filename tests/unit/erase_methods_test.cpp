// Method selection and refusal by the card's registers (never by its
// answers), erase units, chunk bounds, the card command sequences with their
// addresses and busy timeouts, and R1 status checks. The cards are built
// from real register images: the lab's emulated SD card, a SanDisk 2 GB SDSC
// CSD and a Samsung eMMC 5.1 CSD from tests/data/registers.json, and EXT_CSD
// images with chosen SEC_FEATURE_SUPPORT bits.
#include "erase/device.h"
#include "erase/method_table.h"
#include "erase/methods.h"
#include "regs/hex.h"
#include "regs/register.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <set>

using namespace mmc::erase;
using mmc::regs::CardFamily;
using mmc::regs::RegKind;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

std::vector<uint8_t> hex(RegKind kind, const std::string& text) { return mmc::regs::parse_register_hex(kind, text); }

// The lab's emulated 4 GiB SDHC card: CSD 2.0, SCR says erased data reads
// 0x00, SSR (ACMD13) all zero but the 4-bit bus width.
const std::string lab_csd = "400e00325b5900001fff7f800a400000";
const std::string lab_scr = "0225000000000000";
const std::string lab_ssr = "80" + std::string(126, '0');

Capabilities sd_card(const std::string& csd = lab_csd, const std::string& ssr = lab_ssr, bool channel = true)
{
    Capabilities c;
    c.family = CardFamily::sd;
    c.name = "mmcblk0";
    c.kind = "an SD card";
    c.raw_channel = channel;
    if (!channel) c.raw_unavailable = "CMD13 to the card failed (Operation not permitted)";
    c.preferred_erase_bytes = 4 * MiB;
    c.discard_granularity = 4 * MiB;
    c.discard_max_bytes = c.discard_max_hw_bytes = 4 * MiB;
    std::vector<mmc::regs::RawRegister> raws{{RegKind::csd, hex(RegKind::csd, csd), "sysfs"},
                                             {RegKind::scr, hex(RegKind::scr, lab_scr), "sysfs"},
                                             {RegKind::ssr, hex(RegKind::ssr, ssr), "ioctl"}};
    apply_registers(c, mmc::regs::decode_card(CardFamily::sd, raws), 4 * GiB);
    return c;
}

// An SSR with AU_SIZE 4 MiB (9), ERASE_SIZE 4 AUs, ERASE_TIMEOUT 8 s,
// ERASE_OFFSET 2 s, and the DISCARD/FULE bits as asked.
std::string ssr_with_erase_fields(bool discard, bool fule)
{
    std::array<uint8_t, 64> r{};
    auto set = [&](int hi, int lo, uint64_t v) {
        for (int bit = lo; bit <= hi; ++bit) {
            const auto byte = 63 - static_cast<std::size_t>(bit / 8);
            if ((v >> (bit - lo)) & 1) r[byte] = static_cast<uint8_t>(r[byte] | (1u << (bit % 8)));
        }
    };
    set(511, 510, 2);
    set(431, 428, 9);
    set(423, 408, 4);
    set(407, 402, 8);
    set(401, 400, 2);
    set(313, 313, discard);
    set(312, 312, fule);
    std::string out;
    for (auto b : r) out += fmt::format("{:02x}", b);
    return out;
}

// An eMMC: the Samsung eMMC 5.1 CSD and an EXT_CSD with the given fields.
struct ExtCsd {
    uint8_t rev = 8, sec = 0, hc_eg = 1, erase_mult = 2, trim_mult = 3, sec_erase_mult = 4, sec_trim_mult = 5;
    bool group_def = true;
    uint8_t erased_mem_cont = 0;
    uint32_t sectors = 61071360; // 29.1 GiB
};

Capabilities emmc(const ExtCsd& e, bool channel = true)
{
    std::vector<uint8_t> ext(512, 0);
    ext[192] = e.rev;
    ext[231] = e.sec;
    ext[224] = e.hc_eg;
    ext[223] = e.erase_mult;
    ext[232] = e.trim_mult;
    ext[230] = e.sec_erase_mult;
    ext[229] = e.sec_trim_mult;
    ext[175] = e.group_def;
    ext[181] = e.erased_mem_cont;
    for (int i = 0; i < 4; ++i) ext[212 + i] = static_cast<uint8_t>(e.sectors >> (8 * i));
    Capabilities c;
    c.family = CardFamily::mmc;
    c.name = "mmcblk1";
    c.kind = "an eMMC";
    c.raw_channel = channel;
    c.discard_max_bytes = c.discard_max_hw_bytes = 64 * MiB;
    c.discard_granularity = 512 * KiB;
    std::vector<mmc::regs::RawRegister> raws{{RegKind::csd, hex(RegKind::csd, "d02701320f5903fff6dbffef8e404000"), "sysfs"},
                                             {RegKind::ext_csd, ext, "ioctl"}};
    apply_registers(c, mmc::regs::decode_card(CardFamily::mmc, raws), uint64_t{e.sectors} * 512);
    return c;
}

Capabilities loop_device(uint64_t discard_max = 4294966784)
{
    Capabilities c;
    c.family = std::nullopt;
    c.name = "loop0";
    c.kind = "a loop device";
    c.discard_granularity = 4096;
    c.discard_max_bytes = c.discard_max_hw_bytes = discard_max;
    c.write_zeroes_max_bytes = discard_max;
    return c;
}

std::string refused_why(Method m, const Capabilities& c, bool whole = false)
{
    try {
        select_method(m, c, whole);
    } catch (const MethodRefused& e) {
        return e.what();
    }
    return "(accepted)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(EraseMethods, AutoPicksTheCardsOwnEraseOnAnSdCard)
{
    const auto c = sd_card();
    EXPECT_EQ(c.family, CardFamily::sd);
    EXPECT_TRUE(c.erase_class);
    EXPECT_TRUE(c.block_addressed);
    ASSERT_TRUE(c.erased_byte);
    EXPECT_EQ(*c.erased_byte, 0x00);
    const auto s = select_method(Method::automatic, c, true);
    EXPECT_EQ(s.method, Method::erase);
    EXPECT_TRUE(contains(s.why, "auto")) << s.why;
}

TEST(EraseMethods, AutoFallsBackToDiscardWithoutTheChannel)
{
    const auto c = sd_card(lab_csd, lab_ssr, false);
    const auto s = select_method(Method::automatic, c, true);
    EXPECT_EQ(s.method, Method::discard);
    EXPECT_TRUE(contains(s.why, "Operation not permitted")) << s.why;
    EXPECT_TRUE(contains(refused_why(Method::erase, c), "raw card commands are not available"));
}

TEST(EraseMethods, AutoOnPlainBlockDevices)
{
    EXPECT_EQ(select_method(Method::automatic, loop_device(), true).method, Method::discard);
    EXPECT_EQ(select_method(Method::automatic, loop_device(0), true).method, Method::zeroout);
    EXPECT_TRUE(contains(refused_why(Method::discard, loop_device(0)), "queue/discard_max_bytes is 0"));
    EXPECT_EQ(refused_why(Method::zeroout, loop_device(0)), "(accepted)");
    // Secure discard support is not in sysfs: it is tried, and a failure reported.
    EXPECT_EQ(refused_why(Method::secure, loop_device()), "(accepted)");
    const auto why = refused_why(Method::erase, loop_device());
    EXPECT_TRUE(contains(why, "method erase refused")) << why;
    EXPECT_TRUE(contains(why, "a loop device, not an MMC/SD card")) << why;
}

// A card in a USB reader is erased only by the discard the reader
// passes on; without one, automatic never falls back to an overwrite.
TEST(EraseMethods, AReaderWithoutDiscardIsRefusedNeverOverwritten)
{
    Capabilities c = loop_device(0);
    c.name = "sdb";
    c.kind = "an SD card in a USB 2.0 reader (Genesys Logic GL827L, usb-storage)";
    c.usb_reader = true;
    c.provisioning_mode = "full";
    const auto why = refused_why(Method::automatic, c);
    EXPECT_TRUE(contains(why, "sdb is an SD card in a USB 2.0 reader")) << why;
    EXPECT_TRUE(contains(why, "provisioning_mode full, queue/discard_max_bytes 0")) << why;
    EXPECT_TRUE(contains(why, "cannot return the card to its erased state")) << why;
    EXPECT_TRUE(contains(why, "An overwrite does not do that either")) << why;
    EXPECT_TRUE(contains(refused_why(Method::discard, c), "Put the card in an SD slot"));
    // Zeros asked for by name are still written: they are not offered as an erase.
    EXPECT_EQ(refused_why(Method::zeroout, c), "(accepted)");
    // A reader that passes UNMAP is discarded through, and says so.
    Capabilities unmap = loop_device();
    unmap.usb_reader = true;
    unmap.provisioning_mode = "unmap";
    const auto s = select_method(Method::automatic, unmap, true);
    EXPECT_EQ(s.method, Method::discard);
    EXPECT_TRUE(contains(s.why, "through the reader (provisioning_mode unmap passes it on)")) << s.why;
}

TEST(EraseMethods, SdArgumentsRefusedBySsrBits)
{
    const auto lab = sd_card();
    EXPECT_TRUE(contains(refused_why(Method::sd_discard, lab), "SSR DISCARD_SUPPORT is 0"));
    EXPECT_TRUE(contains(refused_why(Method::fule, lab, true), "SSR FULE_SUPPORT is 0"));
    const auto both = sd_card(lab_csd, ssr_with_erase_fields(true, true));
    EXPECT_EQ(refused_why(Method::sd_discard, both), "(accepted)");
    EXPECT_EQ(refused_why(Method::fule, both, true), "(accepted)");
    EXPECT_TRUE(contains(refused_why(Method::fule, both, false), "whole user area"));
    // eMMC arguments and BLKSECDISCARD on an SD card.
    EXPECT_TRUE(contains(refused_why(Method::trim, lab), "eMMC method"));
    EXPECT_TRUE(contains(refused_why(Method::sanitize, lab), "eMMC method"));
    EXPECT_TRUE(contains(refused_why(Method::secure, lab), "SD cards have no secure erase"));
}

TEST(EraseMethods, EmmcSecureFeaturesRefusedFromSecFeatureSupport)
{
    const auto none = emmc({});
    EXPECT_EQ(refused_why(Method::erase, none), "(accepted)");
    EXPECT_EQ(refused_why(Method::emmc_discard, none), "(accepted)");
    auto why = refused_why(Method::trim, none);
    EXPECT_TRUE(contains(why, "EXT_CSD SEC_FEATURE_SUPPORT is 0x00")) << why;
    EXPECT_TRUE(contains(why, "SEC_GB_CL_EN (bit 4)")) << why;
    why = refused_why(Method::secure, none);
    EXPECT_TRUE(contains(why, "SECURE_ER_EN (bit 0) is clear")) << why;
    EXPECT_TRUE(contains(refused_why(Method::secure_erase, none), "SECURE_ER_EN (bit 0) is clear"));
    EXPECT_TRUE(contains(refused_why(Method::secure_trim, none), "SEC_FEATURE_SUPPORT is 0x00"));
    why = refused_why(Method::sanitize, none);
    EXPECT_TRUE(contains(why, "SEC_SANITIZE (bit 6) is clear")) << why;
    EXPECT_TRUE(contains(refused_why(Method::sd_discard, none), "SD method"));

    // The refusal holds even without a channel: registers decide first.
    EXPECT_TRUE(contains(refused_why(Method::trim, emmc({}, false)), "SEC_GB_CL_EN"));

    ExtCsd all;
    all.sec = 0x55; // SECURE_ER_EN, SEC_BD_BLK_EN, SEC_GB_CL_EN, SEC_SANITIZE
    const auto full = emmc(all);
    for (const Method m : {Method::trim, Method::secure, Method::secure_erase, Method::secure_trim, Method::sanitize})
        EXPECT_EQ(refused_why(m, full), "(accepted)") << to_string(m);

    ExtCsd old;
    old.rev = 5;
    EXPECT_TRUE(contains(refused_why(Method::emmc_discard, emmc(old)), "EXT_CSD_REV is 5"));
}

TEST(EraseMethods, EraseUnits)
{
    EXPECT_EQ(erase_unit(Method::erase, sd_card()).bytes, 4 * MiB);
    EXPECT_EQ(erase_unit(Method::erase, sd_card()).source, "sysfs preferred_erase_size");
    const auto au = sd_card(lab_csd, ssr_with_erase_fields(false, false));
    EXPECT_EQ(erase_unit(Method::erase, au).source, "SSR AU_SIZE");
    EXPECT_EQ(erase_unit(Method::discard, loop_device()).bytes, 4096u);
    EXPECT_EQ(erase_unit(Method::discard, loop_device()).source, "queue/discard_granularity");
    EXPECT_EQ(erase_unit(Method::zeroout, loop_device()).bytes, 512u);
    const auto e = emmc({});
    EXPECT_EQ(erase_unit(Method::erase, e).bytes, 512 * KiB);
    EXPECT_EQ(erase_unit(Method::trim, e).source, "EXT_CSD HC_ERASE_GRP_SIZE");
    // ERASE_GROUP_DEF off: the card erases by its CSD's group (regs' one rule).
    auto def_off = e;
    def_off.hc_erase_group_def = false;
    def_off.csd_erase_group_bytes = 256 * KiB;
    EXPECT_EQ(erase_unit(Method::erase, def_off).bytes, 256 * KiB);
    EXPECT_EQ(erase_unit(Method::erase, def_off).source, "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT");
}

TEST(EraseMethods, ChunkBounds)
{
    EXPECT_EQ(chunk_limit(Method::erase, sd_card()), 4 * MiB);       // discard_max_hw_bytes
    EXPECT_EQ(chunk_limit(Method::discard, loop_device()), 1 * GiB); // bounded for Ctrl-C
    EXPECT_EQ(chunk_limit(Method::zeroout, loop_device()), 64 * MiB);
    EXPECT_EQ(chunk_limit(Method::zeroout, loop_device(0)), 16 * MiB);
    EXPECT_EQ(chunk_limit(Method::fule, sd_card()), 0u); // one command
}

TEST(EraseMethods, SdhcSequenceUsesBlockAddresses)
{
    const auto c = sd_card();
    const auto seqs = erase_sequences(Method::erase, c, 0x4567, {8 * MiB, 4 * MiB});
    ASSERT_EQ(seqs.size(), 1u);
    const auto& s = seqs[0];
    ASSERT_EQ(s.size(), 5u);
    EXPECT_EQ(s[0].opcode, 13u);
    EXPECT_EQ(s[0].arg, 0x45670000u);
    EXPECT_EQ(s[1].opcode, 32u);
    EXPECT_EQ(s[1].arg, 8 * MiB / 512);
    EXPECT_EQ(s[2].opcode, 33u);
    EXPECT_EQ(s[2].arg, 12 * MiB / 512 - 1); // the last block
    EXPECT_EQ(s[3].opcode, 38u);
    EXPECT_EQ(s[3].arg, 0u);
    EXPECT_EQ(s[3].flags, mmc::dev::rsp::spi_r1b | mmc::dev::rsp::r1b | mmc::dev::rsp::cmd_ac);
    EXPECT_EQ(s[1].flags, mmc::dev::rsp::spi_r1 | mmc::dev::rsp::r1 | mmc::dev::rsp::cmd_ac);
    EXPECT_EQ(s[4].opcode, 13u);
    // SSR gives no erase timing: 250 ms per AU (4 MiB), at least 1 s.
    EXPECT_EQ(s[3].cmd_timeout_ms, 1000u);
    EXPECT_EQ(busy_timeout_ms(c, arg::erase, {0, 64 * MiB}), 16 * 250u);
}

TEST(EraseMethods, SdscSequenceUsesByteAddresses)
{
    // SanDisk 2 GB microSD, CSD structure 0: byte addresses.
    const auto c = sd_card("002600325f5a83aefefbcfff928040de");
    EXPECT_FALSE(c.block_addressed);
    const auto s = erase_sequences(Method::erase, c, 0x1234, {1 * MiB, 2 * MiB})[0];
    EXPECT_EQ(s[1].arg, 1 * MiB);
    EXPECT_EQ(s[2].arg, 3 * MiB - 512);
}

TEST(EraseMethods, SdTimeoutsFromTheSsr)
{
    const auto c = sd_card(lab_csd, ssr_with_erase_fields(true, true));
    // ERASE_TIMEOUT 8 s / ERASE_SIZE 4 AUs x AUs + ERASE_OFFSET 2 s.
    EXPECT_EQ(busy_timeout_ms(c, arg::erase, {0, 40 * MiB}), 22000u);
    // An unaligned extent counts every AU it touches: 2-10 MiB is 3 AUs.
    EXPECT_EQ(busy_timeout_ms(c, arg::erase, {2 * MiB, 8 * MiB}), 8000u);
    // DISCARD: 250 ms (Linux SD_DISCARD_TIMEOUT_MS), raised to the 1 s floor.
    EXPECT_EQ(busy_timeout_ms(c, arg::sd_discard, {0, 40 * MiB}), 1000u);
    EXPECT_EQ(erase_sequences(Method::sd_discard, c, 1, {0, 4 * MiB})[0][3].arg, 1u);
    EXPECT_EQ(erase_sequences(Method::fule, c, 1, {0, 4 * GiB})[0][3].arg, 2u);
}

TEST(EraseMethods, EmmcTimeoutsAsLinuxComputesThem)
{
    // 512 KiB erase groups, ERASE_TIMEOUT_MULT 2, TRIM_MULT 3, SEC_ERASE_MULT 4, SEC_TRIM_MULT 5.
    ExtCsd e;
    e.sec = 0x55;
    const auto c = emmc(e);
    const Extent four_groups{1 * MiB, 2 * MiB};
    EXPECT_EQ(busy_timeout_ms(c, arg::erase, four_groups), 300u * 2 * 4);
    EXPECT_EQ(busy_timeout_ms(c, arg::trim, four_groups), 300u * 3 * 4);        // rev >= 6: TRIM_MULT
    EXPECT_EQ(busy_timeout_ms(c, arg::emmc_discard, four_groups), 300u * 3 * 4);
    EXPECT_EQ(busy_timeout_ms(c, arg::secure_erase, four_groups), 300u * 2 * 4 * 4);
    EXPECT_EQ(busy_timeout_ms(c, arg::secure_trim1, four_groups), 300u * 2 * 5 * 4);
    // One group: 600 ms, raised to 1 s.
    EXPECT_EQ(busy_timeout_ms(c, arg::erase, {0, 512 * KiB}), 1000u);

    const auto seqs = erase_sequences(Method::secure_trim, c, 0x0001, four_groups);
    ASSERT_EQ(seqs.size(), 2u);
    EXPECT_EQ(seqs[0][1].opcode, 35u);
    EXPECT_EQ(seqs[0][2].opcode, 36u);
    EXPECT_EQ(seqs[0][1].arg, 1 * MiB / 512);
    EXPECT_EQ(seqs[0][2].arg, 3 * MiB / 512 - 1);
    EXPECT_EQ(seqs[0][3].arg, 0x80000001u);
    EXPECT_EQ(seqs[1][3].arg, 0x80008000u);
    EXPECT_EQ(erase_sequences(Method::secure_erase, c, 1, four_groups)[0][3].arg, 0x80000000u);
    EXPECT_EQ(erase_sequences(Method::trim, c, 1, four_groups)[0][3].arg, 1u);
    EXPECT_EQ(erase_sequences(Method::emmc_discard, c, 1, four_groups)[0][3].arg, 3u);
    // Sanitize trims the range (SEC_GB_CL_EN), then CMD6 EXT_CSD[165] = 1.
    EXPECT_EQ(erase_sequences(Method::sanitize, c, 1, four_groups)[0][3].arg, 1u);
    const auto san = sanitize_command();
    EXPECT_EQ(san.opcode, 6u);
    EXPECT_EQ(san.arg, 0x03a50100u);
    EXPECT_EQ(san.arg >> 16 & 0xff, 165u);
    EXPECT_EQ(san.flags & mmc::dev::rsp::busy, mmc::dev::rsp::busy);
    EXPECT_EQ(san.cmd_timeout_ms, 240000u);
}

TEST(EraseMethods, SmallEmmcIsByteAddressed)
{
    ExtCsd e;
    e.sectors = 2 * 1024 * 1024 * 2; // 2 GiB exactly: still byte addressed
    const auto c = emmc(e);
    EXPECT_FALSE(c.block_addressed);
    const auto s = erase_sequences(Method::erase, c, 1, {1 * MiB, 1 * MiB})[0];
    EXPECT_EQ(s[1].arg, 1 * MiB);
    EXPECT_EQ(s[2].arg, 2 * MiB - 512);
    e.sectors += 1;
    EXPECT_TRUE(emmc(e).block_addressed);
}

TEST(EraseMethods, ExpectedOutcomes)
{
    const auto sd = sd_card();
    EXPECT_EQ(expected_outcome(Method::erase, sd).declared, std::optional<uint8_t>(0x00));
    EXPECT_EQ(expected_outcome(Method::erase, sd).basis, "SCR DATA_STAT_AFTER_ERASE");
    EXPECT_FALSE(expected_outcome(Method::erase, sd).undefined);
    EXPECT_TRUE(expected_outcome(Method::zeroout, sd).zero_only);
    EXPECT_TRUE(expected_outcome(Method::sd_discard, sd).undefined);
    // BLKDISCARD on an SD card without DISCARD_SUPPORT: the kernel sends ERASE.
    EXPECT_FALSE(expected_outcome(Method::discard, sd).undefined);
    EXPECT_TRUE(expected_outcome(Method::discard, sd_card(lab_csd, ssr_with_erase_fields(true, false))).undefined);
    EXPECT_FALSE(expected_outcome(Method::discard, loop_device()).declared);
    ExtCsd ones;
    ones.erased_mem_cont = 1;
    EXPECT_EQ(expected_outcome(Method::trim, emmc(ones)).declared, std::optional<uint8_t>(0xff));
}

TEST(EraseMethods, R1ErrorBits)
{
    EXPECT_TRUE(r1_errors(0x00000900, CardFamily::sd).empty()); // tran, ready for data
    EXPECT_EQ(r1_errors(0x10000900, CardFamily::sd), std::vector<std::string>{"erase_seq_error"});
    EXPECT_EQ(r1_errors(0x08008900, CardFamily::mmc), (std::vector<std::string>{"erase_param", "wp_erase_skip"}));
    EXPECT_EQ(r1_errors(0x80000000, CardFamily::sd), std::vector<std::string>{"out_of_range"});
}

TEST(EraseMethods, Descriptions)
{
    EXPECT_EQ(describe(Method::discard, loop_device()), "BLKDISCARD");
    EXPECT_EQ(describe(Method::erase, sd_card()), "CMD32/CMD33 CMD38 ERASE (0x0), block addresses");
    ExtCsd e;
    e.sec = 0x55;
    EXPECT_EQ(describe(Method::secure_trim, emmc(e)),
              "CMD35/CMD36 CMD38 SECURE TRIM step 1 (0x80000001) then SECURE TRIM step 2 (0x80008000), block addresses");
    EXPECT_TRUE(contains(describe(Method::sanitize, emmc(e)), "then CMD6 SANITIZE_START"));
}

// The methods' table (erase/method_table.h): one row per method, in the
// order of the Method enum, each row consistent with its layer, and the
// functions that read it (to_string, method_from_string, all_methods,
// is_block_layer, is_raw) agreeing with it.
namespace {

constexpr int table_last_method = static_cast<int>(Method::sanitize);

TEST(EraseMethodTable, OneRowPerMethodInEnumOrderWithDistinctNames)
{
    const auto& table = method_table();
    ASSERT_EQ(table.size(), static_cast<std::size_t>(table_last_method + 1));
    std::set<std::string_view> names;
    for (int i = 0; i <= table_last_method; ++i) {
        const auto m = static_cast<Method>(i);
        EXPECT_EQ(table[i].method, m) << i;
        EXPECT_EQ(&facts(m), &table[i]) << i;
        EXPECT_TRUE(names.insert(table[i].name).second) << table[i].name;
        EXPECT_EQ(method_from_string(table[i].name), m) << table[i].name;
        EXPECT_EQ(to_string(m), table[i].name);
    }
    EXPECT_THROW(facts(static_cast<Method>(table_last_method + 1)), std::logic_error);
    EXPECT_EQ(to_string(static_cast<Method>(table_last_method + 1)), "unknown");
}

TEST(EraseMethodTable, EachRowFitsItsLayer)
{
    Capabilities caps;
    for (const auto& row : method_table()) {
        SCOPED_TRACE(std::string(row.name));
        EXPECT_NE(row.outcome, nullptr);
        EXPECT_EQ(is_block_layer(row.method), row.layer == Layer::block);
        EXPECT_EQ(is_raw(row.method), row.layer == Layer::card);
        if (row.layer == Layer::block) {
            EXPECT_NE(row.ioctl, 0u);
            EXPECT_FALSE(row.ioctl_name.empty());
            EXPECT_FALSE(row.unsupported.empty());
        } else {
            EXPECT_EQ(row.ioctl, 0u);
        }
        // Card commands: CMD38 arguments; no family for the others.
        if (row.layer == Layer::card) {
            ASSERT_NE(row.cmd38_args, nullptr);
            EXPECT_FALSE(row.cmd38_args(caps).empty());
        } else {
            EXPECT_EQ(row.cmd38_args, nullptr);
            EXPECT_FALSE(row.family.has_value());
            EXPECT_FALSE(row.sanitize_after);
        }
    }
    EXPECT_EQ(facts(Method::discard).ioctl, BLKDISCARD);
    EXPECT_EQ(facts(Method::secure).ioctl, BLKSECDISCARD);
    EXPECT_EQ(facts(Method::zeroout).ioctl, BLKZEROOUT);
}

TEST(EraseMethodTable, AllMethodsIsEveryRowButAuto)
{
    const auto all = all_methods();
    ASSERT_EQ(all.size(), static_cast<std::size_t>(table_last_method));
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<Method>(i + 1));
}

// Sanitize's first command is TRIM where the card has it, else ERASE.
TEST(EraseMethodTable, SanitizeTrimsWhereTheCardCan)
{
    Capabilities caps;
    caps.sec_feature_support = sec_gb_cl_en;
    EXPECT_EQ(facts(Method::sanitize).cmd38_args(caps), std::vector<uint32_t>{arg::trim});
    caps.sec_feature_support = 0;
    EXPECT_EQ(facts(Method::sanitize).cmd38_args(caps), std::vector<uint32_t>{arg::erase});
    EXPECT_TRUE(facts(Method::sanitize).sanitize_after);
    EXPECT_EQ(facts(Method::secure_trim).cmd38_args(caps), (std::vector<uint32_t>{arg::secure_trim1, arg::secure_trim2}));
}

} // namespace
