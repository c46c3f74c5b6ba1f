// The seam between the results store and a database engine: a connection
// that runs SQL with bound values and returns rows of text. The store's
// logic (schema, migrations, ingest, queries) is written once against this;
// each engine (SQLite, PostgreSQL) is one small file behind it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace mmc::report {

// A value bound to a '?' placeholder: SQL NULL, an integer, a double or text.
using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;

// A result row: each column as text, nullopt for NULL.
using SqlRow = std::vector<std::optional<std::string>>;

// A database failure ("database is locked", "could not connect to server").
struct StoreError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What differs between the engines in the schema's DDL and transactions.
struct SqlDialect {
    std::string name;          // "SQLite", "PostgreSQL"
    std::string id_column;     // an auto-numbered 64-bit primary key
    std::string json_column;   // a column of JSON documents
    std::string begin_write;   // starts a transaction that will write
    std::string migration_lock; // run first in the migration transaction ("" if begin_write already excludes others)
};

class SqlConnection {
public:
    virtual ~SqlConnection() = default;
    virtual const SqlDialect& dialect() const = 0;
    // Runs one statement with '?' placeholders bound to params in order;
    // returns its rows (none for statements without results). Throws StoreError.
    virtual std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params = {}) = 0;
    // Runs a script of statements without parameters. Throws StoreError.
    virtual void exec(const std::string& script) = 0;
    // Where the data lives, for messages; never shows a password.
    virtual std::string describe() const = 0;
};

// path: a file, created if missing. WAL journal and a busy timeout, so a
// second process waits for a writer instead of failing.
std::unique_ptr<SqlConnection> open_sqlite(const std::string& path);

// url: "postgresql://..." or "postgres://..." as libpq reads it.
std::unique_ptr<SqlConnection> open_postgres(const std::string& url);

// Replaces each '?' outside quotes with $1, $2, ... (PostgreSQL's placeholders).
std::string numbered_placeholders(const std::string& sql);

} // namespace mmc::report
