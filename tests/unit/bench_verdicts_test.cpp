#include "bench/suites.h"
#include "bench/verdicts.h"

#include <gtest/gtest.h>

using namespace mmc::bench;

namespace {

const BusCeiling sdr104{"SDR104", 104, {}, {}};
const BusCeiling hs{"HS", 25, {}, {}};
const BusCeiling unknown_bus{};

Measured m(double v) { return {v, {}}; }

} // namespace

TEST(BenchVerdicts, PassAndFail)
{
    auto v = judge_mb_s("speed class C10", 10, m(12.3), sdr104);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(v.unit, mmc::bench::VerdictUnit::mb_s);
    EXPECT_STREQ(to_string(v.unit), "MB/s");
    EXPECT_EQ(*v.required, 10);
    EXPECT_EQ(*v.measured, 12.3);
    v = judge_mb_s("speed class C10", 10, m(6.1), sdr104);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::fail);
    EXPECT_NE(v.why.find("below the required 10.0 MB/s"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("is not the limit"), std::string::npos) << v.why;
    EXPECT_EQ(judge_mb_s("x", 10, m(10), unknown_bus).result, mmc::bench::VerdictResult::pass); // at the line passes
    EXPECT_EQ(judge_mb_s("x", 10, m(9.99), unknown_bus).result, mmc::bench::VerdictResult::fail);
}

TEST(BenchVerdicts, AShortfallIsNeverPrintedAsEqual)
{
    auto v = judge_mb_s("speed class C10", 10, m(9.996), unknown_bus);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::fail);
    EXPECT_NE(v.why.find("measured 9.996 MB/s is below the required 10.0 MB/s"), std::string::npos) << v.why;
    v = judge_iops("A1 random read", 1500, 4096, m(1499.6), unknown_bus);
    EXPECT_NE(v.why.find("measured 1499.60 IOPS is below the required 1500 IOPS"), std::string::npos) << v.why;
    v = judge_mb_s("speed class C10", 10, m(6.1), unknown_bus);
    EXPECT_NE(v.why.find("measured 6.10 MB/s is below"), std::string::npos) << v.why << ": a clear shortfall keeps its usual form";
}

TEST(BenchVerdicts, NotMeasuredIsNotApplicable)
{
    const auto v = judge_iops("A1 random write", 500, 4096, {std::nullopt, "write test skipped: read-only run"}, hs);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_EQ(v.why, "write test skipped: read-only run");
    EXPECT_FALSE(v.measured);
}

TEST(BenchVerdicts, RequirementAboveTheBusCeilingIsBusLimited)
{
    // U3 needs 30 MB/s; a card in HS mode (25 MB/s) cannot show it.
    const auto v = judge_mb_s("UHS speed grade U3", 30, m(21), hs);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_NE(v.why.find("bus-limited"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("HS bus ceiling 25 MB/s"), std::string::npos) << v.why;
    EXPECT_EQ(*v.bus_ceiling_mb_s, 25);
}

TEST(BenchVerdicts, MeasuredAtTheCeilingIsBusLimited)
{
    // 44 MB/s of a 50 MB/s DDR50 bus (88%) against a 48 MB/s requirement:
    // the protocol's overhead, not the card, keeps it short.
    const auto v = judge_mb_s("a 48 MB/s claim", 48, m(44), BusCeiling{"DDR50", 50, {}, {}});
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_NE(v.why.find("the bus, not the card"), std::string::npos) << v.why;
    // Far below the ceiling the card is to blame.
    EXPECT_EQ(judge_mb_s("speed class C10", 10, m(4), BusCeiling{"DDR50", 50, {}, {}}).result, mmc::bench::VerdictResult::fail);
    // Passing near the ceiling is still a pass.
    EXPECT_EQ(judge_mb_s("speed class C10", 10, m(24), hs).result, mmc::bench::VerdictResult::pass);
}

TEST(BenchVerdicts, IopsConvertToBytesForTheBusCheck)
{
    // 4000 x 4 KiB = 16.4 MB/s fits in HS: a slow card fails.
    EXPECT_EQ(judge_iops("A2 random read", 4000, 4096, m(1200), hs).result, mmc::bench::VerdictResult::fail);
    // On a 12.5 MB/s legacy bus the same requirement cannot be met.
    const auto v = judge_iops("A2 random read", 4000, 4096, m(2900), BusCeiling{"legacy", 12.5, {}, {}});
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_EQ(v.unit, mmc::bench::VerdictUnit::iops);
}

TEST(BenchVerdicts, A2NeedsCacheAndCommandQueue)
{
    HostQueueing q;
    q.cache_enabled = true;
    q.cq_enabled = true;
    EXPECT_FALSE(a2_blocker(q));
    q.cq_enabled = false;
    q.cq_evidence = "no CQE message";
    auto why = a2_blocker(q);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("without command queueing (no CQE message)"), std::string::npos) << *why;
    EXPECT_NE(why->find("cannot show A2 speed"), std::string::npos) << *why;
    q.cache_enabled = false;
    q.cache_evidence = "write through";
    why = a2_blocker(q);
    EXPECT_NE(why->find("and without the card's cache (write through)"), std::string::npos) << *why;
    q = {};
    q.cache_enabled = true;
    q.cq_evidence = "kernel log unreadable";
    why = a2_blocker(q);
    EXPECT_NE(why->find("cannot tell whether the host enables command queueing"), std::string::npos) << *why;
}

