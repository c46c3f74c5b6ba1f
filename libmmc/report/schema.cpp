#include "report/schema.h"

#include <fmt/format.h>

namespace mmc::report {

namespace {

// Version 1: every bundle once (keyed by the hash of its content), with the
// columns people search and compare by pulled out of it, its verdicts and
// benchmark jobs as rows, and the bundles that were refused and why.
const char* const schema_v1 = R"(
CREATE TABLE bundles (
    id {id},
    content_hash TEXT NOT NULL UNIQUE,     -- SHA-256 of the canonical JSON
    format_version INTEGER,                -- NULL: written before format_version existed
    kind TEXT NOT NULL,                    -- measured | imported
    created TEXT NOT NULL,                 -- the bundle's own time, ISO-8601 UTC
    ingested TEXT NOT NULL,                -- when the store got it
    source_path TEXT NOT NULL,             -- the file it was imported from
    study TEXT,                            -- source.title of an imported bundle
    card_label TEXT NOT NULL,
    card_manufacturer TEXT, card_product TEXT, card_serial TEXT, card_type TEXT,
    card_capacity_bytes BIGINT, card_date TEXT,
    speed_class TEXT, uhs_speed_grade TEXT, video_speed_class TEXT, app_perf_class TEXT,
    cid_hex TEXT, csd_hex TEXT, scr_hex TEXT, ssr_hex TEXT, ocr_hex TEXT, ext_csd_hex TEXT,
    host_label TEXT NOT NULL,
    board TEXT, controller TEXT, kernel TEXT,
    bus_mode TEXT, bus_clock_hz BIGINT, bus_actual_clock_hz BIGINT, bus_width_bits INTEGER,
    tool_version TEXT, tools {json},
    parameters {json},                     -- per mmc-bench run: suite, target
    seq_read_mb_s DOUBLE PRECISION, seq_write_mb_s DOUBLE PRECISION,
    rand_read_iops_1k DOUBLE PRECISION, rand_read_iops_4k DOUBLE PRECISION, rand_read_iops_16k DOUBLE PRECISION,
    rand_write_iops_1k DOUBLE PRECISION, rand_write_iops_4k DOUBLE PRECISION, rand_write_iops_16k DOUBLE PRECISION,
    error TEXT,
    precondition {json},                   -- per mmc-bench run, as it reported it
    probe {json},                          -- mmc-probe's results, when the bundle has them
    bundle TEXT NOT NULL                   -- the bundle itself, byte for byte as received
);
CREATE TABLE verdicts (
    bundle_id BIGINT NOT NULL REFERENCES bundles(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    claim TEXT NOT NULL, required DOUBLE PRECISION, measured DOUBLE PRECISION,
    unit TEXT, result TEXT NOT NULL, why TEXT,
    PRIMARY KEY (bundle_id, position)
);
CREATE TABLE jobs (
    bundle_id BIGINT NOT NULL REFERENCES bundles(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    suite TEXT, name TEXT, rw TEXT, block_size BIGINT, iodepth INTEGER, runner TEXT,
    ios BIGINT, bytes BIGINT, seconds DOUBLE PRECISION,
    iops DOUBLE PRECISION, mb_s DOUBLE PRECISION, ci95_pct DOUBLE PRECISION,
    lat_p50_us DOUBLE PRECISION, lat_p99_us DOUBLE PRECISION,
    partial INTEGER, error TEXT,
    PRIMARY KEY (bundle_id, position)
);
CREATE TABLE rejections (
    id {id},
    at TEXT NOT NULL,
    source_path TEXT NOT NULL,
    reason TEXT NOT NULL,
    content_hash TEXT                      -- NULL when it was not even JSON
);
)";

// Version 2: mmc-report --since reads only the rows it needs, and the
// rows of one card, or one card on one host, are found by name.
const char* const schema_v2 = R"(
CREATE INDEX bundles_created ON bundles (created);
CREATE INDEX bundles_card_host ON bundles (card_label, host_label);
)";

// Version 3: mmc-probe's answers and the state comparison as columns
// (they were only inside the bundle, and column probe), and each verdict's
// bus ceiling. Rows stored before stay NULL there: their bundles hold what
// there is.
const char* const schema_v3 = R"(
ALTER TABLE bundles ADD COLUMN probe_page_size BIGINT;
ALTER TABLE bundles ADD COLUMN probe_au_size BIGINT;
ALTER TABLE bundles ADD COLUMN probe_open_aus INTEGER;
ALTER TABLE bundles ADD COLUMN probe_confidence TEXT;
ALTER TABLE bundles ADD COLUMN capacity_verdict TEXT;
ALTER TABLE bundles ADD COLUMN capacity_announced_bytes BIGINT;
ALTER TABLE bundles ADD COLUMN capacity_usable_bytes BIGINT;
ALTER TABLE bundles ADD COLUMN state_seq_write_used_mb_s DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN state_seq_write_erased_mb_s DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN state_rand_write_used_iops DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN state_rand_write_erased_iops DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN state_summary TEXT;
ALTER TABLE verdicts ADD COLUMN bus_ceiling_mb_s DOUBLE PRECISION;
)";

// Version 4: how the card was attached: the attachment's words,
// the USB reader and its link when it was in one, and what tells a card
// apart without its CID (its sectors, its partition table's identifier).
// Rows stored before stay NULL: their bundles did not say.
const char* const schema_v4 = R"(
ALTER TABLE bundles ADD COLUMN attachment TEXT;
ALTER TABLE bundles ADD COLUMN card_sectors BIGINT;
ALTER TABLE bundles ADD COLUMN partition_table_id TEXT;
ALTER TABLE bundles ADD COLUMN reader_chip TEXT;
ALTER TABLE bundles ADD COLUMN reader_usb_id TEXT;
ALTER TABLE bundles ADD COLUMN reader_driver TEXT;
ALTER TABLE bundles ADD COLUMN reader_speed_mbit DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN reader_ceiling_mb_s DOUBLE PRECISION;
)";

