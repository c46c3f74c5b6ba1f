#include "probe/capacity.h"
#include "probe/measure.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <random>
#include <stdexcept>
#include <unordered_set>
#include <vector>

namespace mmc::probe {

namespace {

constexpr uint64_t stamp_magic = 0x6d6d632d70726f62; // "mmc-prob"
constexpr uint64_t chunk_bytes_max = MiB;             // in-place rewrites: at most 1 MiB per request
constexpr uint64_t probe_bytes_per_round = 2 * MiB;   // copies of one search round, at most

uint64_t mix(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

// A block's stamp: its number, the salt, then words only that number and
// salt give, so a block read back names the block whose data it holds.
void fill_stamp(std::span<uint8_t> out, uint64_t block, uint64_t salt)
{
    uint64_t state = block ^ salt;
    const uint64_t head[2] = {block, salt ^ stamp_magic};
    std::memcpy(out.data(), head, sizeof head);
    for (std::size_t at = sizeof head; at + 8 <= out.size(); at += 8) {
        const uint64_t w = mix(state);
        std::memcpy(out.data() + at, &w, 8);
    }
}

// The block whose stamp `in` holds, or nothing (not one of this run's stamps).
std::optional<uint64_t> stamp_of(std::span<const uint8_t> in, uint64_t salt)
{
    uint64_t head[2];
    std::memcpy(head, in.data(), sizeof head);
    if (head[1] != (salt ^ stamp_magic)) return std::nullopt;
    uint64_t state = head[0] ^ salt;
    for (std::size_t at = sizeof head; at + 8 <= in.size(); at += 8) {
        uint64_t w;
        std::memcpy(&w, in.data() + at, 8);
        if (w != mix(state)) return std::nullopt;
    }
    return head[0];
}

uint64_t max_probes_per_round(uint32_t block_size) { return std::max<uint64_t>(1, probe_bytes_per_round / block_size); }

// Probes per search round over `gap` candidate blocks when each round also
// costs a flush of `flush` blocks rewritten in sequence and each probe costs
// `probe_cost` such blocks (its stamp, read-back and restore, scattered): the
// k that minimises rounds * (cost per round). No cache: 1, a binary search,
// the fewest writes.
uint64_t probes_per_round(uint64_t gap, uint64_t flush, long double probe_cost, uint64_t cap)
{
    if (flush == 0 || gap <= 1) return 1;
    uint64_t best_k = 1;
    long double best_cost = -1;
    for (unsigned rounds = 1; rounds <= 64; ++rounds) {
        auto k = static_cast<uint64_t>(std::ceil(std::pow(static_cast<long double>(gap + 1), 1.0L / rounds))) - 1;
        k = std::max<uint64_t>(k, 1);
        while (std::pow(static_cast<long double>(k + 1), rounds) < static_cast<long double>(gap + 1)) ++k;
        if (k > cap) continue;
        const long double cost = static_cast<long double>(rounds) * (k * probe_cost + flush);
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best_k = k;
        }
        if (k == 1) break;
    }
    return best_cost < 0 ? cap : best_k;
}

// The search's rounds and probes with a flush of `flush` blocks.
std::pair<uint64_t, uint64_t> search_bound(uint64_t gap, uint64_t flush, long double probe_cost, uint64_t cap)
{
    uint64_t rounds = 0, probes = 0;
    while (gap >= 1) {
        const uint64_t k = std::min(probes_per_round(gap, flush, probe_cost, cap), gap);
        ++rounds;
        probes += k;
        gap = gap / (k + 1); // the widest interval left between two probes
        if (rounds > 200) break;
    }
    return {rounds, probes};
}

// What one probe costs, in blocks rewritten in sequence, is measured (a
// scattered single-block write can cost a card a merge of its AU); until it
// is, and whatever is measured, it lies in [min_weight, max_weight] times
// the blocks the probe writes.
constexpr long double min_weight = 1, first_weight = 16, max_weight = 256;

struct Interrupted {};

class Session {
public:
    Session(BlockIo& io, const CapacityOptions& o, const CapacityPlan& plan)
        : io_(io), o_(o), plan_(plan), bs_(io.block_size()), n_(io.block_count()), buf_(bs_)
    {
        std::random_device rd;
        const uint64_t seed = o.seed ? o.seed : (uint64_t{rd()} << 32 | rd());
        rng_.seed(seed);
        salt_ = rng_() | 1;
        r_.announced_bytes = n_ * bs_;
    }

