#include "probe/verify.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <random>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace mmc::probe {

namespace {

constexpr uint64_t pattern_magic = 0x796669726576636dull; // "mcverify" in little-endian bytes
constexpr std::size_t sector_words = verify_sector_bytes / 8;

uint64_t pattern_mix(uint64_t x)
{
    // splitmix64's finaliser: every input bit moves every output bit.
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t word_at(std::span<const uint8_t> sector, std::size_t i)
{
    uint64_t w;
    std::memcpy(&w, sector.data() + i * 8, 8);
    return w;
}

struct VerifyFaults {
    VerifyResult& r;
    uint64_t bad_bytes = 0;
    bool last_bad = false;

    void record(uint64_t offset, uint64_t bytes, FaultKind kind, uint64_t holds)
    {
        if (!r.first_bad_offset) {
            r.first_bad_offset = offset;
            r.first_bad_kind = kind;
            if (kind == FaultKind::aliasing) r.first_bad_holds = holds;
        }
        switch (kind) {
        case FaultKind::aliasing: r.aliased_bytes += bytes; break;
        case FaultKind::lost: r.lost_bytes += bytes; break;
        case FaultKind::corrupt: r.corrupt_bytes += bytes; break;
        case FaultKind::read_error: r.read_error_bytes += bytes; break;
        }
        bad_bytes += bytes;
        if (offset + bytes == r.size) last_bad = true;
    }
};

void check_range(uint64_t pass, uint64_t offset, std::span<const uint8_t> data, VerifyFaults& faults)
{
    for (std::size_t i = 0; i < data.size(); i += verify_sector_bytes) {
        uint64_t holds = 0;
        if (const auto kind = check_sector(pass, offset + i, data.subspan(i, verify_sector_bytes), &holds))
            faults.record(offset + i, verify_sector_bytes, *kind, holds);
    }
}

bool stopped(const VerifyOptions& o) { return o.stop && o.stop->load(); }

VerifyVerdict verdict_of(const VerifyResult& r, const VerifyFaults& f)
{
    if (!r.first_bad_offset) return VerifyVerdict::ok;
    const uint64_t from_first = r.size - *r.first_bad_offset;
    if (r.aliased_bytes || (f.last_bad && f.bad_bytes * 10 >= from_first * 9)) return VerifyVerdict::fake;
    if (r.lost_bytes) return VerifyVerdict::lost_writes;
    if (r.corrupt_bytes) return VerifyVerdict::corrupt;
    return VerifyVerdict::read_errors;
}

} // namespace

const char* to_string(FaultKind k)
{
    switch (k) {
    case FaultKind::aliasing: return "aliasing";
    case FaultKind::lost: return "lost";
    case FaultKind::corrupt: return "corrupt";
    case FaultKind::read_error: return "read_error";
    }
    return "?";
}

const char* to_string(VerifyVerdict v)
{
    switch (v) {
    case VerifyVerdict::ok: return "ok";
    case VerifyVerdict::fake: return "fake";
    case VerifyVerdict::lost_writes: return "lost_writes";
    case VerifyVerdict::corrupt: return "corrupt";
    case VerifyVerdict::read_errors: return "read_errors";
    }
    return "?";
}

void verify_pattern(uint64_t pass, uint64_t offset, std::span<uint8_t> sector)
{
    uint64_t w[sector_words];
    w[0] = pattern_magic;
    w[1] = offset;
    w[2] = pass;
    const uint64_t seed = pattern_mix(offset ^ pattern_mix(pass));
    for (std::size_t i = 3; i < sector_words; ++i) w[i] = pattern_mix(seed + i);
    std::memcpy(sector.data(), w, verify_sector_bytes);
}

std::optional<FaultKind> check_sector(uint64_t pass, uint64_t offset, std::span<const uint8_t> sector, uint64_t* holds)
{
    uint8_t expected[verify_sector_bytes];
    verify_pattern(pass, offset, expected);
    if (std::memcmp(expected, sector.data(), verify_sector_bytes) == 0) return std::nullopt;
    const uint64_t named = word_at(sector, 1);
    if (word_at(sector, 0) == pattern_magic && word_at(sector, 2) == pass && named != offset && named % verify_sector_bytes == 0) {
        uint8_t theirs[verify_sector_bytes];
        verify_pattern(pass, named, theirs);
        if (std::memcmp(theirs, sector.data(), verify_sector_bytes) == 0) {
            if (holds) *holds = named;
            return FaultKind::aliasing;
        }
    }
    std::size_t same = 0;
    for (std::size_t i = 0; i < sector_words; ++i) same += word_at(sector, i) == word_at(expected, i);
    return same * 2 > sector_words ? FaultKind::corrupt : FaultKind::lost;
}

VerifyResult run_verify(VerifyTarget& target, const VerifyOptions& o)
{
    const auto started = std::chrono::steady_clock::now();
    const uint32_t unit = std::max<uint32_t>(target.io_unit(), verify_sector_bytes);
    if (o.request_bytes == 0 || o.request_bytes % unit || o.stripe_bytes % o.request_bytes)
        throw std::invalid_argument("verify: the request is a whole number of io units and the stripe of requests");
    VerifyResult r;
    r.size = target.size() / unit * unit;
    VerifyFaults faults{r};
    std::vector<uint8_t> buf(o.request_bytes);
    auto since = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    auto done = [&] {
        r.seconds = since(started);
        if (r.bytes_verified || r.bytes_written == r.size) r.read_seconds = r.seconds - r.write_seconds;
        else r.write_seconds = r.seconds;
        return r;
    };

    const uint64_t stripes = (r.size + o.stripe_bytes - 1) / o.stripe_bytes;
    bool full = false;
    for (uint64_t k = 0; k < stripes && !full; ++k) {
        const uint64_t s = o.descending ? stripes - 1 - k : k;
        const uint64_t end = std::min(r.size, (s + 1) * o.stripe_bytes);
        for (uint64_t at = s * o.stripe_bytes; at < end; at += o.request_bytes) {
            if (stopped(o)) {
                r.interrupted = true;
                return done();
            }
            const auto data = std::span(buf).first(std::min(o.request_bytes, end - at));
            for (std::size_t i = 0; i < data.size(); i += verify_sector_bytes)
                verify_pattern(o.pass, at + i, data.subspan(i, verify_sector_bytes));
            if (!target.write(at, data)) {
                if (o.descending)
                    throw std::runtime_error(fmt::format("write at {}: no space left on the target", at));
                r.size = at; // the free space ended here: the fill is what was written
                full = true;
                break;
            }
            r.bytes_written += data.size();
            if (o.progress) o.progress({VerifyPhase::write, r.bytes_written, r.size});
        }
    }
    target.flush();
    r.write_seconds = since(started);

    for (uint64_t at = 0; at < r.size; at += o.request_bytes) {
        if (stopped(o)) {
            r.interrupted = true;
            return done();
        }
        const auto data = std::span(buf).first(std::min(o.request_bytes, r.size - at));
        if (target.read(at, data)) {
            check_range(o.pass, at, data, faults);
        } else { // find the units that cannot be read
            for (uint64_t u = 0; u < data.size(); u += unit) {
                const auto part = data.subspan(u, unit);
                if (target.read(at + u, part)) check_range(o.pass, at + u, part, faults);
                else faults.record(at + u, unit, FaultKind::read_error, 0);
            }
        }
        r.bytes_verified += data.size();
        if (o.progress) o.progress({VerifyPhase::read, r.bytes_verified, r.size});
    }
    r.verdict = verdict_of(r, faults);
    r.real_capacity = r.verdict == VerifyVerdict::fake ? *r.first_bad_offset : r.size;
    return done();
}

uint64_t random_pass()
{
    std::random_device rd;
    return (uint64_t{rd()} << 32) ^ rd() ^ static_cast<uint64_t>(::getpid());
}

} // namespace mmc::probe
