// The trial engine. Order of a trial: mark the log and take err_stats; set
// caps (with AGGRESSIVE_PM, which the runtime-PM power cycle needs) and
// caps2; re-initialise the card; write the clock where the step asks for
// one; confirm the mode and clock from ios; read the regions twice and
// compare them with what they held before any change (a scratch region:
// written, read back, put back); then the err_stats deltas and the log
// lines. The first failure rejects the step with its reason.
#include "tune/bus_trial.h"

#include "bus/kernel_log.h"
#include "bus/mode_caps.h"
#include "cli/size.h"
#include "tune/bus_state.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using bus::Mode;

struct Stopped {}; // a stop signal, thrown between operations

struct Reference {
    std::vector<Region> regions;
    std::vector<std::vector<uint8_t>> data;  // what each region held before any change
    std::vector<uint8_t> scratch_data;        // the scratch region's own data, to put back
};

std::vector<Region> spread_regions(uint64_t card, const TrialOptions& o)
{
    std::vector<Region> out;
    constexpr uint64_t align = 1 << 20;
    const uint64_t size = std::min<uint64_t>(o.region_bytes, card / std::max(1, o.regions) / align * align);
    if (size == 0 || o.regions <= 0) return out;
    for (int i = 0; i < o.regions; ++i) {
        const uint64_t span = card - size;
        const uint64_t at = o.regions == 1 ? 0 : span / static_cast<uint64_t>(o.regions - 1) * static_cast<uint64_t>(i) / align * align;
        out.push_back({at, size});
    }
    return out;
}

class Engine {
public:
    Engine(BusHost& h, const TrialOptions& o) : host_(h), o_(o) {}

    void check_stop() const
    {
        if (o_.stop && o_.stop->load()) throw Stopped{};
    }
    void say(const std::string& s) const
    {
        if (o_.progress) o_.progress(s);
    }

    // One read pass over the regions: MB/s, and whether each region held
    // what it held before.
    std::pair<double, bool> read_pass(const Reference& ref, double deadline)
    {
        bool same = true;
        uint64_t bytes = 0;
        const double t0 = host_.now();
        std::vector<uint8_t> buf;
        for (std::size_t i = 0; i < ref.regions.size(); ++i) {
            check_stop();
            if (host_.now() > deadline) throw HostError("did not finish within its time bound");
            buf.resize(ref.regions[i].size);
            host_.read(ref.regions[i].offset, buf);
            bytes += buf.size();
            if (buf != ref.data[i]) same = false;
        }
        const double dt = host_.now() - t0;
        return {dt > 0 ? static_cast<double>(bytes) / dt / 1e6 : 0.0, same};
    }

    Reference reference()
    {
        Reference ref;
        ref.regions = spread_regions(host_.card_bytes(), o_);
        for (const auto& r : ref.regions) {
            check_stop();
            std::vector<uint8_t> b(r.size);
            host_.read(r.offset, b);
            ref.data.push_back(std::move(b));
        }
        if (o_.scratch) {
            ref.scratch_data.resize(o_.scratch->size);
            host_.read(o_.scratch->offset, ref.scratch_data);
        }
        return ref;
    }

    // Write a pattern to the scratch region, read it back, put its data
    // back and read that back too. False on a mismatch.
    bool scratch_pass(const Reference& ref, std::size_t step)
    {
        std::vector<uint8_t> pattern(o_.scratch->size);
        for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>((i * 131 + step * 17 + (i >> 9)) & 0xff);
        std::vector<uint8_t> back(pattern.size());
        host_.write(o_.scratch->offset, pattern);
        host_.read(o_.scratch->offset, back);
        const bool ok = back == pattern;
        host_.write(o_.scratch->offset, ref.scratch_data);
        host_.read(o_.scratch->offset, back);
        if (back != ref.scratch_data) throw HostError("the scratch region's data could not be put back");
        return ok;
    }