    CapacityResult run()
    {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            probe();
            restore();
        } catch (const Interrupted&) {
            r_.interrupted = true;
            r_.verdict.reset();
            restore();
        } catch (const std::exception& e) {
            std::string how = "nothing to restore";
            if (!o_.destructive && !backups_.empty()) {
                try {
                    restore();
                    how = fmt::format("the {} blocks it had overwritten were restored", backups_.size());
                } catch (const std::exception& e2) {
                    how = fmt::format("restoring the overwritten blocks failed too: {}", e2.what());
                }
            }
            throw std::runtime_error(fmt::format("{} ({})", e.what(), how));
        }
        r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r_;
    }

private:
    void check_stop() const
    {
        if (o_.stop && o_.stop->load()) throw Interrupted{};
    }

    void read(uint64_t block, std::span<uint8_t> out)
    {
        check_stop();
        io_.read(block, out);
        r_.blocks_read += out.size() / bs_;
    }

    void write(uint64_t block, std::span<const uint8_t> data)
    {
        io_.write(block, data);
        r_.blocks_written += data.size() / bs_;
    }

    void report(CapacityPhase phase, uint64_t done, uint64_t total)
    {
        if (o_.progress) o_.progress({phase, done, total, r_.blocks_written});
    }

    // Writes this run's stamp over `block`, copying what it held first.
    void stamp(uint64_t block)
    {
        check_stop();
        if (!o_.destructive && copied_.insert(block).second) {
            std::vector<uint8_t> copy(bs_);
            read(block, copy);
            backups_.emplace_back(block, std::move(copy));
            r_.blocks_backed_up = backups_.size();
        }
        fill_stamp(buf_, block, salt_);
        write(block, buf_);
    }

    bool holds_own_stamp(uint64_t block)
    {
        read(block, buf_);
        const auto s = stamp_of(buf_, salt_);
        return s && *s == block;
    }

    // Rewrites [first, first + count) in place, highest chunk first: every
    // write lands in a fake's limbo cache (evicting what was there) while
    // storage keeps its bytes, so nothing needs a copy. A block reading as
    // one of this run's stamps is a cache slot or an alias of a stamped
    // block: writing the stamp back would keep it alive, so it is zeroed
    // (an alias's original is among the copies).
    void rewrite(uint64_t first, uint64_t count)
    {
        std::vector<uint8_t> chunk;
        uint64_t end = first + count;
        while (end > first) {
            check_stop();
            const uint64_t n = std::min(std::max<uint64_t>(1, chunk_bytes_max / bs_), end - first);
            const uint64_t at = end - n;
            chunk.resize(n * bs_);
            read(at, chunk);
            for (uint64_t i = 0; i < n; ++i) {
                const std::span<uint8_t> block(chunk.data() + i * bs_, bs_);
                if (stamp_of(block, salt_)) std::fill(block.begin(), block.end(), uint8_t{0});
            }
            write(at, chunk);
            end = at;
        }
    }

    void flush()
    {
        if (cache_blocks_) rewrite(n_ - 1 - cache_blocks_, cache_blocks_);
    }

    static double now()
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }

    void restore()
    {
        if (o_.destructive) return;
        const uint64_t total = backups_.size();
        uint64_t done = 0;
        // Newest first: where two stamped blocks share storage, the older
        // copy (taken before either was written) is the one left standing.
        for (auto it = backups_.rbegin(); it != backups_.rend(); ++it) {
            write(it->first, it->second);
            if (++done % 64 == 0 || done == total) report(CapacityPhase::restore, done, total);
        }
        backups_.clear();
        copied_.clear();
        r_.restored = true;
    }

