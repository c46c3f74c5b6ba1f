// A bundle as rows of the results database: the columns people search and
// compare by, pulled out of the bundle (identity, raw registers, host and
// bus, figures, verdicts, benchmark jobs, precondition), beside the bundle
// itself. Pure: text in, rows out; the store writes them.
#pragma once

#include "report/bundle.h"
#include "report/sql.h"

#include <string>
#include <utility>
#include <vector>

namespace mmc::report {

struct BundleRecord {
    std::string content_hash;
    // Table bundles, every column but id, in schema order.
    std::vector<std::pair<std::string, SqlValue>> columns;
    // Table verdicts and table jobs, without bundle_id and position, in
    // the order of verdict_columns and job_columns.
    std::vector<std::vector<SqlValue>> verdicts, jobs;
};

extern const std::vector<std::string> verdict_columns;
extern const std::vector<std::string> job_columns;

// Why a document is not stored: not JSON, not a bundle, a newer format.
struct Rejected : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads the bundle in text (as received, kept byte for byte); throws
// Rejected saying why when it is not one this code reads.
BundleRecord make_record(const std::string& text, const std::string& source_path, const std::string& ingested);

// SHA-256 (hex) of the document in canonical form (keys sorted, no
// whitespace): the same bundle pretty-printed or re-indented is the same.
std::string content_hash(const nlohmann::json& doc);

// SHA-256 of bytes, in lower-case hex.
std::string sha256_hex(std::string_view bytes);

} // namespace mmc::report
