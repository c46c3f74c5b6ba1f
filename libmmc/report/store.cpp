#include "report/store.h"

#include "cli/input.h"
#include "report/record.h"
#include "report/schema.h"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <regex>

namespace mmc::report {

namespace {

std::string now_utc()
{
    const auto now = std::chrono::system_clock::now();
    return iso8601_utc(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count());
}

std::string insert_sql(const std::string& table, const std::vector<std::string>& columns, const std::string& tail = "")
{
    std::string names, marks;
    for (const auto& c : columns) {
        names += (names.empty() ? "" : ", ") + c;
        marks += marks.empty() ? "?" : ", ?";
    }
    return fmt::format("INSERT INTO {} ({}) VALUES ({}){}", table, names, marks, tail);
}

// A LIKE pattern matching text anywhere, with LIKE's own characters escaped.
std::string contains_pattern(const std::string& text)
{
    std::string p = "%";
    for (const char c : text) {
        if (c == '%' || c == '_' || c == '\\') p += '\\';
        p += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return p + "%";
}

// Rolls back unless committed: a failed ingest leaves nothing behind.
class Transaction {
public:
    explicit Transaction(SqlConnection& db) : db_(db) { db_.exec(db_.dialect().begin_write); }
    ~Transaction()
    {
        if (open_) try {
                db_.exec("ROLLBACK");
            } catch (const StoreError&) {
            }
    }
    void commit()
    {
        db_.exec("COMMIT");
        open_ = false;
    }

private:
    SqlConnection& db_;
    bool open_ = true;
};

} // namespace

Store::Store(std::unique_ptr<SqlConnection> db) : db_(std::move(db))
{
    migrate(*db_);
    // The column names come from make_record itself (of the smallest
    // bundle), so the list of columns lives in one place.
    std::vector<std::string> columns;
    for (const auto& [name, value] : make_record(R"({"format": "mmckit-bundle"})", "", "").columns) columns.push_back(name);
    insert_bundle_ = insert_sql("bundles", columns, " ON CONFLICT (content_hash) DO NOTHING RETURNING id");
    std::vector<std::string> v{"bundle_id", "position"}, j{"bundle_id", "position"};
    v.insert(v.end(), verdict_columns.begin(), verdict_columns.end());
    j.insert(j.end(), job_columns.begin(), job_columns.end());
    insert_verdict_ = insert_sql("verdicts", v);
    insert_job_ = insert_sql("jobs", j);
}

IngestResult Store::ingest(const std::string& path, const std::string& text)
{
    const std::string now = now_utc();
    IngestResult result;
    BundleRecord record;
    try {
        record = make_record(text, path, now);
    } catch (const Rejected& e) {
        result.reason = e.what();
        // JSON that cannot be parsed as a report parses it has no content hash.
        try {
            result.content_hash = content_hash(nlohmann::json(cli::parse_json_capped(text)));
        } catch (const nlohmann::json::exception&) {
        } catch (const cli::InputError&) {
        }
        record_rejection(path, result.reason, result.content_hash);
        return result;
    }
    result.content_hash = record.content_hash;
    std::vector<SqlValue> values;
    for (auto& [name, value] : record.columns) values.push_back(std::move(value));

    Transaction tx(*db_);
    const auto rows = db_->query(insert_bundle_, values);
    if (rows.empty() || !rows[0][0]) {
        result.outcome = Outcome::duplicate;
        tx.commit();
        return result;
    }
    const int64_t id = std::stoll(*rows[0][0]);
    auto children = [&](const std::string& sql, std::vector<std::vector<SqlValue>>& items) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            std::vector<SqlValue> row{id, static_cast<int64_t>(i)};
            row.insert(row.end(), std::make_move_iterator(items[i].begin()), std::make_move_iterator(items[i].end()));
            db_->query(sql, row);
        }
    };
    children(insert_verdict_, record.verdicts);
    children(insert_job_, record.jobs);
    tx.commit();
    result.outcome = Outcome::stored;
    return result;
}

void Store::record_rejection(const std::string& path, const std::string& reason, const std::string& hash)
{
    db_->query("INSERT INTO rejections (at, source_path, reason, content_hash) VALUES (?, ?, ?, ?)",
               {now_utc(), path, reason, hash.empty() ? SqlValue{} : SqlValue{hash}});
}

std::vector<StoredBundle> Store::bundles(const StoreFilter& f)
{
    std::string sql = "SELECT id, source_path, bundle FROM bundles WHERE 1 = 1";
    std::vector<SqlValue> params;
    auto any_of = [&](const std::string& text, std::initializer_list<const char*> columns) {
        if (text.empty()) return;
        std::string clause;
        for (const char* c : columns) {
            clause += fmt::format("{}lower(coalesce({}, '')) LIKE ? ESCAPE '\\'", clause.empty() ? "" : " OR ", c);
            params.push_back(contains_pattern(text));
        }
        sql += " AND (" + clause + ")";
    };
    any_of(f.card, {"card_label", "card_product", "card_serial"});
    any_of(f.host, {"host_label", "controller", "board"});
    if (!f.since.empty()) {
        sql += " AND created >= ?";
        params.push_back(f.since);
    }
    sql += " ORDER BY id";
    std::vector<StoredBundle> out;
    for (auto& row : db_->query(sql, params)) out.push_back({std::stoll(row[0].value_or("0")), row[1].value_or(""), row[2].value_or("")});
    return out;
}

int64_t Store::count(const std::string& table)
{
    const auto rows = db_->query("SELECT count(*) FROM " + table);
    return rows.empty() || !rows[0][0] ? 0 : std::stoll(*rows[0][0]);
}

bool is_postgres_url(const std::string& url)
{
    return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

std::unique_ptr<Store> open_store(const std::string& url, bool create)
{
    if (is_postgres_url(url)) {
#ifdef MMCKIT_NO_POSTGRES
        throw StoreError(fmt::format("{}: this build of mmc-report has no PostgreSQL support", url));
#else
        return std::make_unique<Store>(open_postgres(url));
#endif
    }
    std::error_code ec;
    if (!create && !std::filesystem::exists(url, ec))
        throw StoreError(fmt::format("{}: no such database (importing bundles creates it)", url));
    return std::make_unique<Store>(open_sqlite(url));
}

Loaded load_stored(const std::vector<StoredBundle>& stored)
{
    Loaded out;
    for (const auto& s : stored) load_text(s.path, s.text, true, out);
    return out;
}

bool valid_since(const std::string& since)
{
    static const std::regex form(R"((\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2}))?Z?)?)");
    std::smatch m;
    if (!std::regex_match(since, m, form)) return false;
    // The form alone lets 2026-13-45 through, which matches nothing: a date
    // that is not in the calendar is a mistake to report, not a filter.
    const auto number = [&](int i) { return m[i].matched ? std::stoi(m[i].str()) : 0; };
    const std::chrono::year_month_day day{std::chrono::year(number(1)), std::chrono::month(static_cast<unsigned>(number(2))),
                                          std::chrono::day(static_cast<unsigned>(number(3)))};
    return day.ok() && number(5) < 24 && number(6) < 60 && number(8) < 60;
}

} // namespace mmc::report
