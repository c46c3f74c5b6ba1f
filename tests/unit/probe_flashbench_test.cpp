// The flashbench -a reader and the ladder analysis on the real outputs of
// tests/data/flashbench/outputs.json (copied from the shared corpus, each
// with its source), held to the conclusion their authors drew.
#include "probe/flashbench_text.h"
#include "probe/ladder.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace mmc::probe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

const nlohmann::json& outputs()
{
    static const nlohmann::json j = [] {
        std::ifstream in("tests/data/flashbench/outputs.json");
        if (!in) throw std::runtime_error("tests/data/flashbench/outputs.json: cannot open (run from the repository root)");
        return nlohmann::json::parse(in);
    }();
    return j;
}

std::string output_of(const std::string& id)
{
    for (const auto& o : outputs()["outputs"])
        if (o["id"] == id) return o["output"].get<std::string>();
    throw std::runtime_error("no corpus output " + id);
}

Geometry read(const std::string& id) { return analyze(parse_flashbench(output_of(id)).ladder); }

} // namespace

TEST(ProbeFlashbenchTime, Units)
{
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("735µs"), 735e3);
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("735us"), 735e3);
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("1.08ms"), 1.08e6);
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("9ns"), 9);
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("1.5s"), 1.5e9);
    // flashbench cuts every value to 7 characters: a negative ns value loses its unit.
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("-412331"), -412331);
    EXPECT_DOUBLE_EQ(*parse_flashbench_time("-49389n"), -49389);
    EXPECT_FALSE(parse_flashbench_time("pre"));
    EXPECT_FALSE(parse_flashbench_time("12parsecs"));
}

TEST(ProbeFlashbenchText, EveryAlignOutputOfTheCorpusParses)
{
    int parsed = 0;
    for (const auto& o : outputs()["outputs"]) {
        if (o["test"] != "-a") continue;
        SCOPED_TRACE(o["id"].get<std::string>());
        const auto t = parse_flashbench(o["output"].get<std::string>());
        EXPECT_GE(t.ladder.rows.size(), 15u);
        ++parsed;
    }
    EXPECT_EQ(parsed, 5);
}

TEST(ProbeFlashbenchText, PromptTabsIndentAndBlocksize)
{
    const auto t = parse_flashbench(output_of("smi-0x1b-align")); // "    # flashbench ...", tabs, indented
    EXPECT_EQ(t.ladder.rows.size(), 21u);
    ASSERT_TRUE(t.blocksize);
    EXPECT_EQ(*t.blocksize, 1024u);
    EXPECT_EQ(t.ladder.rows.front().align, 2147483648u);
    EXPECT_DOUBLE_EQ(t.ladder.rows.front().pre_ns, 1.61e6);
}

TEST(ProbeFlashbenchText, TruncatedLastLineIsDroppedWithANote)
{
    const auto t = parse_flashbench(output_of("issue16-negative-diff"));
    EXPECT_EQ(t.ladder.rows.size(), 15u); // the 16th line stops after "pre"
    ASSERT_EQ(t.notes.size(), 1u);
    EXPECT_NE(t.notes[0].find("cut off"), std::string::npos);
}

// A paste whose line breaks were lost (two rows a line,
// as mail clients rewrap, or every row on one) reads row for row as the
// intact one, with its --blocksize, and says it looks rewrapped. Before, each
// line's first "align" was paired with its last row's times.
TEST(ProbeFlashbenchText, RewrappedPasteReadsAsTheIntactOne)
{
    const std::string intact = output_of("readme-align");
    std::string two, one;
    std::size_t n = 0;
    for (std::size_t at = 0, end; at < intact.size(); at = end + 1) {
        end = intact.find('\n', at);
        if (end == std::string::npos) end = intact.size();
        const std::string line = intact.substr(at, end - at);
        two += line + (line.rfind("align", 0) == 0 && ++n % 2 ? " " : "\n");
        one += line + " ";
    }
    const auto want = parse_flashbench(intact);
    EXPECT_TRUE(want.notes.empty());
    for (const auto& text : {two, one}) {
        const auto got = parse_flashbench(text);
        ASSERT_EQ(got.ladder.rows.size(), want.ladder.rows.size()) << text;
        for (std::size_t i = 0; i < got.ladder.rows.size(); ++i) {
            EXPECT_EQ(got.ladder.rows[i].align, want.ladder.rows[i].align) << i;
            EXPECT_EQ(got.ladder.rows[i].on_ns, want.ladder.rows[i].on_ns) << i;
            EXPECT_EQ(got.ladder.rows[i].post_ns, want.ladder.rows[i].post_ns) << i;
        }
        EXPECT_EQ(got.blocksize, want.blocksize);
        ASSERT_EQ(got.notes.size(), 1u);
        EXPECT_NE(got.notes[0].find("looks rewrapped"), std::string::npos) << got.notes[0];
    }
}

TEST(ProbeFlashbenchText, NotFlashbenchIsAnError)
{
    EXPECT_THROW(parse_flashbench("4MiB    8.79M/s\n2MiB    7.41M/s\n"), FlashbenchParseError);
    EXPECT_THROW(parse_flashbench(""), FlashbenchParseError);
}

