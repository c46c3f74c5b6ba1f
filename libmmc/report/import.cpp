#include "report/import.h"

#include <algorithm>

namespace mmc::report {

std::size_t ImportSummary::count(Outcome o) const
{
    return static_cast<std::size_t>(std::count_if(items.begin(), items.end(), [o](const ImportItem& i) { return i.outcome == o; }));
}

ImportSummary import_paths(Store& store, const std::vector<std::string>& paths)
{
    ImportSummary summary;
    Loaded found_warnings;
    const auto files = find_files(paths, found_warnings);
    summary.missing = found_warnings.warnings;
    for (const auto& f : files) {
        std::string text;
        try {
            text = read_file(f.path);
        } catch (const std::runtime_error& e) {
            const std::string why = std::string(e.what()).substr(f.path.size() + 2); // "PATH: why"
            store.record_rejection(f.path, why);
            summary.items.push_back({f.path, Outcome::rejected, "", why});
            continue;
        }
        if (!f.named) {
            // The tools' raw outputs beside a bundle are not bundles: skipped,
            // as the report skips them. Text that is not JSON is not skipped.
            try {
                if (!looks_like_bundle(json::parse(text))) {
                    summary.ignored.push_back(f.path);
                    continue;
                }
            } catch (const json::parse_error&) {
            }
        }
        const IngestResult r = store.ingest(f.path, text);
        summary.items.push_back({f.path, r.outcome, r.content_hash, r.reason});
    }
    return summary;
}

} // namespace mmc::report
