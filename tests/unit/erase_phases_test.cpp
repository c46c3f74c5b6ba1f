// erase::execute's phases on a fake device: a temporary file stands in for
// the card, a fake executor "erases" a chunk by writing the pattern the
// method promises, and verification reads the file back with the real
// reader. So an interruption, a failing chunk and a chunk the card did not
// erase each show up in the report exactly as on a card.
#include "erase/phases.h"
#include "views/erase_view.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fcntl.h>
#include <set>
#include <unistd.h>

using namespace mmc::erase;

namespace {

constexpr uint64_t KiB = 1024;
constexpr uint64_t unit = 64 * KiB;

// A file full of 0x5a "old data", the fake executor and the fake edges.
class FakeDevice final : public EraseDevice, public Executor {
public:
    explicit FakeDevice(uint64_t bytes)
    {
        char name[] = "/tmp/erase_phases_XXXXXX";
        fd_ = ::mkstemp(name);
        path = name;
        const std::vector<uint8_t> old(bytes, 0x5a);
        EXPECT_EQ(::pwrite(fd_, old.data(), old.size(), 0), static_cast<ssize_t>(old.size()));
    }
    ~FakeDevice() override
    {
        ::close(fd_);
        ::unlink(path.c_str());
    }

    // Executor
    void erase(const Extent& e) override
    {
        const std::size_t index = erased.size() + failed.size();
        erased.push_back(e);
        if (stop_after && erased.size() == *stop_after) stop->store(true);
        if (fail_at && index == *fail_at) {
            erased.pop_back();
            failed.push_back(e);
            throw ExecError("CMD38 failed: card status 0x80");
        }
        if (!skip.count(index)) fill(e, 0x00);
    }
    void finish() override { ++finished; }
    std::string describe() const override { return "fake"; }

    // EraseDevice
    Executor& executor() override { return *this; }
    void flush_cache(std::vector<std::string>&) override { ++flushes; }
    void zero(const Extent& e, uint64_t) override
    {
        zeroed.push_back(e);
        fill(e, 0x00);
    }
    VerifyReport verify(const std::vector<Segment>& segments, const std::vector<Extent>& chunks, VerifyMode mode,
                        uint64_t logical_block, const std::atomic<bool>& s) override
    {
        verified_segments = segments;
        return mmc::erase::verify(path, segments, chunks, mode, logical_block, s);
    }

    std::string path;
    std::vector<Extent> erased, failed, zeroed;
    std::vector<Segment> verified_segments;
    std::set<std::size_t> skip;           // chunks "erased" without effect
    std::optional<std::size_t> fail_at;   // the chunk that throws
    std::optional<std::size_t> stop_after; // set *stop once this many chunks are done
    std::atomic<bool>* stop = nullptr;
    int finished = 0, flushes = 0;

private:
    void fill(const Extent& e, uint8_t value)
    {
        const std::vector<uint8_t> bytes(e.length, value);
        ASSERT_EQ(::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(e.offset)),
                  static_cast<ssize_t>(bytes.size()));
    }
    int fd_ = -1;
};

// 1 MiB device; a range with unaligned edges; 4 units per chunk.
Prepared prepared(const FakeDevice& d, Range range, bool zero_unaligned, VerifyMode verify = VerifyMode::full,
                  Method method = Method::discard)
{
    Prepared p;
    p.target.path = d.path;
    p.target.size = 1024 * KiB;
    p.target.caps.logical_block = 512;
    p.selection.method = method;
    p.plan = make_plan({p.target.size, 0, range, unit, 512, 4 * unit, zero_unaligned});
    p.outcome = Outcome{0x00, false, false, "test pattern"};
    p.options.verify = verify;
    p.warnings = {"prepared warning"};
    return p;
}

// Ticks one second per reading.
Seconds counter()
{
    return [n = 0.0]() mutable { return n += 1; };
}

const Range edges_range{10 * KiB, 900 * KiB}; // head 54 KiB, 13 units, tail 14 KiB

} // namespace

