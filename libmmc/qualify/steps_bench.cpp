// The benchmark steps: mmc-bench -J, one step per suite, the sustained
// suite over the whole card and the state comparison, in this process.
#include "qualify/steps.h"
#include "qualify/steps_common.h"


#include "bench/session.h"
#include "cli/cli.h"
#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::qualify {

namespace {

bench::SessionOptions session_options(const Settings& s, bench::Suite suite, std::optional<uint64_t> au_bytes)
{
    bench::SessionOptions o;
    o.device = s.device;
    o.suite = suite;
    o.suite_options.runtime_s = s.runtime_s;
    // The sustained suite writes the whole card: an SLC cache of several GiB
    // shows only past its knee, far beyond the other suites' region.
    if (suite != bench::Suite::sustained) o.suite_options.length = s.region_bytes;
    o.destructive = s.destructive;
    o.any_device = s.any_device;
    o.use_ioctl = s.use_ioctl;
    o.au_bytes = au_bytes;
    o.roots = s.roots;
    return o;
}

StepResult run_bench(StepContext& c, bench::Suite suite, std::optional<uint64_t> au_bytes = std::nullopt)
{
    const Settings& s = c.settings;
    bench::SessionHooks hooks;
    hooks.stop = &c.stop;
    // mmc-qualify asked once, for the whole plan, before the first step.
    hooks.confirm = [](const std::string&) { return cli::Confirmation::yes; };
    hooks.note = [&](const std::string& note) {
        if (c.note) c.note(note);
    };
    hooks.phase = [&](const std::string& what) {
        if (c.progress) c.progress(what + "...", true);
    };
    hooks.progress = [&](std::size_t i, std::size_t n, const bench::Progress& p) {
        if (!c.progress) return;
        if (n == 0 || !p.job) {
            c.progress(fmt::format("preparing: {:.0f}%", p.elapsed_s * 100), false);
            return;
        }
        c.progress(fmt::format("[{}/{}] {} {}{:.1f}/{:.0f} s", i, n, p.job->name, p.warming ? "warm-up " : "", p.elapsed_s,
                               p.budget_s),
                   false);
    };
    bench::RunReport report;
    try {
        report = bench::run_session(session_options(s, suite, au_bytes), hooks);
    } catch (const bench::SessionUsage& e) {
        return failed(cli::usage, e.what());
    } catch (const bench::SessionRefused& e) {
        return failed(cli::failure, cli::error_text(e));
    } catch (const std::exception& e) {
        return failed(cli::failure, e.what());
    }
    report.interrupted = report.partial && c.stop.load();
    StepResult r;
    r.doc = report_json(report);
    if (report.partial) {
        r.exit_status = report.interrupted ? cli::interrupted : cli::failure;
        r.message = report.partial_why;
    }
    return r;
}

StepResult run_state(StepContext& c)
{
    const auto au = measured_au(c.geometry);
    StepResult r = run_bench(c, bench::Suite::state, au);
    // Say where the AU came from: the benchmark's own document cannot.
    if (au && r.doc.is_object())
        r.doc["notes"].push_back(
            fmt::format("AU {} from the geometry step (mmc-probe geometry): the registers give none", cli::format_bytes(*au)));
    return r;
}

} // namespace

StepSpec bench_step(bench::Suite suite, Needs needs)
{
    return {fmt::format("bench-{}", bench::to_string(suite)), "mmc-bench", BundlePart::bench, needs,
            [suite](const Settings& s) {
                return fmt::format("mmc-bench suite {}: {} the first {}, {:g} s a job", bench::to_string(suite),
                                   s.destructive ? "READS AND WRITES" : "reads", cli::format_bytes(s.region_bytes), s.runtime_s);
            },
            [suite](StepContext& c) { return run_bench(c, suite); }};
}

StepSpec sustained_step()
{
    return {"bench-sustained", "mmc-bench", BundlePart::bench, Needs::destructive,
            [](const Settings&) {
                return std::string("mmc-bench suite sustained: WRITES the whole card once in 512 KiB recording units: the SLC "
                                   "cache's knee, the speed after it, the longest stall and the speed-class verdicts by the "
                                   "SD spec's per-AU method");
            },
            [](StepContext& c) { return run_bench(c, bench::Suite::sustained); }};
}

StepSpec state_step()
{
    return {"bench-state", "mmc-bench", BundlePart::bench, Needs::destructive,
            [](const Settings& s) {
                return fmt::format("mmc-bench suite state: WRITES the first {} used (fragmented), erases it, writes it again, {:g} s a "
                                   "job; AU from the registers, else from the geometry step",
                                   cli::format_bytes(s.region_bytes), s.runtime_s);
            },
            run_state};
}

} // namespace mmc::qualify