    Trial trial(const BusStep& step, std::size_t index, const Reference& ref, const HostSnapshot& start)
    {
        Trial t;
        t.mode = step.mode;
        t.clock_asked = step.clock_hz;
        const double t0 = host_.now();
        const double deadline = t0 + o_.trial_seconds;
        try {
            check_stop();
            host_.mark_log();
            const ErrorCounts before = host_.err_stats();
            const uint32_t pm = bus::caps_bit("AGGRESSIVE_PM");
            check_stop();
            host_.set_caps(step.caps->caps | pm);
            host_.set_caps2(step.caps->caps2);
            check_stop();
            host_.reinit(std::min(o_.reinit_seconds, std::max(0.0, deadline - host_.now())), true);
            if (step.clock_hz) host_.set_clock(*step.clock_hz);
            check_stop();
            const bus::Ios ios = host_.ios();
            const auto shown = bus::mode_name(ios);
            t.ios_mode = shown ? std::string(bus::to_string(*shown)) : ios.timing;
            t.clock_hz = ios.clock_hz.value_or(0);
            t.ios_confirmed = shown == step.mode && (!step.clock_hz || ios.clock_hz == step.clock_hz);
            if (!t.ios_confirmed) {
                t.reason = fmt::format("the switch failed: ios shows {} at {}, asked {}{}", t.ios_mode.empty() ? "no mode" : t.ios_mode,
                                       cli::format_hz(static_cast<double>(t.clock_hz)), bus::to_string(step.mode),
                                       step.clock_hz ? " at " + cli::format_hz(static_cast<double>(*step.clock_hz)) : "");
            } else {
                const auto [mb_s, same1] = read_pass(ref, deadline);
                const auto [mb_s2, same2] = read_pass(ref, deadline);
                t.mb_s = std::max(mb_s, mb_s2);
                t.data_ok = same1 && same2;
                if (t.data_ok && o_.scratch) t.data_ok = scratch_pass(ref, index);
                if (!t.data_ok) t.reason = o_.scratch && same1 && same2 ? "data mismatch in the scratch region's write-read-compare"
                                                                         : "data mismatch: a read differs from what the card held before";
            }
            const ErrorCounts after = host_.err_stats();
            for (const auto& [name, n] : after) {
                uint64_t was = 0;
                for (const auto& [bn, bv] : before)
                    if (bn == name) was = bv;
                t.errors.emplace_back(name, n >= was ? n - was : n);
            }
            t.log_lines = signal_error_lines(host_.log_since_mark(), start.host);
            std::string counted;
            for (const auto& [name, n] : t.errors)
                if (n) counted += fmt::format("{}{} +{}", counted.empty() ? "" : ", ", name, n);
            if (t.reason.empty() && !counted.empty()) t.reason = "err_stats: " + counted;
            if (t.reason.empty() && !t.log_lines.empty()) t.reason = "kernel log: " + t.log_lines.front();
            if (t.reason.empty() && host_.now() > deadline) t.reason = fmt::format("did not finish within {}", cli::format_figure(o_.trial_seconds, 3) + " s");
        } catch (const HostError& e) {
            if (t.reason.empty()) t.reason = e.what();
        }
        t.clean = t.reason.empty();
        t.seconds = host_.now() - t0;
        return t;
    }

private:
    BusHost& host_;
    const TrialOptions& o_;
};

std::string step_name(const BusStep& s)
{
    return s.clock_hz ? fmt::format("{} at {}", bus::to_string(s.mode), cli::format_hz(static_cast<double>(*s.clock_hz)))
                      : std::string(bus::to_string(s.mode));
}

} // namespace

std::vector<std::string> signal_error_lines(const std::string& log, const std::string& host)
{
    std::vector<std::string> out;
    if (log.empty()) return out;
    const auto parsed = bus::parse_kernel_log(log, {host});
    for (const auto& ev : parsed.events)
        if (ev.kind != bus::LogEventKind::card_unsupported) out.push_back(ev.text);
    return out;
}

Restored restore_host(BusHost& host, const HostSnapshot& start, double reinit_seconds)
{
    Restored r;
    const auto attempt = [&](const char* what, auto&& op) {
        try {
            op();
        } catch (const std::exception& e) {
            r.errors.push_back(fmt::format("{}: {}", what, e.what()));
        }
    };
    const uint32_t pm = bus::caps_bit("AGGRESSIVE_PM");
    attempt("caps", [&] { host.set_caps(start.caps | pm); });
    attempt("caps2", [&] { host.set_caps2(start.caps2); });
    attempt("re-initialisation", [&] { host.reinit(reinit_seconds, false); });
    attempt("clock", [&] {
        if (start.clock_hz && host.ios().clock_hz != start.clock_hz) host.set_clock(start.clock_hz);
    });
    attempt("caps", [&] {
        if (!(start.caps & pm)) host.set_caps(start.caps);
    });
    attempt("power settings", [&] { host.put_back_power(start); });
    attempt("ios", [&] {
        const bus::Ios ios = host.ios();
        const auto shown = bus::mode_name(ios);
        r.ios_mode = shown ? std::string(bus::to_string(*shown)) : ios.timing;
        r.ios_clock_hz = ios.clock_hz.value_or(0);
        r.done = shown == start.mode && r.ios_clock_hz == start.clock_hz;
        if (!r.done)
            r.errors.push_back(fmt::format("ios shows {} at {}, the start was {} at {}", r.ios_mode,
                                           cli::format_hz(static_cast<double>(r.ios_clock_hz)),
                                           start.mode ? bus::to_string(*start.mode) : "no mode",
                                           cli::format_hz(static_cast<double>(start.clock_hz))));
    });
    if (!r.errors.empty()) r.done = false;
    return r;
}

