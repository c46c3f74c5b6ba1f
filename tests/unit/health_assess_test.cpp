// Choosing layouts from the CID, the block checks, the verdict's thresholds
// and the whole assessment of a card.
#include "health/assess.h"
#include "health/block_check.h"
#include "health/cid_table.h"
#include "health/collect.h"
#include "health_blocks.h"
#include "regs/hex.h"

using namespace mmc::health;
using mmc::regs::CardFamily;
using mmc::test::BlockBuilder;

namespace {

// An SD CID with the given MID and OID (the rest a plausible card).
std::vector<uint8_t> sd_cid(uint8_t mid, char o1, char o2)
{
    auto cid = mmc::regs::parse_hex("035344534336344780ffffffff0172a3");
    cid[0] = mid;
    cid[1] = static_cast<uint8_t>(o1);
    cid[2] = static_cast<uint8_t>(o2);
    return cid;
}

mmc::regs::CardRegisters sd_registers(uint8_t mid, char o1, char o2)
{
    return mmc::regs::decode_card(CardFamily::sd, {{mmc::regs::RegKind::cid, sd_cid(mid, o1, o2), "input"}});
}

Reading with(Wear w, std::string source = "test")
{
    Reading r;
    r.source = std::move(source);
    r.wear = std::move(w);
    return r;
}

} // namespace

TEST(HealthBlockCheck, WhatIsNeverHealthData)
{
    EXPECT_NE(not_health_data(std::vector<uint8_t>(512, 0))->find("0x00"), std::string::npos);
    EXPECT_NE(not_health_data(std::vector<uint8_t>(512, 0xff))->find("0xff"), std::string::npos);
    // QEMU's SD model before 9.1 answers every CMD56 read with 0xec.
    EXPECT_EQ(*not_health_data(std::vector<uint8_t>(512, 0xec)), "the card answered with a block of 0xec bytes");
    EXPECT_NE(not_health_data(std::vector<uint8_t>(100, 1))->find("100 bytes"), std::string::npos);
    EXPECT_NE(not_health_data(std::vector<uint8_t>(4096, 1))->find("4096 bytes"), std::string::npos);
    EXPECT_TRUE(not_health_data(mmc::test::mbr_block_issue18()));
    std::vector<uint8_t> boot(512, 0x11);
    boot[510] = 0x55;
    boot[511] = 0xaa;
    EXPECT_NE(not_health_data(boot)->find("boot sector"), std::string::npos);
    BlockBuilder ok;
    ok.text(0, "DS");
    EXPECT_FALSE(not_health_data(ok.bytes));
}

TEST(HealthCidTable, EveryRowNamesAKnownLayoutAndASource)
{
    for (const auto& row : cid_table()) {
        EXPECT_FALSE(row.source.empty());
        if (row.channel == Channel::cmd56) {
            const Layout* l = find_layout(row.layout);
            ASSERT_NE(l, nullptr) << row.layout;
            EXPECT_EQ(l->family, row.family) << row.layout;
        }
    }
}

TEST(HealthCidTable, TheCidChoosesAndNothingElseIsProbed)
{
    const auto sandisk = layouts_to_read(sd_registers(0x03, 'S', 'D'), std::nullopt);
    ASSERT_EQ(sandisk.size(), 1u);
    EXPECT_EQ(sandisk[0]->name, "sandisk");
    EXPECT_TRUE(layouts_to_read(sd_registers(0x03, 'X', 'Y'), std::nullopt).empty()); // the OID must match
    EXPECT_TRUE(layouts_to_read(sd_registers(0x27, 'P', 'H'), std::nullopt).empty()); // Phison: not in the table
    EXPECT_TRUE(layouts_to_read(mmc::regs::CardRegisters{}, std::nullopt).empty());   // no CID: nothing
    const auto forced = layouts_to_read(sd_registers(0x27, 'P', 'H'), "two_step");
    ASSERT_EQ(forced.size(), 1u);
    EXPECT_EQ(forced[0]->write_arg, 0x10u);
    EXPECT_EQ(layouts_to_read(sd_registers(0x74, 'J', '`'), std::nullopt)[0]->name, "transcend"); // any OID
}

