// The results store: bundles kept in a database, SQLite (a file, the
// default) or PostgreSQL (a server a fleet of boards shares), behind one
// interface. Opening applies the schema's migrations (report/schema.h).
// Ingest keeps each bundle once, by the hash of its content; a document
// that is not a bundle is refused, and the refusal is recorded with its
// reason. Reports are built from the stored bundles by the same code that
// builds them from files (report/load.h, report/tables.h).
#pragma once

#include "report/load.h"
#include "report/sql.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mmc::report {

// Which bundles a report takes; empty fields select everything. card and
// host match a substring, ignoring ASCII case: card of the card's label,
// product or serial; host of the host's label, controller or board. since
// keeps bundles created at or after it ("2026-11-01" or an ISO-8601 UTC time).
struct StoreFilter {
    std::string card, host, since;
};

enum class Outcome { stored, duplicate, rejected };

struct IngestResult {
    Outcome outcome = Outcome::rejected;
    std::string content_hash; // empty when the text was not JSON
    std::string reason;       // why it was rejected
};

struct StoredBundle {
    int64_t id = 0;
    std::string path; // the file it was imported from
    std::string text; // the bundle as received
};

class Store {
public:
    explicit Store(std::unique_ptr<SqlConnection> db);

    // Stores the bundle in text, read from path, in one transaction: its row,
    // verdicts and jobs, or nothing. A bundle already stored (same content)
    // is a duplicate; a text that is not a bundle is rejected, and the
    // rejection is stored. Throws StoreError when the database fails.
    IngestResult ingest(const std::string& path, const std::string& text);

    // Records that path was refused (it could not even be read).
    void record_rejection(const std::string& path, const std::string& reason, const std::string& content_hash = "");

    // The stored bundles the filter selects, in the order they were stored.
    std::vector<StoredBundle> bundles(const StoreFilter& filter = {});

    int64_t count(const std::string& table);
    std::string describe() const { return db_->describe(); }
    SqlConnection& connection() { return *db_; }

private:
    std::unique_ptr<SqlConnection> db_;
    std::string insert_bundle_, insert_verdict_, insert_job_;
};

// "postgresql://..." and "postgres://..." name a PostgreSQL server;
// anything else is the path of an SQLite file (created if missing).
bool is_postgres_url(const std::string& url);

// Opens the database and brings its schema up to date. An SQLite file
// that does not exist is created only when create is true (an import); a
// report of a mistyped path is an error, not a new empty database.
std::unique_ptr<Store> open_store(const std::string& url, bool create = true);

// Reads stored bundles as load_paths reads files: the same Bundles and
// warnings, each under the path it was imported from.
Loaded load_stored(const std::vector<StoredBundle>& stored);

// "2026-11-01" or "2026-11-01T10:15:00Z": a --since the store compares
// with bundles' creation times.
bool valid_since(const std::string& since);

} // namespace mmc::report