    void probe()
    {
        const uint64_t top = n_ - 1;
        const uint64_t anchor = plan_.anchor;
        // The anchor is stamped first, so that the cache check below, which
        // goes on until the cache has let go of a later stamp, flushes it too.
        stamp(anchor);
        // 1. The cache: is the last block limbo, and how many limbo writes
        //    does it take to lose its stamp?
        stamp(top);
        bool top_bad = !holds_own_stamp(top);
        uint64_t rewritten = 0;
        const uint64_t bound = plan_.cache_check_blocks;
        // Between a check's reads of the last block, at least the read
        // cache's worth of other blocks is rewritten: the cache lets go of it.
        const uint64_t read_cache = (o_.read_cache_bytes + bs_ - 1) / bs_;
        r_.read_cache_bytes = o_.read_cache_bytes;
        if (read_cache > bound) r_.confidence = Confidence::low;
        uint64_t next_check = std::min<uint64_t>(std::max<uint64_t>(64, read_cache), bound);
        report(CapacityPhase::cache, 0, bound);
        const double run_start = now();
        while (!top_bad && rewritten < bound) {
            const uint64_t n = next_check - rewritten;
            rewrite(top - rewritten - n, n);
            rewritten += n;
            report(CapacityPhase::cache, rewritten, bound);
            top_bad = !holds_own_stamp(top);
            next_check = std::min(bound, rewritten + std::max({uint64_t{64}, rewritten / 16, read_cache}));
        }
        cache_blocks_ = top_bad ? std::min(bound, std::max(rewritten, read_cache)) : 0;
        // Seconds per block rewritten in sequence: the unit of the search's costs.
        const double per_block = rewritten ? std::max(1e-9, (now() - run_start) / rewritten) : 1e-9;

        // 2. The wrap, from the anchor, which must have kept its stamp.
        report(CapacityPhase::wrap, 0, 1);
        if (!holds_own_stamp(anchor)) {
            r_.verdict = Verdict::bad;
            r_.usable_bytes = 0;
            if (top_bad) r_.cache_bytes = cache_blocks_ * bs_;
            return;
        }
        std::vector<uint64_t> distances;
        for (uint64_t d = std::bit_ceil(anchor + 1); d < n_ - anchor; d <<= 1) distances.push_back(d);
        std::vector<uint64_t> order = distances;
        std::shuffle(order.begin(), order.end(), rng_);
        std::optional<uint64_t> module;
        for (uint64_t d : order) {
            read(anchor + d, buf_);
            const auto s = stamp_of(buf_, salt_);
            if (s && *s == anchor && (!module || d < *module)) module = d;
        }
        report(CapacityPhase::wrap, 1, 1);

        // 3. The search for the first bad block U.
        uint64_t lo = anchor; // holds its stamp
        const uint64_t hi = module ? *module : (top_bad ? top : n_);
        if (!module && !top_bad) {
            r_.verdict = Verdict::good;
            r_.usable_bytes = n_ * bs_;
            return;
        }
        // Probes stay below the storage the flush rewrites.
        uint64_t limit = hi;
        if (cache_blocks_) {
            const uint64_t zone = n_ - 1 - cache_blocks_;
            limit = std::min(limit, module ? zone % *module : zone);
            limit = std::max(limit, lo + 1);
        }
        uint64_t first_bad = limit;
        bool found_bad = false;
        const uint64_t per_probe = o_.destructive ? 1 : 2;
        const uint64_t cap = max_probes_per_round(bs_);
        long double weight = first_weight;
        uint64_t total_rounds = search_bound(limit - lo - 1, cache_blocks_, weight * per_probe, cap).first;
        uint64_t round = 0;
        while (first_bad - lo > 1) {
            report(CapacityPhase::search, round, std::max(total_rounds, round + 1));
            const double round_start = now();
            const uint64_t span = first_bad - lo;
            const uint64_t k = std::min(probes_per_round(span - 1, cache_blocks_, weight * per_probe, cap), span - 1);
            std::vector<uint64_t> probes;
            for (uint64_t i = 1; i <= k; ++i) {
                // i * span / (k + 1), exactly and without overflow
                const uint64_t p = lo + i * (span / (k + 1)) + i * (span % (k + 1)) / (k + 1);
                if (p > lo && p < first_bad && (probes.empty() || probes.back() != p)) probes.push_back(p);
            }
            for (uint64_t p : probes) stamp(p);
            flush();
            std::vector<uint64_t> shuffled = probes;
            std::shuffle(shuffled.begin(), shuffled.end(), rng_);
            std::unordered_set<uint64_t> bad;
            for (uint64_t p : shuffled)
                if (!holds_own_stamp(p)) bad.insert(p);
            uint64_t new_lo = lo;
            for (uint64_t p : probes) {
                if (bad.count(p)) {
                    first_bad = p;
                    found_bad = true;
                    break;
                }
                new_lo = p;
            }
            lo = new_lo;
            ++round;
            if (cache_blocks_) {
                // The round's time beyond its flush, per probe, in flushed blocks
                // (a restore costs about what the stamp did).
                const double probes_s = std::max(0.0, now() - round_start - cache_blocks_ * per_block);
                const long double w = probes_s / probes.size() / per_block / per_probe;
                weight = std::clamp<long double>(w, min_weight, max_weight);
                total_rounds = round + search_bound(first_bad - lo - 1, cache_blocks_, weight * per_probe, cap).first;
            }
        }
        report(CapacityPhase::search, round, round);
        uint64_t usable = first_bad;
        if (!found_bad && limit < hi) r_.usable_is_lower_bound = true;
        if (!found_bad && limit == hi) usable = hi;
        r_.usable_bytes = usable * bs_;
        if (module) {
            r_.module_bytes = *module * bs_;
            r_.verdict = usable == *module ? Verdict::wraparound : Verdict::chain;
        } else {
            r_.verdict = Verdict::limbo;
        }
        // The cache seen at the last block is a limbo cache only when the
        // last block is limbo (with a module: when it maps into limbo).
        const uint64_t top_at = module ? top % *module : top;
        if (top_at >= usable) r_.cache_bytes = cache_blocks_ * bs_;
    }