// Version 5: what mmc-tune chose: the bus mode in use before
// and its speed, the mode the trials chose and its speed, whether the host
// was trialled live and put back; the block queue's setting before, its
// result and verdict; and mmc-tune's documents whole. Rows stored before
// stay NULL: their bundles did not tune.
const char* const schema_v5 = R"(
ALTER TABLE bundles ADD COLUMN tune_bus_before_mode TEXT;
ALTER TABLE bundles ADD COLUMN tune_bus_before_clock_hz BIGINT;
ALTER TABLE bundles ADD COLUMN tune_bus_before_mb_s DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN tune_bus_chosen_mode TEXT;
ALTER TABLE bundles ADD COLUMN tune_bus_chosen_clock_hz BIGINT;
ALTER TABLE bundles ADD COLUMN tune_bus_chosen_mb_s DOUBLE PRECISION;
ALTER TABLE bundles ADD COLUMN tune_bus_live_trials INTEGER;
ALTER TABLE bundles ADD COLUMN tune_bus_trials INTEGER;
ALTER TABLE bundles ADD COLUMN tune_bus_rejected INTEGER;
ALTER TABLE bundles ADD COLUMN tune_bus_restored INTEGER;
ALTER TABLE bundles ADD COLUMN tune_queue_before_scheduler TEXT;
ALTER TABLE bundles ADD COLUMN tune_queue_before_read_ahead_kb BIGINT;
ALTER TABLE bundles ADD COLUMN tune_queue_scheduler TEXT;
ALTER TABLE bundles ADD COLUMN tune_queue_read_ahead_kb BIGINT;
ALTER TABLE bundles ADD COLUMN tune_queue_verdict TEXT;
ALTER TABLE bundles ADD COLUMN tune {json};
)";

std::string with_dialect(std::string sql, const SqlDialect& d)
{
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"{id}", d.id_column}, {"{json}", d.json_column}})
        for (std::size_t at = sql.find(from); at != std::string::npos; at = sql.find(from, at + to.size()))
            sql.replace(at, from.size(), to);
    return sql;
}

int read_version(SqlConnection& db)
{
    const auto rows = db.query("SELECT version FROM schema_version");
    if (rows.empty() || !rows[0][0]) return 0;
    return std::stoi(*rows[0][0]);
}

} // namespace

const std::vector<Migration>& migrations()
{
    static const std::vector<Migration> steps = {
        {1, "bundles, verdicts, jobs, rejections", schema_v1},
        {2, "indexes for the report's filters", schema_v2},
        {3, "mmc-probe's answers, the state comparison, verdicts' bus ceiling", schema_v3},
        {4, "the card's attachment: a USB reader and its link, or a slot; sectors and partition table id", schema_v4},
        {5, "mmc-tune's results: the bus mode and MB/s before and chosen, the queue's result", schema_v5},
    };
    return steps;
}

int current_schema_version() { return migrations().back().version; }

int schema_version(SqlConnection& db)
{
    try {
        return read_version(db);
    } catch (const StoreError&) {
        return 0; // no schema_version table: a new, empty database
    }
}

int migrate(SqlConnection& db, int target)
{
    if (target < 0) target = current_schema_version();
    const int seen = schema_version(db);
    if (seen == target) return seen; // the common case: no write lock taken
    if (seen > current_schema_version())
        throw StoreError(fmt::format("{}: schema version {} is newer than this mmc-report knows ({})", db.describe(), seen,
                                     current_schema_version()));
    db.exec(db.dialect().begin_write);
    try {
        if (!db.dialect().migration_lock.empty()) db.query(db.dialect().migration_lock);
        db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
        // Read again under the lock: another process may have migrated meanwhile.
        auto rows = db.query("SELECT version FROM schema_version");
        if (rows.empty()) db.query("INSERT INTO schema_version (version) VALUES (0)");
        const int from = rows.empty() || !rows[0][0] ? 0 : std::stoi(*rows[0][0]);
        if (from > current_schema_version())
            throw StoreError(fmt::format("{}: schema version {} is newer than this mmc-report knows ({})", db.describe(), from,
                                         current_schema_version()));
        if (from > target)
            throw StoreError(fmt::format("{}: schema version {} is past the version asked for ({}); migrations never go back",
                                         db.describe(), from, target));
        for (const auto& m : migrations())
            if (m.version > from && m.version <= target) db.exec(with_dialect(m.sql, db.dialect()));
        db.query("UPDATE schema_version SET version = ?", {static_cast<int64_t>(target)});
        db.exec("COMMIT");
        return from;
    } catch (...) {
        try {
            db.exec("ROLLBACK");
        } catch (const StoreError&) {
        }
        throw;
    }
}

} // namespace mmc::report
