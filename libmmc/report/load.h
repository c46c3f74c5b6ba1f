// Finding and reading bundles named on the command line: files, and
// directories searched recursively for *.json in sorted path order; and the
// same reading for bundles that come out of the results database.
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

// A file to read: its path, and whether it was named on the command line
// (rather than found in a directory).
struct FoundFile {
    std::string path;
    bool named = false;
};

// The files the arguments name: each FILE, and each DIR's *.json
// (recursively, sorted). A missing argument is a warning in loaded and sets
// named_file_failed.
std::vector<FoundFile> find_files(const std::vector<std::string>& paths, Loaded& loaded);

// A FILE that cannot be read, is not JSON or not a bundle is a warning and
// sets named_file_failed. In a directory, other JSON documents (the tools'
// raw outputs beside a bundle) are ignored quietly; files that are not JSON
// or are bundles in a newer format are warnings.
Loaded load_paths(const std::vector<std::string>& paths);

// Reads the text of one document as if from path (named or found in a
// directory) into out, with the warnings load_paths gives.
void load_text(const std::string& path, const std::string& text, bool named, Loaded& out);

// Reads a whole file; throws std::runtime_error("PATH: why").
std::string read_file(const std::string& path);

} // namespace mmc::report
