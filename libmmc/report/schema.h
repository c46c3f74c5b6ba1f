// The results database's schema and its migrations: one list of steps,
// the same for SQLite and PostgreSQL (the dialect fills in the id and JSON
// column types). The version a database is at is the one row of table
// schema_version; opening a database applies the steps it lacks, in one
// transaction, so two processes opening a new database at once do it once.
#pragma once

#include "report/sql.h"

#include <string>
#include <vector>

namespace mmc::report {

struct Migration {
    int version;             // the schema version after this step
    std::string description;
    std::string sql;         // statements; "{id}" and "{json}" are the dialect's column types
};

// Every step, in order; the last one's version is the current schema.
const std::vector<Migration>& migrations();
int current_schema_version();

// The schema version of the database (0 when it has no schema yet).
int schema_version(SqlConnection& db);

// Brings the database to target_version (default: the current one); returns
// the version it was at. Throws StoreError when the database is newer than
// this code knows (it never downgrades) or a step fails (nothing of that
// step is kept).
int migrate(SqlConnection& db, int target_version = -1);

} // namespace mmc::report