namespace {

JobResult result(const char* name, double iops, double mb_s)
{
    JobResult r;
    r.job.name = name;
    r.ios = 1000;
    r.iops = iops;
    r.mb_s = mb_s;
    return r;
}

SuiteFacts sd_facts()
{
    SuiteFacts f;
    f.sd_card = true;
    f.claims.known = true;
    f.claims.source = "ioctl";
    f.claims.speed_class_mb_s = 10;
    f.claims.uhs_grade = 3;
    f.claims.video_class = 30;
    f.claims.app_perf_class = 2;
    f.bus = sdr104;
    f.host.cache_enabled = false;
    f.host.cache_evidence = "write through";
    f.host.cq_enabled = false;
    f.host.cq_evidence = "no CQE";
    return f;
}

} // namespace

TEST(BenchVerdicts, A1Suite)
{
    const auto rd = result("randread-4k", 2100, 8.6), wr = result("randwrite-4k", 420, 1.7),
               seq = result("seqwrite-512k-sustained", 24, 24);
    Outcomes o;
    o.ran = {{"randread-4k", &rd}, {"randwrite-4k", &wr}, {"seqwrite-512k-sustained", &seq}};
    const auto v = suite_verdicts(Suite::a1, o, sd_facts());
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].claim, "A1 random read 4 KiB QD1");
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(*v[0].required, 1500);
    EXPECT_EQ(v[1].result, mmc::bench::VerdictResult::fail);
    EXPECT_EQ(*v[1].required, 500);
    EXPECT_NE(v[1].why.find("the card claims: A2"), std::string::npos) << v[1].why;
    EXPECT_EQ(v[2].claim, "A1 sustained sequential write");
    EXPECT_EQ(v[2].result, mmc::bench::VerdictResult::pass);
}

TEST(BenchVerdicts, A2WithoutHostQueueingIsNotApplicableNotFailed)
{
    const auto rd = result("randread-4k", 1900, 7.8), wr = result("randwrite-4k", 600, 2.4),
               seq = result("seqwrite-512k-sustained", 6, 6);
    Outcomes o;
    o.ran = {{"randread-4k", &rd}, {"randwrite-4k", &wr}, {"seqwrite-512k-sustained", &seq}};
    const auto v = suite_verdicts(Suite::a2, o, sd_facts());
    ASSERT_EQ(v.size(), 3u);
    for (int i : {0, 1}) {
        EXPECT_EQ(v[i].result, mmc::bench::VerdictResult::not_applicable);
        EXPECT_NE(v[i].why.find("cannot show A2 speed"), std::string::npos);
        EXPECT_TRUE(v[i].measured); // the QD1 figure is still shown
    }
    EXPECT_EQ(*v[0].required, 4000);
    EXPECT_EQ(*v[1].required, 2000);
    EXPECT_EQ(v[2].result, mmc::bench::VerdictResult::fail); // sustained write does not need the queue
}

TEST(BenchVerdicts, A2WithHostQueueingUsesTheQueuedJobs)
{
    auto f = sd_facts();
    f.host.cache_enabled = true;
    f.host.cq_enabled = true;
    const auto rd1 = result("randread-4k", 1900, 7.8), rd = result("randread-4k-qd32", 4500, 18),
               wr = result("randwrite-4k-qd32", 2100, 8.6), seq = result("seqwrite-512k-sustained", 30, 30);
    Outcomes o;
    o.ran = {{"randread-4k", &rd1}, {"randread-4k-qd32", &rd}, {"randwrite-4k-qd32", &wr}, {"seqwrite-512k-sustained", &seq}};
    const auto v = suite_verdicts(Suite::a2, o, f);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].claim, "A2 random read 4 KiB QD32");
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(*v[0].measured, 4500);
    EXPECT_EQ(v[1].result, mmc::bench::VerdictResult::pass);
}

TEST(BenchVerdicts, ClassSuiteJudgesTheSlowestAu)
{
    JobResult r = result("seqwrite-512k-au", 40, 20);
    r.unit_bytes = 4 << 20;
    r.unit_mb_s = {35, 31, 22, 33};
    Outcomes o;
    o.ran = {{"seqwrite-512k-au", &r}};
    const auto v = suite_verdicts(Suite::speed_class, o, sd_facts());
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].claim, "speed class C10 (slowest AU)");
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(*v[0].measured, 22);
    EXPECT_EQ(v[1].claim, "UHS speed grade U3 (slowest AU)");
    EXPECT_EQ(v[1].result, mmc::bench::VerdictResult::fail);
    EXPECT_EQ(v[2].claim, "video speed class V30 (slowest AU)");
    EXPECT_EQ(v[2].result, mmc::bench::VerdictResult::fail);
}