    BlockIo& io_;
    const CapacityOptions& o_;
    const CapacityPlan plan_;
    const uint32_t bs_;
    const uint64_t n_;
    std::vector<uint8_t> buf_;
    std::mt19937_64 rng_;
    uint64_t salt_ = 0;
    uint64_t cache_blocks_ = 0;
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> backups_; // in order of first write
    std::unordered_set<uint64_t> copied_;
    CapacityResult r_;
};

} // namespace

CapacityPlan plan_capacity(uint64_t block_count, uint32_t block_size, const CapacityOptions& o)
{
    if (block_size < 512 || !std::has_single_bit(block_size))
        throw std::invalid_argument(fmt::format("block size {} is not a power of two of at least 512", block_size));
    if (block_count * block_size < 4 * MiB)
        throw std::invalid_argument(fmt::format("{} bytes is too small to probe (at least 4 MiB)", block_count * block_size));
    CapacityPlan p;
    p.block_size = block_size;
    p.block_count = block_count;
    p.anchor = MiB / block_size;
    p.cache_check_blocks = std::max<uint64_t>(1, std::min(o.max_cache_bytes / block_size, block_count / 16));
    const uint64_t per_probe = o.destructive ? 1 : 2;
    const uint64_t cap = max_probes_per_round(block_size);
    const uint64_t gap = block_count - p.anchor;
    const uint64_t fixed = 2 * per_probe; // the last block and the anchor
    // The worst case over every probe cost the search may measure.
    uint64_t most_written = 0, most_probes = 0;
    for (long double w = min_weight; w <= max_weight; w *= 1.125L) {
        const auto [rounds, probes] = search_bound(gap, p.cache_check_blocks, w * per_probe, cap);
        most_written = std::max(most_written, p.cache_check_blocks * (1 + rounds) + probes * per_probe);
        most_probes = std::max(most_probes, probes);
    }
    p.max_blocks_written = fixed + most_written;
    p.typical_blocks_written = fixed + search_bound(gap, 0, per_probe, cap).second * per_probe;
    p.max_backup_blocks = o.destructive ? 0 : 2 + most_probes;
    return p;
}

CapacityResult probe_capacity(BlockIo& io, const CapacityOptions& o)
{
    const CapacityPlan plan = plan_capacity(io.block_count(), io.block_size(), o);
    return Session(io, o, plan).run();
}

} // namespace mmc::probe
