// The report as data: one CSV document and one JSON document (shapes in
// man/mmc-report.1).
#pragma once

#include "report/tables.h"

#include <string>
#include <vector>

namespace mmc::report {

// The CSV header, in order.
extern const std::vector<std::string> csv_columns;

// One CSV document (RFC 4180, header first). Column "table" says which
// table a row belongs to: "results" (one row per card@host: every figure;
// the by-card tables are these rows pivoted on host) or "verdicts" (one row
// per verdict). Missing figures are empty fields.
std::string csv_report(const Report& report);

// {"tool": "mmc-report", "version", "bundles": [...], "groups": [...],
//  "warnings": [...]}; missing figures are null.
json json_report(const Report& report, const std::vector<std::string>& warnings);

// RFC 4180 quoting of one field.
std::string csv_field(const std::string& s);

} // namespace mmc::report
