// The SQLite engine of the results store: one file, WAL journal (readers
// never wait for the writer), a busy timeout (a second writer waits for the
// first instead of failing with "database is locked"), and write
// transactions that take the lock up front (BEGIN IMMEDIATE), so two
// writers queue rather than deadlock on a lock upgrade.
#include "report/sql.h"

#include <chrono>
#include <fmt/format.h>
#include <sqlite3.h>
#include <thread>

namespace mmc::report {

namespace {

// How long a writer waits for another before giving up. Generous: an
// import of thousands of bundles holds the lock for many short transactions,
// and a waiting writer gets in between them.
constexpr int busy_timeout_ms = 120'000;

const SqlDialect sqlite_dialect{
    .name = "SQLite",
    .id_column = "INTEGER PRIMARY KEY",
    .json_column = "TEXT",
    .begin_write = "BEGIN IMMEDIATE",
    .migration_lock = "",
};

class SqliteConnection final : public SqlConnection {
public:
    explicit SqliteConnection(const std::string& path) : path_(path)
    {
        const int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
        if (rc != SQLITE_OK) {
            const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
            sqlite3_close(db_);
            throw StoreError(fmt::format("{}: {}", path, why));
        }
        sqlite3_busy_timeout(db_, busy_timeout_ms);
        use_wal();
        // synchronous NORMAL is durable against a crash of the process in WAL mode.
        exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
    }
    ~SqliteConnection() override { sqlite3_close_v2(db_); }

    const SqlDialect& dialect() const override { return sqlite_dialect; }

    std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params) override
    {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &st, nullptr) != SQLITE_OK)
            fail(sql);
        struct Finalize {
            sqlite3_stmt* s;
            ~Finalize() { sqlite3_finalize(s); }
        } finalize{st};
        for (std::size_t i = 0; i < params.size(); ++i) {
            const int n = static_cast<int>(i) + 1;
            const SqlValue& v = params[i];
            int rc = SQLITE_OK;
            if (std::holds_alternative<std::monostate>(v)) rc = sqlite3_bind_null(st, n);
            else if (auto* x = std::get_if<int64_t>(&v)) rc = sqlite3_bind_int64(st, n, *x);
            else if (auto* d = std::get_if<double>(&v)) rc = sqlite3_bind_double(st, n, *d);
            else {
                const auto& s = std::get<std::string>(v);
                rc = sqlite3_bind_text(st, n, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
            }
            if (rc != SQLITE_OK) fail(sql);
        }
        std::vector<SqlRow> rows;
        for (;;) {
            const int rc = sqlite3_step(st);
            if (rc == SQLITE_DONE) break;
            if (rc != SQLITE_ROW) fail(sql);
            SqlRow row;
            const int columns = sqlite3_column_count(st);
            for (int c = 0; c < columns; ++c) {
                if (sqlite3_column_type(st, c) == SQLITE_NULL) {
                    row.emplace_back(std::nullopt);
                } else {
                    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
                    row.emplace_back(std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(st, c))));
                }
            }
            rows.push_back(std::move(row));
        }
        return rows;
    }

    void exec(const std::string& script) override
    {
        char* message = nullptr;
        if (sqlite3_exec(db_, script.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            const std::string why = message ? message : sqlite3_errmsg(db_);
            sqlite3_free(message);
            throw StoreError(fmt::format("{}: {}", path_, why));
        }
    }

    std::string describe() const override { return fmt::format("SQLite database {}", path_); }

private:
    // WAL is a property of the file: once one connection has converted it
    // there is nothing to do. The conversion needs the file to itself, and
    // SQLite does not call the busy handler for it: eight imports opening a
    // new database at once failed "database is locked" one time in three
    // here. So the mode is read first, and the conversion retried (with
    // backoff, within the busy timeout) while another connection holds the
    // file; another finishing it meanwhile is success too.
    void use_wal()
    {
        const auto start = std::chrono::steady_clock::now();
        for (int wait_ms = 5;; wait_ms = std::min(wait_ms * 2, 200)) {
            if (journal_mode() == "wal") return;
            char* message = nullptr;
            const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, &message);
            const std::string why = message ? message : sqlite3_errmsg(db_);
            sqlite3_free(message);
            if (rc == SQLITE_OK) {
                if (journal_mode() == "wal") return;
            } else if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) {
                throw StoreError(fmt::format("{}: {}", path_, why));
            }
            if (std::chrono::steady_clock::now() - start > std::chrono::milliseconds(busy_timeout_ms))
                throw StoreError(fmt::format("{}: could not switch to WAL: {}", path_, why));
            std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
        }
    }

    // The file's journal mode as SQLite names it ("wal", "delete", ...); ""
    // when it cannot be read now (another connection holds the file).
    std::string journal_mode()
    {
        sqlite3_stmt* st = nullptr;
        std::string mode;
        if (sqlite3_prepare_v2(db_, "PRAGMA journal_mode", -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            if (const auto* text = sqlite3_column_text(st, 0)) mode = reinterpret_cast<const char*>(text);
        sqlite3_finalize(st);
        return mode;
    }

    [[noreturn]] void fail(const std::string& sql) const
    {
        std::string first = sql.substr(0, sql.find_first_of("(\n"));
        throw StoreError(fmt::format("{}: {} (in: {})", path_, sqlite3_errmsg(db_), first));
    }

    std::string path_;
    sqlite3* db_ = nullptr;
};

} // namespace

std::unique_ptr<SqlConnection> open_sqlite(const std::string& path)
{
    return std::make_unique<SqliteConnection>(path);
}

} // namespace mmc::report
