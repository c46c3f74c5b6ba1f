// mmc-qualify on a card in a USB reader: the plan skips, with the
// reader named, the steps that need the MMC host; the pipeline records them
// skipped without running them; the bundle records the reader and link, the
// attachment, and what tells the card apart without its CID.
#include "dev/usb_reader_table.h"
#include "views/reader_view.h"
#include "qualify/bundle.h"
#include "qualify/pipeline.h"
#include "qualify/plan.h"
#include "qualify/steps.h"

#include <gtest/gtest.h>

using namespace mmc::qualify;

namespace {

mmc::dev::UsbStorage gl827l()
{
    mmc::dev::UsbStorage u;
    u.disk = "sdb";
    u.vid = "05e3";
    u.pid = "0723";
    u.manufacturer = "Generic";
    u.product = "USB Storage";
    u.driver = "usb-storage";
    u.interface_protocol = 0x50;
    u.speed_mbit = 480;
    u.reader = true;
    u.chip = mmc::dev::find_reader_chip(u.vid, u.pid);
    return u;
}

Settings in_reader()
{
    Settings s;
    s.device = "/dev/sdb";
    s.suites = {mmc::bench::Suite::quick};
    s.reader = gl827l();
    return s;
}

} // namespace

TEST(QualifyReader, ThePlanSkipsTheRegistersAndHealthNamingTheReader)
{
    const Settings s = in_reader();
    const Plan p = make_plan(step_table(s), s);
    std::vector<std::string> skipped, run;
    for (const auto& st : p.steps) (st.skip.empty() ? run : skipped).push_back(st.spec.name);
    EXPECT_EQ(skipped, (std::vector<std::string>{"info", "health"}));
    EXPECT_EQ(run, (std::vector<std::string>{"bus", "geometry", "bench-quick"}));
    const std::string reader = mmc::dev::reader_words(*s.reader);
    EXPECT_EQ(p.steps[0].skip, "registers: not readable through " + reader + "; an SD slot on an MMC host reads them");
    EXPECT_NE(p.steps[0].skip.find("USB 2.0 reader ("), std::string::npos) << p.steps[0].skip;
    const std::string text = plan_text(p);
    EXPECT_NE(text.find(" 1. info         skipped: registers: not readable through a USB 2.0 reader"), std::string::npos) << text;
    EXPECT_NE(text.find("bus          diagnoses the reader's USB link"), std::string::npos) << text;
    const json j = plan_json(p);
    EXPECT_TRUE(j["steps"][0]["skipped"].is_string());
    EXPECT_TRUE(j["steps"][1]["skipped"].is_null());
}

TEST(QualifyReader, OnAnMmcSlotNothingIsSkipped)
{
    Settings s;
    s.device = "/dev/mmcblk0";
    s.suites = {mmc::bench::Suite::quick};
    for (const auto& st : make_plan(step_table(s), s).steps) EXPECT_EQ(st.skip, "") << st.spec.name;
}

TEST(QualifyReader, ASkippedStepIsNotRunAndSaysWhy)
{
    int runs = 0;
    StepSpec spec;
    spec.name = "info";
    spec.tool = "mmc-info";
    spec.run = [&runs](StepContext&) {
        ++runs;
        return StepResult{};
    };
    spec.skip_when = [](const Settings& s) { return s.reader ? std::string("registers: not readable") : std::string(); };
    const Settings s = in_reader();
    const Plan p = make_plan({spec}, s);
    std::atomic<bool> stop{false};
    StepContext c(s, stop);
    std::vector<std::string> finished;
    RunHooks hooks;
    hooks.finished = [&](const StepRecord& r) { finished.push_back(r.name); };
    const Outcome o = run_plan(p, c, hooks);
    EXPECT_EQ(runs, 0);
    ASSERT_EQ(o.steps.size(), 1u);
    EXPECT_EQ(o.steps[0].state, StepState::skipped);
    EXPECT_EQ(o.steps[0].message, "registers: not readable");
    EXPECT_FALSE(o.steps[0].exit_status);
    EXPECT_TRUE(o.all_ok()) << "a step that cannot run here is no failure";
    EXPECT_EQ(finished, (std::vector<std::string>{"info"}));
}

TEST(QualifyReader, TheBundleRecordsTheReaderTheLinkAndTheCardsSize)
{
    Outcome o;
    StepRecord info;
    info.name = "info";
    info.tool = "mmc-info";
    info.part = BundlePart::info;
    info.state = StepState::skipped;
    info.message = "registers: not readable through a USB 2.0 reader";
    o.steps.push_back(info);
    Attachment a;
    a.base = "USB 2.0 reader, usb-storage";
    a.reader = mmc::out::reader_record_json(gl827l());
    a.sectors = 62333952;
    a.partition_table_id = "1a2b3c4d";
    const auto made = make_bundle(o, {"", "laptop", json::object(), "2026-12-03T14:00:00Z", a});
    const json& d = made.doc;
    EXPECT_EQ(d["attachment"], "USB 2.0 reader, usb-storage");
    EXPECT_EQ(d["reader"]["chip"], "Genesys Logic GL827L");
    EXPECT_EQ(d["reader"]["usb_id"], "05e3:0723");
    EXPECT_EQ(d["reader"]["driver"], "usb-storage");
    EXPECT_EQ(d["reader"]["speed_mbit"], 480.0);
    EXPECT_EQ(d["reader"]["ceiling_mb_s"], 40.0) << "bulk-only on USB 2.0: about 40 MB/s in practice";
    EXPECT_FALSE(d["reader"]["ceiling_source"].get<std::string>().empty());
    EXPECT_EQ(d["card"]["sectors"], 62333952u);
    EXPECT_EQ(d["card"]["partition_table_id"], "1a2b3c4d");
    EXPECT_EQ(d["card"]["capacity_bytes"], 62333952ull * 512) << "no registers: the disk's size";
    EXPECT_EQ(d["card"]["label"], "32GB");
    EXPECT_FALSE(d["card"].contains("label_given"));
    // It reads back, and a bundle without these keys still loads.
    const auto back = mmc::report::from_json(d);
    EXPECT_EQ(back.attachment, "USB 2.0 reader, usb-storage");
    EXPECT_EQ(back.reader["usb_id"], "05e3:0723");
    EXPECT_EQ(back.card.sectors, 62333952u);
    EXPECT_TRUE(back.warnings.empty());
    json old = d;
    old.erase("attachment");
    old.erase("reader");
    old["card"].erase("sectors");
    old["card"].erase("partition_table_id");
    const auto plain = mmc::report::from_json(old);
    EXPECT_EQ(plain.attachment, "");
    EXPECT_TRUE(plain.reader.is_null());
    EXPECT_FALSE(plain.card.sectors);
}

TEST(QualifyReader, AnMmcSlotIsNamedWithItsBusModeAndWidth)
{
    Attachment a;
    a.base = "slot mmc0";
    a.mmc_slot = true;
    EXPECT_EQ(attachment_text(a, json{{"ios", {{"mode", "SDR104"}, {"bus_width_bits", 4}}}}), "slot mmc0 SDR104 4-bit");
    EXPECT_EQ(attachment_text(a, nullptr), "slot mmc0");
    Outcome o;
    const auto made = make_bundle(o, {"", "pi", json::object(), "2026-12-03T14:00:00Z", a});
    EXPECT_TRUE(made.doc["reader"].is_null()) << "in a slot: no reader";
    EXPECT_EQ(made.doc["attachment"], "slot mmc0");
}
