// What mmc-probe capacity prints: the JSON contract, the sfdisk line, the
// exit status per verdict.
#include "probe/capacity_view.h"
#include "probe/words_view.h"

#include <gtest/gtest.h>
#include <set>

using namespace mmc::probe;

namespace {

CapacityResult limbo_result()
{
    CapacityResult r;
    r.verdict = Verdict::limbo;
    r.announced_bytes = 256ull << 20;
    r.usable_bytes = 28360704; // 55392 blocks
    r.cache_bytes = 0;
    r.blocks_written = 42;
    r.blocks_backed_up = 21;
    r.restored = true;
    r.seconds = 0.25;
    return r;
}

} // namespace

TEST(ProbeCapacityView, TheJsonCarriesTheContractsKeysInOrder)
{
    const auto j = result_json({"/dev/loop0", std::nullopt, "loop0 is a loop device"}, limbo_result(), 512, false);
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    const std::vector<std::string> contract = {"card", "verdict", "announced_bytes", "usable_bytes", "module_bytes",
                                               "cache_bytes", "blocks_written", "seconds"};
    std::size_t at = 0;
    for (const auto& k : keys)
        if (at < contract.size() && k == contract[at]) ++at;
    EXPECT_EQ(at, contract.size()) << j.dump();
    EXPECT_TRUE(j["card"].is_null());
    EXPECT_EQ(j["verdict"], "limbo");
    EXPECT_TRUE(j["module_bytes"].is_null());
    EXPECT_EQ(j["cache_bytes"], 0);
    EXPECT_EQ(j["interrupted"], false);
}

TEST(ProbeCapacityView, AnInterruptedRunHasNoVerdictAndNoCommand)
{
    CapacityResult r = limbo_result();
    r.verdict.reset();
    r.interrupted = true;
    const auto j = result_json({"/dev/loop0", std::nullopt, ""}, r, 512, false);
    EXPECT_TRUE(j["verdict"].is_null());
    EXPECT_TRUE(j["shrink_command"].is_null());
    EXPECT_EQ(j["interrupted"], true);
    EXPECT_NE(result_text({"/dev/loop0", std::nullopt, ""}, r, 512).find("interrupted"), std::string::npos);
}

TEST(ProbeCapacityView, TheSfdiskLineEndsAtTheLastUsableBlock)
{
    const CapacityResult r = limbo_result();
    EXPECT_EQ(shrink_command("/dev/mmcblk0", r, 512),
              "printf 'label: dos\\nstart=2048, size=53344, type=c\\n' | sfdisk /dev/mmcblk0");
    EXPECT_EQ(shrink_command("/dev/sdb", r, 4096), "printf 'label: dos\\nstart=256, size=6668, type=c\\n' | sfdisk /dev/sdb");
    CapacityResult good = r;
    good.verdict = Verdict::good;
    EXPECT_EQ(shrink_command("/dev/mmcblk0", good, 512), "");
    CapacityResult bad = r;
    bad.verdict = Verdict::bad;
    bad.usable_bytes = 0;
    EXPECT_EQ(shrink_command("/dev/mmcblk0", bad, 512), "");
}

TEST(ProbeCapacityView, EachVerdictHasItsOwnExitStatus)
{
    std::set<int> seen;
    for (Verdict v : {Verdict::good, Verdict::limbo, Verdict::wraparound, Verdict::chain, Verdict::bad}) {
        const int s = exit_status(v);
        EXPECT_TRUE(seen.insert(s).second) << verdict_name(v);
        EXPECT_TRUE(s != 1 && s != 2 && s != 130) << verdict_name(v) << ": taken by failure, usage or interrupted";
    }
    EXPECT_EQ(exit_status(Verdict::good), 0);
}
