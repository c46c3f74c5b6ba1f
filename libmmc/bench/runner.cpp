#include "bench/runner.h"

#include "bench/data.h"
#include "bench/stats.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace mmc::bench {

const char* to_string(StopReason r)
{
    switch (r) {
    case StopReason::none: return "";
    case StopReason::runtime: return "runtime";
    case StopReason::ios: return "ios";
    case StopReason::converged: return "converged";
    case StopReason::warmup: return "warmup";
    case StopReason::error: return "error";
    case StopReason::interrupted: return "interrupted";
    case StopReason::removed: return "removed";
    }
    return "?";
}

bool is_abnormal(StopReason r) { return r == StopReason::error || r == StopReason::interrupted || r == StopReason::removed; }

double round_seconds(double runtime_s) { return std::clamp(runtime_s / 10, 0.1, 2.0); }

namespace {

uint64_t ns(double s) { return static_cast<uint64_t>(s * 1e9); }

class Loop {
public:
    Loop(Engine& engine, const Job& job, const Region& region, const RunControl& control)
        : e_(engine), job_(job), region_(region), ctl_(control), clock_(*control.clock),
          rng_(control.seed ? control.seed : fresh_seed()), bs_(job.block_size), blocks_(region.length / job.block_size),
          depth_(engine.depth()), t0_(depth_), offset_(depth_), done_(depth_)
    {
        r_.job = job;
        r_.region = region;
        r_.runner = std::string(engine.name());
        r_.unit_bytes = job.rw.pattern == Pattern::sequential ? job.unit_bytes : 0;
        if (job.writes())
            for (unsigned s = 0; s < depth_; ++s) fill_random({engine.buffer(s), bs_}, rng_);
        for (unsigned s = depth_; s-- > 0;) free_.push_back(s);
    }

    JobResult run()
    {
        const uint64_t start = clock_.now_ns();
        next_tick_ = start + ns(ctl_.tick_s);
        if (job_.warmup_s > 0) {
            warming_ = true;
            phase_start_ = start;
            deadline_ = start + ns(job_.warmup_s);
            pump();
            r_.warmup_s = static_cast<double>(last_done_ - start) / 1e9;
            warming_ = false;
            if (r_.stop_reason == StopReason::warmup) r_.stop_reason = StopReason::none;
        }
        if (r_.stop_reason == StopReason::none) {
            phase_start_ = clock_.now_ns();
            measure_start_ = phase_start_;
            round_start_ = phase_start_;
            last_done_ = phase_start_;
            deadline_ = phase_start_ + ns(job_.runtime_s);
            round_ns_ = ns(round_seconds(job_.runtime_s));
            if (r_.unit_bytes && position_bytes() % r_.unit_bytes == 0) unit_start_ = phase_start_;
            pump();
        }
        finish();
        return std::move(r_);
    }

private:
    uint64_t position_bytes() const { return (seq_next_ % blocks_) * bs_; }

    uint64_t next_offset()
    {
        if (job_.rw.pattern == Pattern::random) return region_.offset + rng_.below(blocks_) * bs_;
        const uint64_t off = region_.offset + position_bytes();
        ++seq_next_;
        return off;
    }

    bool may_issue() const
    {
        if (stopping_) return false;
        if (!warming_ && job_.ios && issued_ >= job_.ios) return false;
        return true;
    }

    // The first reason wins, except that an abnormal end overrides a normal one.
    void stop(StopReason reason)
    {
        if (!stopping_ || (is_abnormal(reason) && !is_abnormal(r_.stop_reason))) r_.stop_reason = reason;
        stopping_ = true;
    }

    // Issue and reap until the phase ends and nothing is in flight.
    void pump()
    {
        stopping_ = false;
        for (;;) {
            while (!free_.empty() && may_issue()) {
                const uint32_t slot = free_.back();
                free_.pop_back();
                const uint64_t off = next_offset();
                if (job_.writes()) stamp_sectors({e_.buffer(slot), bs_}, ++sequence_, rng_);
                offset_[slot] = off;
                t0_[slot] = clock_.now_ns();
                e_.queue(IoRequest{off, bs_, slot, job_.writes()});
                ++inflight_;
                if (!warming_) ++issued_;
            }
            if (inflight_ == 0) {
                if (!stopping_ && !warming_ && job_.ios && issued_ >= job_.ios) stop(StopReason::ios);
                break;
            }
            const std::size_t n = e_.reap(done_, 1);
            const uint64_t t1 = clock_.now_ns();
            for (std::size_t i = 0; i < n; ++i) complete(done_[i], t1);
            after_reap(t1);
        }
    }

