#include "report/import.h"

#include "cli/input.h"

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
        import_text(store, f.path, text, f.named, summary);
    }
    return summary;
}

void import_text(Store& store, const std::string& path, const std::string& text, bool named, ImportSummary& summary)
{
    if (!named) {
        // The tools' raw outputs beside a bundle are not bundles: skipped,
        // as the report skips them. Text that is not JSON, or that the
        // report would refuse (too deep), is not skipped: the store
        // rejects it by name.
        try {
            if (!looks_like_bundle(cli::parse_json_capped(text))) {
                summary.ignored.push_back(path);
                return;
            }
        } catch (const json::parse_error&) {
        } catch (const cli::InputError&) {
        }
    }
    const IngestResult r = store.ingest(path, text);
    summary.items.push_back({path, r.outcome, r.content_hash, r.reason});
}

} // namespace mmc::report
