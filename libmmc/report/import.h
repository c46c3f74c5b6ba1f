// mmc-report --db URL --import FILE|DIR...: bundles from files into the
// results store. Files are found as a report finds them (report/load.h):
// a DIR's other JSON documents (the tools' raw outputs beside a bundle) are
// skipped quietly; everything else that is not a bundle is rejected, said
// and recorded, never dropped silently.
#pragma once

#include "report/store.h"

#include <string>
#include <vector>

namespace mmc::report {

struct ImportItem {
    std::string path;
    Outcome outcome = Outcome::rejected;
    std::string content_hash;
    std::string reason; // for a rejection
};

struct ImportSummary {
    std::vector<ImportItem> items;      // in the order read
    std::vector<std::string> ignored;   // JSON in directories that is not a bundle
    std::vector<std::string> missing;   // arguments that do not exist ("PATH: No such file or directory")
    std::size_t count(Outcome o) const;
    bool ok() const { return count(Outcome::rejected) == 0 && missing.empty(); }
};

ImportSummary import_paths(Store& store, const std::vector<std::string>& paths);

// One file's text, as import_paths takes it: named on the command line, or
// found in a directory (where JSON that is not a bundle is ignored).
void import_text(Store& store, const std::string& path, const std::string& text, bool named, ImportSummary& summary);

} // namespace mmc::report
