// Finding and reading bundles named on the command line: files, and
// directories searched recursively for *.json in sorted path order.
#pragma once

#include "report/bundle.h"

#include <string>
#include <vector>

namespace mmc::report {

struct Loaded {
    std::vector<Bundle> bundles;        // in the order found
    std::vector<std::string> warnings;  // "PATH: why; skipped", and odd parts of loaded bundles
    std::vector<std::string> ignored;   // JSON files in directories that are not bundles (tool outputs)
    bool named_file_failed = false;     // a FILE argument could not be read as a bundle
};

// A FILE that cannot be read, is not JSON or not a bundle is a warning and
// sets named_file_failed. In a directory, other JSON documents (the tools'
// raw outputs beside a bundle) are ignored quietly; files that are not JSON
// or are bundles in a newer format are warnings.
Loaded load_paths(const std::vector<std::string>& paths);

} // namespace mmc::report