TEST(HealthCidTable, UnknownCardIsNamedByMidAndOid)
{
    EXPECT_EQ(unknown_card_text(CardFamily::sd, 0x27, 0x5048), "no health data known for this card (MID 0x27, OID \"PH\")");
    EXPECT_EQ(unknown_card_text(CardFamily::mmc, 0x15, 0x01), "no health data known for this card (MID 0x15, OID 0x01)");
}

TEST(HealthVerdict, Thresholds)
{
    const Writability writable{true, {}};
    auto verdict = [&](Wear w) { return judge({with(std::move(w))}, writable).verdict; };
    Wear w;
    EXPECT_EQ(verdict(w), Verdict::unknown);
    w.life_used_percent = 70;
    EXPECT_EQ(verdict(w), Verdict::healthy);
    w.life_used_percent = 80;
    EXPECT_EQ(verdict(w), Verdict::worn);
    w.life_used_percent = 100;
    w.life_exhausted = false; // EXT_CSD 0x0A: 90-100%, not exceeded
    EXPECT_EQ(verdict(w), Verdict::worn);
    w.life_exhausted = true;
    EXPECT_EQ(verdict(w), Verdict::end_of_life);
    Wear e;
    e.pre_eol = PreEol::warning;
    EXPECT_EQ(verdict(e), Verdict::worn);
    e.pre_eol = PreEol::urgent;
    EXPECT_EQ(verdict(e), Verdict::end_of_life);
    Wear s;
    s.spare_blocks_percent = 21;
    EXPECT_EQ(verdict(s), Verdict::healthy);
    s.spare_blocks_percent = 20;
    EXPECT_EQ(verdict(s), Verdict::worn);
    s.spare_blocks_percent = 0;
    EXPECT_EQ(verdict(s), Verdict::end_of_life);
}

TEST(HealthVerdict, ExitStatusesAndSeverity)
{
    EXPECT_EQ(exit_status(Verdict::healthy), 0);
    EXPECT_EQ(exit_status(Verdict::worn), 3);
    EXPECT_EQ(exit_status(Verdict::end_of_life), 4);
    EXPECT_EQ(exit_status(Verdict::read_only), 5);
    EXPECT_EQ(exit_status(Verdict::unknown), 6);
    for (Verdict v : {Verdict::healthy, Verdict::worn, Verdict::end_of_life, Verdict::read_only, Verdict::unknown})
        EXPECT_EQ(verdict_of_exit_status(exit_status(v)), v);
    EXPECT_EQ(verdict_of_exit_status(1), std::nullopt); // failure
    EXPECT_EQ(verdict_of_exit_status(2), std::nullopt); // usage
    EXPECT_GT(severity(Verdict::end_of_life), severity(Verdict::read_only));
    EXPECT_GT(severity(Verdict::read_only), severity(Verdict::worn));
    EXPECT_GT(severity(Verdict::worn), severity(Verdict::unknown));
    EXPECT_GT(severity(Verdict::unknown), severity(Verdict::healthy));
}

TEST(HealthVerdict, ReadOnlyOutranksWornButNotEndOfLife)
{
    const Writability locked{false, {}};
    Wear worn;
    worn.life_used_percent = 90;
    const auto j = judge({with(worn)}, locked);
    EXPECT_EQ(j.verdict, Verdict::read_only);
    EXPECT_EQ(j.source, "writability");
    EXPECT_EQ(j.figure, DecidingFigure::writable);
    Wear dead;
    dead.life_exhausted = true;
    EXPECT_EQ(judge({with(dead)}, locked).verdict, Verdict::end_of_life);
    EXPECT_EQ(judge({}, locked).verdict, Verdict::read_only); // even with no wear figure
}