TEST(ErasePhases, CleanRunErasesEveryChunkThenEdgesThenVerifies)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    const auto p = prepared(d, edges_range, true);
    ASSERT_EQ(p.plan.chunks.size(), 4u); // 4 + 4 + 4 + 1 units
    std::vector<Progress> seen;
    const auto r = run_phases(p, d, [&](const Progress& pr) { seen.push_back(pr); }, stop, counter());

    EXPECT_EQ(d.erased, p.plan.chunks);
    EXPECT_EQ(d.finished, 1);
    EXPECT_EQ(d.flushes, 0); // a block-layer method: no raw commands, no flush
    ASSERT_EQ(d.zeroed.size(), 2u);
    EXPECT_EQ(d.zeroed[0], p.plan.head.extent);
    EXPECT_EQ(d.zeroed[1], p.plan.tail.extent);
    EXPECT_FALSE(r.interrupted);
    EXPECT_EQ(r.error, "");
    // The erased extent is exactly the request: the head extends it down.
    EXPECT_EQ(r.erased, p.plan.range);
    ASSERT_EQ(r.chunks.size(), 6u);
    EXPECT_EQ(r.chunks.front().kind, ChunkKind::chunk);
    EXPECT_EQ(r.chunks[4].kind, ChunkKind::head);
    EXPECT_EQ(r.chunks[5].kind, ChunkKind::tail);
    // The views name the zeroed edges by their kind: Head:/Tail: in the
    // text, "what" in the JSON (an aligned chunk has none).
    const std::string text = mmc::out::erase_report_text(r);
    EXPECT_NE(text.find("\nHead:       zeroed, "), std::string::npos) << text;
    EXPECT_NE(text.find("\nTail:       zeroed, "), std::string::npos) << text;
    EXPECT_NE(text.find("\nChunks:     4 of 4 in "), std::string::npos) << text;
    const auto doc = mmc::out::erase_json(p, &r);
    EXPECT_FALSE(doc["chunks"][0].contains("what"));
    EXPECT_EQ(doc["chunks"][4]["what"], "head");
    EXPECT_EQ(doc["chunks"][5]["what"], "tail");
    EXPECT_DOUBLE_EQ(r.chunks[0].seconds, 1.0); // two readings of the counter per chunk
    ASSERT_EQ(seen.size(), 6u);
    EXPECT_EQ(seen.back().done_bytes, r.erased.length);
    EXPECT_EQ(seen.back().total_bytes, r.erased.length);
    EXPECT_EQ(seen.back().chunks_done, 4u);
    EXPECT_EQ(seen.back().chunks_total, 4u);
    // Verification was handed head, range, tail, and found them clean.
    ASSERT_EQ(d.verified_segments.size(), 3u);
    EXPECT_EQ(d.verified_segments[0].what, "head (zeroed)");
    EXPECT_EQ(d.verified_segments[1].extent, p.plan.aligned);
    EXPECT_EQ(d.verified_segments[2].what, "tail (zeroed)");
    ASSERT_TRUE(r.verify);
    EXPECT_EQ(r.verify->result, VerifyResult::pass);
    EXPECT_EQ(r.verify->bytes_checked, r.erased.length);
    EXPECT_EQ(r.warnings, std::vector<std::string>{"prepared warning"});
}

TEST(ErasePhases, StopBetweenChunksEndsInterruptedWithNoLaterChunkEdgeOrVerify)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    d.stop = &stop;
    d.stop_after = 2;
    const auto p = prepared(d, edges_range, true);
    const auto r = run_phases(p, d, nullptr, stop, counter());
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(d.erased.size(), 2u);
    EXPECT_EQ(d.finished, 0);     // sanitize's finish() is not sent after a stop
    EXPECT_TRUE(d.zeroed.empty()); // nor are the edges zeroed
    EXPECT_FALSE(r.verify);
    // What was destroyed is contiguous and said exactly.
    EXPECT_EQ(r.erased, (Extent{p.plan.aligned.offset, 8 * unit}));
}