TEST(BenchVerdicts, ClassSuiteOnAHighSpeedBus)
{
    JobResult r = result("seqwrite-512k-au", 40, 20);
    r.unit_bytes = 4 << 20;
    r.unit_mb_s = {21.5, 22};
    Outcomes o;
    o.ran = {{"seqwrite-512k-au", &r}};
    auto f = sd_facts();
    f.bus = hs;
    const auto v = suite_verdicts(Suite::speed_class, o, f);
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::pass);           // C10 fits in 25 MB/s
    EXPECT_EQ(v[1].result, mmc::bench::VerdictResult::not_applicable); // U3 (30) does not
    EXPECT_NE(v[1].why.find("bus-limited"), std::string::npos);
}

TEST(BenchVerdicts, UnknownOrAbsentClaims)
{
    JobResult r = result("seqwrite-512k-au", 40, 20);
    r.unit_bytes = 4 << 20;
    r.unit_mb_s = {12};
    Outcomes o;
    o.ran = {{"seqwrite-512k-au", &r}};
    SuiteFacts f;
    f.sd_card = true;
    f.claims_missing_why = "the SD status (SSR) could not be read";
    auto v = suite_verdicts(Suite::speed_class, o, f);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_NE(v[0].why.find("SSR"), std::string::npos);
    f.claims.known = true; // read, but Class 0, U0, no video class
    v = suite_verdicts(Suite::speed_class, o, f);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].why.find("makes no speed class"), std::string::npos);
    f.sd_card = false; // a loop device: no claims to judge
    EXPECT_TRUE(suite_verdicts(Suite::speed_class, o, f).empty());
}

TEST(BenchVerdicts, SkippedAndPartialJobs)
{
    JobResult rd = result("randread-4k", 2000, 8);
    JobResult broken = result("seqwrite-512k-sustained", 1, 1);
    broken.partial = true;
    broken.error = "write at offset 0: No such device";
    Outcomes o;
    o.ran = {{"randread-4k", &rd}, {"seqwrite-512k-sustained", &broken}};
    o.skipped = {{"randwrite-4k", "write test skipped: read-only run (destructive runs only)"}};
    const auto v = suite_verdicts(Suite::a1, o, sd_facts());
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(v[1].result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_NE(v[1].why.find("destructive runs only"), std::string::npos);
    EXPECT_EQ(v[2].result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_NE(v[2].why.find("stopped early"), std::string::npos);
}

TEST(BenchVerdicts, QuickSuiteJudgesOnlyWhatTheCardClaims)
{
    const auto rd = result("randread-4k", 2000, 8), wr = result("randwrite-4k", 800, 3.2),
               sw = result("seqwrite-4M", 3, 14), sr = result("seqread-4M", 6, 24);
    Outcomes o;
    o.ran = {{"randread-4k", &rd}, {"randwrite-4k", &wr}, {"seqwrite-4M", &sw}, {"seqread-4M", &sr}};
    auto f = sd_facts();
    f.claims.app_perf_class = 1;
    f.claims.uhs_grade.reset();
    f.claims.video_class.reset();
    const auto v = suite_verdicts(Suite::quick, o, f);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_NE(v[0].claim.find("speed class C10"), std::string::npos);
    EXPECT_EQ(v[0].result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(v[1].claim, "A1 random read 4 KiB QD1");
    EXPECT_EQ(v[2].result, mmc::bench::VerdictResult::pass);
    EXPECT_TRUE(suite_verdicts(Suite::iozone, o, f).empty());
}

TEST(BenchVerdicts, AFigureAboveTheBusCeilingIsNeverTheBusLimit)
{
    // The lab's emulated card: 15.68 MB/s measured on HS at an actual 26 MHz.
    BusCeiling lab{"HS", 13, 26'000'000, "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)"};
    auto v = judge_mb_s("speed class C10", 10, m(15.68), lab);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_EQ(v.why.find("the bus is the limit"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("121% of the HS bus ceiling (13 MB/s at 26 MHz)"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("emulated"), std::string::npos) << v.why;
    // A real controller: the clock or the measurement is suspect, said as such.
    BusCeiling real{"HS", 25, 50'000'000, "sdhci-pci (PCI 1217:8620 at 0000:03:00.0)"};
    v = judge_iops("A1 random read 4 KiB QD1", 1500, 4096, m(7000), real); // 28.7 MB/s on a 25 MB/s bus
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_NE(v.why.find("reported clock is not the one the data moves at"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("measurement is wrong"), std::string::npos) << v.why;
    // At the ceiling or below it, the old verdicts stand.
    EXPECT_EQ(judge_mb_s("x", 10, m(12.9), lab).result, mmc::bench::VerdictResult::pass);
    EXPECT_FALSE(above_ceiling(13, lab));
    EXPECT_TRUE(above_ceiling(13.01, lab));
    EXPECT_FALSE(above_ceiling(1e6, unknown_bus));
}