    void complete(const IoResult& io, uint64_t t1)
    {
        --inflight_;
        free_.push_back(io.slot);
        const uint64_t off = offset_[io.slot];
        if (io.result != static_cast<int64_t>(bs_)) {
            if (r_.error.empty()) {
                r_.error_errno = io.result < 0 ? static_cast<int>(-io.result) : 5;
                r_.error = io.result < 0 ? fmt::format("{} at offset {}: {}", job_.writes() ? "write" : "read", off,
                                                       std::strerror(static_cast<int>(-io.result)))
                                         : fmt::format("short {} at offset {}: {} of {} bytes",
                                                       job_.writes() ? "write" : "read", off, io.result, bs_);
            }
            stop(StopReason::error);
            return;
        }
        last_done_ = t1;
        if (warming_) {
            ++r_.warmup_ios;
            return;
        }
        const uint64_t lat = t1 - t0_[io.slot];
        r_.latency.record(lat);
        if (job_.trace && job_.writes()) r_.trace.push_back({off, bs_, t0_[io.slot], t1});
        ++r_.ios;
        r_.bytes += bs_;
        round_bytes_ += bs_;
        if (job_.writes() && lat > stall_threshold_ns) {
            ++r_.stalls_over_250ms;
            if (r_.stalls.size() < max_listed_stalls)
                r_.stalls.push_back({off, static_cast<double>(lat) / 1e6, static_cast<double>(t1 - measure_start_) / 1e9});
        }
        if (r_.unit_bytes && (off + bs_ - region_.offset) % r_.unit_bytes == 0) {
            if (unit_start_)
                r_.unit_mb_s.push_back(static_cast<double>(r_.unit_bytes) / (static_cast<double>(t1 - *unit_start_) / 1e9) / 1e6);
            unit_start_ = t1;
        }
    }

    void after_reap(uint64_t t1)
    {
        if (!warming_ && t1 - round_start_ >= round_ns_) {
            r_.round_mb_s.push_back(static_cast<double>(round_bytes_) / (static_cast<double>(t1 - round_start_) / 1e9) / 1e6);
            round_start_ = t1;
            round_bytes_ = 0;
            if (job_.ci_target_pct > 0 && !job_.ios && static_cast<int>(r_.round_mb_s.size()) >= min_rounds) {
                const auto ci = ci95(r_.round_mb_s);
                if (ci && ci->pct <= job_.ci_target_pct) {
                    r_.converged = true;
                    stop(StopReason::converged);
                }
            }
        }
        if (t1 >= deadline_) stop(warming_ ? StopReason::warmup : StopReason::runtime);
        if (t1 >= next_tick_) {
            next_tick_ = t1 + ns(ctl_.tick_s);
            if (ctl_.stop && ctl_.stop->load(std::memory_order_relaxed)) stop(StopReason::interrupted);
            if (ctl_.check)
                if (auto why = ctl_.check()) {
                    if (r_.error.empty()) r_.error = *why;
                    stop(StopReason::removed);
                }
            if (ctl_.on_progress) {
                Progress p;
                p.job = &job_;
                p.warming = warming_;
                p.elapsed_s = static_cast<double>(t1 - phase_start_) / 1e9;
                p.budget_s = warming_ ? job_.warmup_s : job_.runtime_s;
                p.ios = r_.ios;
                p.bytes = r_.bytes;
                ctl_.on_progress(p);
            }
        }
    }

    void finish()
    {
        r_.seconds = measure_start_ ? static_cast<double>(last_done_ - measure_start_) / 1e9 : 0;
        if (r_.seconds > 0) {
            r_.iops = static_cast<double>(r_.ios) / r_.seconds;
            r_.mb_s = static_cast<double>(r_.bytes) / r_.seconds / 1e6;
        }
        if (const auto ci = ci95(r_.round_mb_s)) r_.ci95_pct = ci->pct;
        r_.partial = is_abnormal(r_.stop_reason);
    }

    Engine& e_;
    const Job& job_;
    Region region_;
    const RunControl& ctl_;
    const Clock& clock_;
    Prng rng_;
    uint32_t bs_;
    uint64_t blocks_;
    unsigned depth_;
    std::vector<uint64_t> t0_, offset_;
    std::vector<IoResult> done_;
    std::vector<uint32_t> free_;
    JobResult r_;
    unsigned inflight_ = 0;
    uint64_t issued_ = 0, seq_next_ = 0, sequence_ = 0;
    bool warming_ = false, stopping_ = false;
    uint64_t phase_start_ = 0, measure_start_ = 0, deadline_ = 0, next_tick_ = 0, last_done_ = 0;
    uint64_t round_start_ = 0, round_ns_ = 0, round_bytes_ = 0;
    std::optional<uint64_t> unit_start_;
};

} // namespace

JobResult run_job(Engine& engine, const Job& job, const Region& region, const RunControl& control)
{
    MonotonicClock fallback;
    RunControl ctl = control;
    if (!ctl.clock) ctl.clock = &fallback;
    Loop loop(engine, job, region, ctl);
    return loop.run();
}

} // namespace mmc::bench