// Arnd Bergmann's README example: "4 MB is the erase block size ... the card
// has 8 KB pages, but can use multi-plane accesses to read two 8 KB pages".
TEST(ProbeFlashbenchCorpus, ReadmeAlign)
{
    const auto g = read("readme-align");
    ASSERT_TRUE(g.au_bytes);
    EXPECT_EQ(*g.au_bytes, 4 * MiB);
    ASSERT_TRUE(g.page_bytes);
    EXPECT_EQ(*g.page_bytes, 8 * KiB);
    ASSERT_TRUE(g.multi_plane_bytes);
    EXPECT_EQ(*g.multi_plane_bytes, 16 * KiB);
    EXPECT_EQ(g.confidence, Confidence::high);
}

// SanDisk 4 GB SDHC: page 4 KiB (two read at once: 8 KiB), erase block 512 KiB (probable).
TEST(ProbeFlashbenchCorpus, Sandisk4gSdhc)
{
    const auto g = read("sandisk4g-sdhc-align");
    ASSERT_TRUE(g.page_bytes);
    EXPECT_EQ(*g.page_bytes, 4 * KiB);
    ASSERT_TRUE(g.multi_plane_bytes);
    EXPECT_EQ(*g.multi_plane_bytes, 8 * KiB);
    ASSERT_TRUE(g.au_bytes);
    EXPECT_EQ(*g.au_bytes, 512 * KiB);
}

// The SMI card: "nothing drastic happens until the 8K boundary"; the erase
// block is not determinable from -a; page 16 KiB? (the corpus's reading).
TEST(ProbeFlashbenchCorpus, Smi0x1bHasNoAuStep)
{
    const auto g = read("smi-0x1b-align");
    EXPECT_FALSE(g.au_bytes);
    ASSERT_TRUE(g.page_bytes);
    EXPECT_EQ(*g.page_bytes, 16 * KiB);
    EXPECT_EQ(g.confidence, Confidence::low);
}

// An NVMe drive has no ladder: no boundary at all.
TEST(ProbeFlashbenchCorpus, NvmeShowsNoBoundary)
{
    const auto g = read("issue9-nvme-align");
    EXPECT_FALSE(g.page_bytes);
    EXPECT_FALSE(g.au_bytes);
    EXPECT_EQ(g.confidence, Confidence::none);
}

// Noisy timings (pre and post vary 0.6-3.4 ms): nothing can be read from them.
TEST(ProbeFlashbenchCorpus, NoisyLadderClaimsNothing)
{
    const auto g = read("issue16-negative-diff");
    EXPECT_FALSE(g.au_bytes);
    EXPECT_EQ(g.confidence, Confidence::none);
    EXPECT_GT(g.noise_floor_ns, 100e3);
}

namespace {

// A flashbench -a paste of 1 KiB reads: rows from 1 KiB to 32 MiB, pre and
// post around `read_us`, "on" with `step_us` more from `step_at` up. A fixed
// pattern (the same run each time) moves each row's reads by up to
// +-`noise_us` from the next row's, and the three reads of one row (taken at
// the same places) by a fifth of that from each other.
std::string synthetic_ladder(double read_us, double noise_us, uint64_t step_at, double step_us)
{
    static constexpr double pattern[] = {0.9, -0.4, 0.1, -1.0, 0.6, -0.7, 0.3, 1.0, -0.2, -0.9, 0.5, -0.5, 0.8, -0.1, 0.2, -0.8, 0.7};
    std::string text = "# flashbench -a /dev/mmcblk0 --blocksize=1024\n";
    int k = 0;
    for (uint64_t a = 32 * MiB; a >= KiB; a /= 2) {
        const auto next = [&] { return noise_us * pattern[k++ % std::size(pattern)]; };
        const double row = read_us + next();
        const double pre = row + next() / 5, post = row + next() / 5;
        const double on = row + next() / 5 + (a >= step_at ? step_us : 0);
        text += "align " + std::to_string(a) + "\tpre " + std::to_string(pre) + "µs\ton " + std::to_string(on) + "µs\tpost " +
                std::to_string(post) + "µs\tdiff " + std::to_string(on - (pre + post) / 2) + "µs\n";
    }
    return text;
}

} // namespace

// A boundary is a step far outside the spread of the rows
// themselves, whatever the read time: ~200 us over ~550 us reads is found...
TEST(ProbeFlashbenchBoundary, AStepFarOutsideTheRowsSpreadIsFound)
{
    const auto g = analyze(parse_flashbench(synthetic_ladder(550, 12, 4 * MiB, 200)).ladder);
    ASSERT_TRUE(g.au_bytes) << g.evidence.back();
    EXPECT_EQ(*g.au_bytes, 4 * MiB);
    EXPECT_FALSE(g.page_bytes);
    // ... and so is the same step over reads a hundred times as slow (a
    // floor of 1% of the read time, 550 us, hid it).
    const auto slow = analyze(parse_flashbench(synthetic_ladder(55000, 12, 4 * MiB, 200)).ladder);
    ASSERT_TRUE(slow.au_bytes);
    EXPECT_EQ(*slow.au_bytes, 4 * MiB);
}

// ... and the noise alone is no boundary, however the read time compares.
TEST(ProbeFlashbenchBoundary, NoiseAloneIsNoBoundary)
{
    for (const double read_us : {550.0, 55000.0, 50.0}) {
        const auto g = analyze(parse_flashbench(synthetic_ladder(read_us, 12, 64 * MiB, 0)).ladder);
        EXPECT_FALSE(g.au_bytes) << read_us;
        EXPECT_FALSE(g.page_bytes) << read_us;
        EXPECT_EQ(g.confidence, Confidence::none) << read_us;
    }
}
