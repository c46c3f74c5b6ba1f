// Verification: classifying bytes, the verdicts (pass, the other erased
// pattern as a warning, other data as a failure unless DISCARD allows it),
// the sampled windows, and reading a file back.
#include "erase/verify.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace mmc::erase;

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

Scan bytes(uint64_t zeros, uint64_t ones, uint64_t other = 0, uint64_t first_other = 0)
{
    Scan s;
    s.zeros = zeros;
    s.ones = ones;
    s.other = other;
    if (other) {
        s.first_other = first_other;
        s.first_other_value = 0x5a;
    }
    return s;
}

Outcome declared(uint8_t b) { return {b, false, false, "SCR DATA_STAT_AFTER_ERASE"}; }
} // namespace

TEST(EraseVerify, ScanCountsPatterns)
{
    const std::vector<uint8_t> b{0, 0, 0xff, 0x12, 0, 0x34};
    const auto s = scan(b, 1000);
    EXPECT_EQ(s.zeros, 3u);
    EXPECT_EQ(s.ones, 1u);
    EXPECT_EQ(s.other, 2u);
    EXPECT_EQ(s.first_other, std::optional<uint64_t>(1003));
    EXPECT_EQ(s.first_other_value, 0x12);
}

TEST(EraseVerify, DeclaredPatternPasses)
{
    const auto r = judge({{{0, MiB}, declared(0x00), "erased range"}}, {bytes(MiB, 0)}, VerifyMode::sampled);
    EXPECT_EQ(r.result, VerifyResult::pass);
    EXPECT_EQ(r.found, "0x00");
    EXPECT_EQ(r.expected, "0x00 (SCR DATA_STAT_AFTER_ERASE)");
    EXPECT_EQ(r.bytes_checked, MiB);
}

TEST(EraseVerify, TheOtherErasedPatternIsAWarningWithTheFacts)
{
    // The lab's emulated card: SCR says 0x00, the card reads 0xff.
    const auto r = judge({{{0, MiB}, declared(0x00), "erased range"}}, {bytes(0, MiB)}, VerifyMode::sampled);
    EXPECT_EQ(r.result, VerifyResult::warning);
    EXPECT_EQ(r.found, "0xff");
    ASSERT_EQ(r.details.size(), 1u);
    EXPECT_NE(r.details[0].find("read 0xff, where 0x00 was expected (SCR DATA_STAT_AFTER_ERASE)"),
              std::string::npos)
        << r.details[0];
}

TEST(EraseVerify, OtherDataFails)
{
    const auto r = judge({{{0, MiB}, declared(0xff), "erased range"}}, {bytes(0, MiB - 10, 10, 4096)}, VerifyMode::full);
    EXPECT_EQ(r.result, VerifyResult::fail);
    EXPECT_EQ(r.found, "0xff and other data");
    EXPECT_NE(r.details[0].find("first at offset 4096: 0x5a"), std::string::npos) << r.details[0];
}

TEST(EraseVerify, ZerooutAcceptsOnlyZeros)
{
    const Outcome z{0x00, true, false, "BLKZEROOUT writes zeros"};
    EXPECT_EQ(judge({{{0, 100}, z, "r"}}, {bytes(100, 0)}, VerifyMode::full).result, VerifyResult::pass);
    EXPECT_EQ(judge({{{0, 100}, z, "r"}}, {bytes(99, 1)}, VerifyMode::full).result, VerifyResult::fail);
}

TEST(EraseVerify, DiscardMayKeepOldData)
{
    const Outcome d{0x00, false, true, "DISCARD"};
    const auto r = judge({{{0, 100}, d, "r"}}, {bytes(50, 0, 50, 10)}, VerifyMode::full);
    EXPECT_EQ(r.result, VerifyResult::warning);
    EXPECT_NE(r.details[0].find("which a DISCARD allows"), std::string::npos);
    // Without a declared pattern either erased value passes.
    const Outcome either{std::nullopt, false, false, "BLKDISCARD"};
    EXPECT_EQ(judge({{{0, 100}, either, "r"}}, {bytes(40, 60)}, VerifyMode::full).result, VerifyResult::pass);
}

TEST(EraseVerify, WorstSegmentDecides)
{
    const Outcome z{0x00, true, false, "zeroed"};
    const auto r = judge({{{0, 10}, z, "head (zeroed)"}, {{10, 100}, declared(0x00), "erased range"}},
                         {bytes(10, 0), bytes(0, 100)}, VerifyMode::full);
    EXPECT_EQ(r.result, VerifyResult::warning);
    EXPECT_EQ(r.bytes_checked, 110u);
}

TEST(EraseVerify, SampledWindowsCoverEndsAndChunkEdges)
{
    const Extent seg{4 * MiB, 64 * MiB};
    std::vector<Extent> chunks;
    for (uint64_t o = seg.offset; o < seg.end(); o += 4 * MiB) chunks.push_back({o, 4 * MiB});
    const auto w = sample_windows(seg, chunks, VerifyMode::sampled);
    ASSERT_FALSE(w.empty());
    EXPECT_EQ(w.front().offset, seg.offset);
    EXPECT_EQ(w.back().end(), seg.end());
    uint64_t total = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        total += w[i].length;
        if (i) {
            EXPECT_GT(w[i].offset, w[i - 1].end()); // sorted, merged
        }
    }
    EXPECT_LT(total, seg.length / 4);
    // Every chunk's first and last byte is read.
    for (const auto& c : chunks) {
        auto covered = [&](uint64_t at) {
            for (const auto& e : w)
                if (at >= e.offset && at < e.end()) return true;
            return false;
        };
        EXPECT_TRUE(covered(c.offset));
        EXPECT_TRUE(covered(c.end() - 1));
    }
    EXPECT_EQ(sample_windows(seg, chunks, VerifyMode::full), std::vector<Extent>{seg});
    EXPECT_EQ(sample_windows({0, 1000}, {}, VerifyMode::sampled), std::vector<Extent>({{0, 1000}}));
}

TEST(EraseVerify, ReadsAFileBack)
{
    const auto path = std::filesystem::temp_directory_path() / ("erase_verify." + std::to_string(::getpid()));
    {
        std::vector<char> data(4 * MiB, 0);
        std::fill(data.begin() + 3 * MiB, data.end(), static_cast<char>(0xff));
        data[3 * MiB + 777] = 0x42;
        std::ofstream(path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
    }
    std::atomic<bool> stop{false};
    // 100 bytes in from an unaligned start: blocks are read whole, checked in part.
    auto r = verify(path, {{{100, 3 * MiB - 100}, declared(0x00), "erased range"}}, {}, VerifyMode::full, 512, stop);
    EXPECT_EQ(r.result, VerifyResult::pass) << (r.details.empty() ? "" : r.details[0]);
    EXPECT_EQ(r.bytes_checked, 3 * MiB - 100);
    r = verify(path, {{{0, 4 * MiB}, declared(0x00), "erased range"}}, {}, VerifyMode::full, 512, stop);
    EXPECT_EQ(r.result, VerifyResult::fail);
    EXPECT_NE(r.details.back().find("first at offset 3146505: 0x42"), std::string::npos) << r.details.back();
    stop = true;
    r = verify(path, {{{0, 4 * MiB}, declared(0x00), "erased range"}}, {}, VerifyMode::full, 512, stop);
    EXPECT_EQ(r.bytes_checked, 0u);
    EXPECT_EQ(r.result, VerifyResult::warning);
    std::filesystem::remove(path);
}
