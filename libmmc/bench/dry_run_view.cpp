#include "bench/dry_run_view.h"

#include "cli/size.h"
#include "version.h"

#include <fmt/format.h>

namespace mmc::bench {

std::string dry_run_text(const DryRun& dry)
{
    const auto& r = dry.report;
    std::string out = fmt::format("Plan for {} (suite {}, {}):\n", r.target.path, suite_word(r),
                                  dry.writes ? "WRITES: destroys the data in the regions below" : "read-only");
    for (const auto& j : r.jobs)
        out += fmt::format(" {:<22} {:<9} {:>4} QD{:<3} offset {}, {}, {} s\n", j.job.name, to_string(j.job.rw),
                           cli::format_bytes(j.job.block_size), j.job.iodepth, cli::format_bytes(j.region.offset),
                           cli::format_bytes(j.region.length), j.job.runtime_s);
    if (dry.precondition != PreconditionMethod::none)
        out += fmt::format(" precondition {} over the jobs' regions first (writes)\n", to_string(dry.precondition));
    for (const auto& s : r.skipped) out += fmt::format(" left out: {}: {}\n", s.job, s.why);
    for (const auto& n : r.notes) out += fmt::format(" note: {}\n", n);
    out += "Dry run: nothing was measured, written or created.\n";
    return out;
}

nlohmann::ordered_json dry_run_json(const DryRun& dry)
{
    const auto& r = dry.report;
    nlohmann::ordered_json doc;
    doc["tool"] = "mmc-bench";
    doc["version"] = mmc::version;
    doc["dry_run"] = true;
    doc["target"] = {{"path", r.target.path},
                     {"kind", std::string(to_string(r.target.kind))},
                     {"size_bytes", r.target.size_bytes}};
    doc["suite"] = suite_word(r);
    doc["writes"] = dry.writes;
    doc["precondition"] = std::string(to_string(dry.precondition));
    auto& jobs = doc["jobs"] = nlohmann::ordered_json::array();
    for (const auto& j : r.jobs)
        jobs.push_back({{"name", j.job.name},
                        {"rw", std::string(to_string(j.job.rw))},
                        {"block_size", j.job.block_size},
                        {"iodepth", j.job.iodepth},
                        {"runner", to_string(j.job.runner)},
                        {"offset", j.region.offset},
                        {"length", j.region.length},
                        {"runtime_s", j.job.runtime_s}});
    auto& skipped = doc["skipped"] = nlohmann::ordered_json::array();
    for (const auto& s : r.skipped) skipped.push_back({{"job", s.job}, {"why", s.why}});
    doc["notes"] = r.notes;
    return doc;
}

} // namespace mmc::bench