TEST(HealthVerdict, TheWorstSourceDecides)
{
    Wear fine, worn;
    fine.life_used_percent = 10;
    worn.pre_eol = PreEol::warning;
    const auto j = judge({with(fine, "a"), with(worn, "b")}, Writability{});
    EXPECT_EQ(j.verdict, Verdict::worn);
    EXPECT_EQ(j.source, "b");
    EXPECT_EQ(j.figure, DecidingFigure::pre_eol);
    EXPECT_EQ(to_string(j.figure), "pre_eol");
}

TEST(HealthAssess, KnownCardWithItsBlock)
{
    HealthInput in;
    in.registers = sd_registers(0x03, 'S', 'D');
    BlockBuilder b;
    b.text(0, "DS").u8(8, 90);
    in.cmd56.push_back({"sandisk", {b.block(1)}, ""});
    const auto report = assess(in);
    ASSERT_EQ(report.readings.size(), 1u);
    EXPECT_EQ(report.judgement.verdict, Verdict::worn);
    EXPECT_TRUE(report.notes.empty());
    EXPECT_EQ(report.writability.writable, std::nullopt); // no CSD, status or host facts given
}

TEST(HealthAssess, UnknownSdCardIsUnknownWithTheNote)
{
    HealthInput in;
    in.registers = sd_registers(0x27, 'P', 'H');
    const auto report = assess(in);
    EXPECT_EQ(report.judgement.verdict, Verdict::unknown);
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_NE(report.notes[0].find("MID 0x27"), std::string::npos);
}

TEST(HealthAssess, FailedCommandAndGarbageAreNoHealthData)
{
    HealthInput in;
    in.registers = sd_registers(0x03, 'S', 'D');
    in.cmd56.push_back({"sandisk", {}, "CMD56 read (arg 0x00000001): Connection timed out"});
    in.cmd56.push_back({"two_step", {{0x21, std::vector<uint8_t>(512, 0xff)}}, ""});
    const auto report = assess(in);
    EXPECT_TRUE(report.readings.empty());
    ASSERT_EQ(report.no_data.size(), 2u);
    EXPECT_EQ(report.no_data[0].source, "cmd56:sandisk");
    EXPECT_NE(report.no_data[0].why.find("timed out"), std::string::npos);
    EXPECT_EQ(report.no_data[1].source, "cmd56:two_step");
    EXPECT_EQ(report.judgement.verdict, Verdict::unknown);
}

TEST(HealthAssess, SwissbitReadsItsSdStatus)
{
    std::vector<uint8_t> ssr(64, 0);
    ssr[33] = 15;
    HealthInput in;
    in.registers = mmc::regs::decode_card(CardFamily::sd, {{mmc::regs::RegKind::cid, sd_cid(0x5d, 'S', 'B'), "input"},
                                                           {mmc::regs::RegKind::ssr, ssr, "input"}});
    const auto report = assess(in);
    ASSERT_EQ(report.readings.size(), 1u);
    EXPECT_EQ(report.readings[0].source, "ssr:swissbit");
    EXPECT_EQ(report.judgement.verdict, Verdict::worn);
    EXPECT_EQ(layouts_to_read(in.registers, std::nullopt)[0]->name, "swissbit"); // and its CMD56 block
}

TEST(HealthCollect, ACardThatStopsAnsweringGetsNothingMore)
{
    std::vector<const Layout*> layouts{find_layout("sandisk"), find_layout("adata"), find_layout("transcend")};
    int sent = 0;
    const auto reads = read_layouts(layouts, [&](const Layout& l, bool& stopped) {
        ++sent;
        stopped = true;
        return Cmd56Read{std::string(l.name), {}, "CMD56 read: Connection timed out"};
    });
    EXPECT_EQ(sent, 1);
    ASSERT_EQ(reads.size(), 3u);
    EXPECT_NE(reads[1].error.find("not sent"), std::string::npos);
    EXPECT_NE(reads[2].error.find("not sent"), std::string::npos);
}