TEST(ErasePhases, FailingChunkStopsTheRunAndSaysHowFarItGot)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    d.fail_at = 1;
    const auto p = prepared(d, edges_range, true);
    const auto r = run_phases(p, d, nullptr, stop, counter());
    EXPECT_EQ(r.error, "CMD38 failed: card status 0x80");
    EXPECT_FALSE(r.interrupted);
    EXPECT_EQ(d.erased.size(), 1u);
    EXPECT_EQ(d.failed.size(), 1u);
    EXPECT_EQ(d.finished, 0);
    EXPECT_TRUE(d.zeroed.empty());
    EXPECT_FALSE(r.verify);
    EXPECT_EQ(r.erased, p.plan.chunks[0]);
}

TEST(ErasePhases, VerifyFailureNamesTheSegmentAndTheFirstBadOffset)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    d.skip = {2}; // the card acknowledged chunk 2 but left its data
    const auto p = prepared(d, edges_range, false);
    const auto r = run_phases(p, d, nullptr, stop, counter());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.erased, p.plan.aligned);
    ASSERT_TRUE(r.verify);
    EXPECT_EQ(r.verify->result, VerifyResult::fail);
    ASSERT_FALSE(r.verify->details.empty()); // then, on tmpfs, a note that O_DIRECT was refused
    const std::string& detail = r.verify->details[0];
    EXPECT_NE(detail.find("erased range"), std::string::npos) << detail;
    EXPECT_NE(detail.find(std::to_string(4 * unit) + " of " + std::to_string(p.plan.aligned.length) + " bytes"),
              std::string::npos)
        << detail;
    EXPECT_NE(detail.find("first at offset " + std::to_string(p.plan.chunks[2].offset)), std::string::npos) << detail;
    // A failure is the verdict, not a warning folded into the report's warnings.
    EXPECT_EQ(r.warnings, std::vector<std::string>{"prepared warning"});
}

TEST(ErasePhases, EdgesLeftAloneAreNotTouchedNorVerified)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    const auto p = prepared(d, edges_range, false);
    const auto r = run_phases(p, d, nullptr, stop, counter());
    EXPECT_TRUE(d.zeroed.empty());
    EXPECT_EQ(r.erased, p.plan.aligned);
    ASSERT_EQ(d.verified_segments.size(), 1u);
    EXPECT_EQ(d.verified_segments[0].what, "erased range");
    EXPECT_EQ(r.verify->result, VerifyResult::pass);
}

TEST(ErasePhases, RawMethodsFlushTheCacheBeforeAndAfterTheChunks)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    const auto p = prepared(d, {0, 256 * KiB}, false, VerifyMode::none, Method::erase);
    const auto r = run_phases(p, d, nullptr, stop, counter());
    EXPECT_EQ(d.flushes, 2);
    EXPECT_FALSE(r.verify);
    EXPECT_EQ(r.erased, (Extent{0, 256 * KiB}));
}

TEST(ErasePhases, NothingAlignedLeavesTheErasedExtentAtTheRequest)
{
    FakeDevice d(1024 * KiB);
    std::atomic<bool> stop{false};
    const auto p = prepared(d, {10 * KiB, 20 * KiB}, true, VerifyMode::none);
    ASSERT_TRUE(p.plan.aligned.empty());
    const auto r = run_phases(p, d, nullptr, stop, counter());
    EXPECT_TRUE(d.erased.empty());
    EXPECT_EQ(r.erased, (Extent{10 * KiB, 20 * KiB}));
    EXPECT_EQ(bytes_to_erase(p.plan), 20 * KiB);
}

TEST(ErasePhases, VerifySegmentsAreHeadRangeTail)
{
    Plan plan = make_plan({1024 * KiB, 0, edges_range, unit, 512, 0, true});
    const auto s = verify_segments(plan, Outcome{0xff, false, false, "SCR"});
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].extent, plan.head.extent);
    EXPECT_TRUE(s[0].expect.zero_only);
    EXPECT_EQ(s[1].expect.declared, 0xff);
    EXPECT_EQ(s[2].extent, plan.tail.extent);
}