TrialRun run_trials(BusHost& host, const BusPlan& plan, const TrialOptions& o)
{
    TrialRun run;
    Engine engine(host, o);
    run.start = host.snapshot();
    Reference ref;
    try {
        engine.say("reading the card as it is");
        ref = engine.reference();
        run.before_mb_s = engine.read_pass(ref, host.now() + o.trial_seconds).first;
    } catch (const Stopped&) {
        run.interrupted = true;
        return run;
    } catch (const std::exception& e) {
        run.failure = fmt::format("reading the card before any change: {}", e.what());
        return run;
    }
    // Nothing has changed yet: a state file that cannot be written stops here.
    if (!o.state_file.empty()) write_bus_state(o.state_file, run.start, o.device);

    bool changed = false;
    try {
        std::size_t index = 0;
        for (const auto& step : plan.steps) {
            ++index;
            if (!step.trialled || !step.caps) continue;
            // The fastest clean step is the answer: slower ones are needed
            // only while every faster one failed.
            if (run.chosen) break;
            engine.check_stop();
            engine.say(fmt::format("trial {}: {}", index, step_name(step)));
            changed = true;
            run.trials.push_back(engine.trial(step, index, ref, run.start));
            const Trial& t = run.trials.back();
            engine.say(fmt::format("trial {}: {}: {}", index, step_name(step), t.clean ? "clean" : t.reason));
            if (t.clean) run.chosen = run.trials.size() - 1;
        }
        // A stop that came during the last trial's last wait (its flag set
        // while the card's power-off was already seen) still counts: the
        // user asked to stop, so nothing is kept.
        engine.check_stop();
    } catch (const Stopped&) {
        run.interrupted = true;
    } catch (const std::exception& e) {
        run.failure = e.what();
    } catch (...) {
        run.failure = "an unexpected failure";
    }
    if (!changed) return run;

    if (o.keep && run.chosen && !run.interrupted && run.failure.empty()) {
        // The chosen step again (later trials may have changed the host),
        // with the start's power settings and AGGRESSIVE_PM.
        const Trial& c = run.trials[*run.chosen];
        Restored r;
        r.kept = true;
        try {
            for (const auto& step : plan.steps) {
                if (step.mode != c.mode || step.clock_hz != c.clock_asked || !step.caps) continue;
                const uint32_t pm = bus::caps_bit("AGGRESSIVE_PM");
                host.set_caps(step.caps->caps | pm);
                host.set_caps2(step.caps->caps2);
                host.reinit(o.reinit_seconds, false);
                if (step.clock_hz) host.set_clock(*step.clock_hz);
                host.set_caps((step.caps->caps & ~pm) | (run.start.caps & pm));
                host.put_back_power(run.start);
                break;
            }
            const bus::Ios ios = host.ios();
            const auto shown = bus::mode_name(ios);
            r.ios_mode = shown ? std::string(bus::to_string(*shown)) : ios.timing;
            r.ios_clock_hz = ios.clock_hz.value_or(0);
            if (shown == c.mode) {
                run.restored = r;
                return run;
            }
            run.failure = fmt::format("--keep: ios shows {} after setting {} again; putting the host back", r.ios_mode, bus::to_string(c.mode));
        } catch (const std::exception& e) {
            run.failure = fmt::format("--keep: {}; putting the host back", e.what());
        }
    }
    engine.say("putting the host back");
    run.restored = restore_host(host, run.start, o.reinit_seconds);
    if (run.restored->done && !o.state_file.empty()) {
        std::error_code ec;
        std::filesystem::remove(o.state_file, ec);
    }
    return run;
}

} // namespace mmc::tune
