// A results database made by an older mmc-report: at schema `version`, with
// one row of its time (source_path "old.json", card "Old card"), in a fresh
// temporary directory; the migration tests open it with today's store.
#pragma once

#include "report/schema.h"
#include "report/sql.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace mmc::test {

struct OldStore {
    std::string dir, path; // the directory (removed by the test) and the database in it
};

inline OldStore old_store(int version)
{
    char pattern[] = "/tmp/mmc-old-store.XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    OldStore s{pattern, std::string(pattern) + "/results.sqlite"};
    auto db = report::open_sqlite(s.path);
    if (report::migrate(*db, version) != 0) throw std::runtime_error("not a new database");
    db->query("INSERT INTO bundles (content_hash, kind, created, ingested, source_path, card_label, host_label, bundle) "
              "VALUES ('h1', 'measured', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'old.json', 'Old card', 'Old host', '{}')");
    return s;
}

} // namespace mmc::test
