#include "report/record.h"

#include "cli/input.h"

#include <fmt/format.h>
#include <openssl/evp.h>

namespace mmc::report {

const std::vector<std::string> verdict_columns = {"claim", "required", "measured", "unit", "result", "why", "bus_ceiling_mb_s"};
const std::vector<std::string> job_columns = {"suite", "name",    "rw",   "block_size", "iodepth",    "runner",     "ios",     "bytes",
                                              "seconds", "iops", "mb_s", "ci95_pct",   "lat_p50_us", "lat_p99_us", "partial", "error"};

namespace {

// A JSON value by path, or null.
const json& value_at(const json& doc, std::initializer_list<const char*> keys)
{
    static const json none;
    const json* j = &doc;
    for (const char* k : keys) {
        if (!j->is_object() || !j->contains(k)) return none;
        j = &(*j)[k];
    }
    return *j;
}

SqlValue text_or_null(const std::string& s) { return s.empty() ? SqlValue{} : SqlValue{s}; }

SqlValue text(const json& j) { return j.is_string() && !j.get<std::string>().empty() ? SqlValue{j.get<std::string>()} : SqlValue{}; }

SqlValue integer(const json& j)
{
    if (j.is_number_integer()) return j.get<int64_t>();
    if (j.is_number_float()) return static_cast<int64_t>(j.get<double>());
    return {};
}

SqlValue number(const json& j) { return j.is_number() ? SqlValue{j.get<double>()} : SqlValue{}; }

SqlValue number(const std::optional<double>& v) { return v ? SqlValue{*v} : SqlValue{}; }

SqlValue flag(const json& j) { return j.is_boolean() ? SqlValue{int64_t{j.get<bool>()}} : SqlValue{}; }

SqlValue document(const json& j) { return j.is_null() ? SqlValue{} : SqlValue{j.dump()}; }

SqlValue size(const std::optional<uint64_t>& v) { return v ? SqlValue{static_cast<int64_t>(*v)} : SqlValue{}; }

SqlValue iops(const std::map<std::string, double>& m, const char* key)
{
    const auto it = m.find(key);
    return it == m.end() ? SqlValue{} : SqlValue{it->second};
}

// The version of the tools that made the bundle: mmc-report's, else any.
SqlValue tool_version(const json& tools)
{
    if (!tools.is_object() || tools.empty()) return {};
    if (tools.contains("mmc-report")) return text(tools["mmc-report"]);
    return text(tools.begin().value());
}

// Per mmc-bench document, what it was asked to do and how the card was
// prepared; null when the bundle has no benchmark.
std::pair<SqlValue, SqlValue> bench_parameters(const json& bench)
{
    if (!bench.is_array() || bench.empty()) return {};
    json parameters = json::array(), preconditions = json::array();
    for (const auto& doc : bench) {
        parameters.push_back({{"suite", value_at(doc, {"suite"})}, {"target", value_at(doc, {"target"})}});
        preconditions.push_back(value_at(doc, {"precondition"}));
    }
    return {parameters.dump(), preconditions.dump()};
}

std::vector<std::vector<SqlValue>> job_rows(const json& bench)
{
    std::vector<std::vector<SqlValue>> rows;
    if (!bench.is_array()) return rows;
    for (const auto& doc : bench) {
        const json& jobs = value_at(doc, {"jobs"});
        if (!jobs.is_array()) continue;
        for (const auto& j : jobs) {
            if (!j.is_object()) continue;
            rows.push_back({text(value_at(doc, {"suite"})), text(value_at(j, {"name"})), text(value_at(j, {"rw"})), integer(value_at(j, {"block_size"})),
                            integer(value_at(j, {"iodepth"})), text(value_at(j, {"runner"})), integer(value_at(j, {"ios"})), integer(value_at(j, {"bytes"})),
                            number(value_at(j, {"seconds"})), number(value_at(j, {"iops"})), number(value_at(j, {"mb_s"})), number(value_at(j, {"ci95_pct"})),
                            number(value_at(j, {"lat_us", "p50"})), number(value_at(j, {"lat_us", "p99"})), flag(value_at(j, {"partial"})),
                            text(value_at(j, {"error"}))});
        }
    }
    return rows;
}

} // namespace

std::string sha256_hex(std::string_view bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed (OpenSSL)");
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
    return hex;
}

std::string content_hash(const nlohmann::json& doc) { return sha256_hex(doc.dump()); }

BundleRecord make_record(const std::string& text_in, const std::string& source_path, const std::string& ingested)
{
    // Parsed as a report reads it (capped depth, numbers a double holds):
    // what a report would skip is refused here, not stored.
    json doc;
    try {
        doc = cli::parse_json_capped(text_in);
    } catch (const json::parse_error& e) {
        throw Rejected(fmt::format("not JSON ({})", e.what()));
    } catch (const cli::InputError& e) {
        throw Rejected(e.what());
    }
    const nlohmann::json canonical(doc); // std::map objects: keys sorted
    Bundle b;
    try {
        b = from_json(doc);
    } catch (const NotABundle& e) {
        throw Rejected(e.what());
    }
    BundleRecord r;
    r.content_hash = content_hash(canonical);
    const json& regs = value_at(b.registers, {"registers"});
    const json& ios = value_at(b.bus, {"ios"});
    const auto [parameters, precondition] = bench_parameters(b.bench);
    const auto& res = b.results;
    const auto& geo = b.geometry;
    const auto& cap = b.capacity;
    const auto& st = b.state;
    const auto& tb = b.tune_bus;
    const auto& tq = b.tune_queue;
    r.columns = {
        {"content_hash", r.content_hash},
        {"format_version", integer(value_at(doc, {"format_version"}))},
        {"kind", b.kind.text()},
        {"created", b.created},
        {"ingested", ingested},
        {"source_path", source_path},
        {"study", b.source ? text_or_null(b.source->title) : SqlValue{}},
        {"card_label", b.card.label},
        {"card_manufacturer", text_or_null(b.card.manufacturer)},
        {"card_product", text_or_null(b.card.product)},
        {"card_serial", text_or_null(b.card.serial)},
        {"card_type", text_or_null(b.card.type.text())},
        {"card_capacity_bytes", b.card.capacity_bytes ? SqlValue{static_cast<int64_t>(*b.card.capacity_bytes)} : SqlValue{}},
        {"card_date", text(value_at(regs, {"cid", "decoded", "date"}))},
        {"speed_class", text_or_null(b.card.classes.speed_class)},
        {"uhs_speed_grade", text_or_null(b.card.classes.uhs_speed_grade)},
        {"video_speed_class", text_or_null(b.card.classes.video_speed_class)},
        {"app_perf_class", text_or_null(b.card.classes.app_perf_class)},
        {"cid_hex", text(value_at(regs, {"cid", "hex"}))},
        {"csd_hex", text(value_at(regs, {"csd", "hex"}))},
        {"scr_hex", text(value_at(regs, {"scr", "hex"}))},
        {"ssr_hex", text(value_at(regs, {"ssr", "hex"}))},
        {"ocr_hex", text(value_at(regs, {"ocr", "hex"}))},
        {"ext_csd_hex", text(value_at(regs, {"ext_csd", "hex"}))},
        {"host_label", b.host.label},
        {"board", text(value_at(b.environment, {"machine"}))},
        {"controller", text_or_null(b.host.controller)},
        {"kernel", text_or_null(b.host.kernel)},
        {"bus_mode", text_or_null(b.host.bus_mode)},
        {"bus_clock_hz", integer(ios.is_null() ? value_at(b.registers, {"ios", "clock_hz"}) : value_at(ios, {"clock_hz"}))},
        {"bus_actual_clock_hz", integer(ios.is_null() ? value_at(b.registers, {"ios", "actual_clock_hz"}) : value_at(ios, {"actual_clock_hz"}))},
        {"bus_width_bits", integer(ios.is_null() ? value_at(b.registers, {"ios", "bus_width_bits"}) : value_at(ios, {"bus_width_bits"}))},
        {"tool_version", tool_version(b.tools)},
        {"tools", b.tools.is_object() && !b.tools.empty() ? document(b.tools) : SqlValue{}},
        {"parameters", parameters},
        {"seq_read_mb_s", number(res.seq_read_mb_s)},
        {"seq_write_mb_s", number(res.seq_write_mb_s)},
        {"rand_read_iops_1k", iops(res.rand_read_iops, "1k")},
        {"rand_read_iops_4k", iops(res.rand_read_iops, "4k")},
        {"rand_read_iops_16k", iops(res.rand_read_iops, "16k")},
        {"rand_write_iops_1k", iops(res.rand_write_iops, "1k")},
        {"rand_write_iops_4k", iops(res.rand_write_iops, "4k")},
        {"rand_write_iops_16k", iops(res.rand_write_iops, "16k")},
        {"error", text_or_null(b.error)},
        {"precondition", precondition},
        {"probe", document(value_at(doc, {"probe"}))},
        {"bundle", text_in},
        {"probe_page_size", geo ? size(geo->page_size) : SqlValue{}},
        {"probe_au_size", geo ? size(geo->au_size) : SqlValue{}},
        {"probe_open_aus", geo ? size(geo->open_aus) : SqlValue{}},
        {"probe_confidence", geo ? text_or_null(geo->confidence) : SqlValue{}},
        {"capacity_verdict", cap ? text_or_null(cap->verdict.text()) : SqlValue{}},
        {"capacity_announced_bytes", cap ? size(cap->announced_bytes) : SqlValue{}},
        {"capacity_usable_bytes", cap ? size(cap->usable_bytes) : SqlValue{}},
        {"state_seq_write_used_mb_s", st ? number(st->seq_write_used_mb_s) : SqlValue{}},
        {"state_seq_write_erased_mb_s", st ? number(st->seq_write_erased_mb_s) : SqlValue{}},
        {"state_rand_write_used_iops", st ? number(st->rand_write_used_iops) : SqlValue{}},
        {"state_rand_write_erased_iops", st ? number(st->rand_write_erased_iops) : SqlValue{}},
        {"state_summary", st ? text_or_null(st->summary) : SqlValue{}},
        {"attachment", text_or_null(b.attachment)},
        {"card_sectors", size(b.card.sectors)},
        {"partition_table_id", text_or_null(b.card.partition_table_id)},
        {"reader_chip", text(value_at(b.reader, {"chip"}))},
        {"reader_usb_id", text(value_at(b.reader, {"usb_id"}))},
        {"reader_driver", text(value_at(b.reader, {"driver"}))},
        {"reader_speed_mbit", number(value_at(b.reader, {"speed_mbit"}))},
        {"reader_ceiling_mb_s", number(value_at(b.reader, {"ceiling_mb_s"}))},
        {"tune_bus_before_mode", tb ? text_or_null(tb->before_mode) : SqlValue{}},
        {"tune_bus_before_clock_hz", tb ? size(tb->before_clock_hz) : SqlValue{}},
        {"tune_bus_before_mb_s", tb ? number(tb->before_mb_s) : SqlValue{}},
        {"tune_bus_chosen_mode", tb ? text_or_null(tb->chosen_mode) : SqlValue{}},
        {"tune_bus_chosen_clock_hz", tb ? size(tb->chosen_clock_hz) : SqlValue{}},
        {"tune_bus_chosen_mb_s", tb ? number(tb->chosen_mb_s) : SqlValue{}},
        {"tune_bus_live_trials", tb ? SqlValue{int64_t{tb->live_trials}} : SqlValue{}},
        {"tune_bus_trials", tb ? SqlValue{static_cast<int64_t>(tb->trials)} : SqlValue{}},
        {"tune_bus_rejected", tb ? SqlValue{static_cast<int64_t>(tb->rejected)} : SqlValue{}},
        {"tune_bus_restored", tb && tb->restored ? SqlValue{int64_t{*tb->restored}} : SqlValue{}},
        {"tune_queue_before_scheduler", tq ? text_or_null(tq->before_scheduler) : SqlValue{}},
        {"tune_queue_before_read_ahead_kb", tq ? size(tq->before_read_ahead_kb) : SqlValue{}},
        {"tune_queue_scheduler", tq ? text_or_null(tq->scheduler) : SqlValue{}},
        {"tune_queue_read_ahead_kb", tq ? size(tq->read_ahead_kb) : SqlValue{}},
        {"tune_queue_verdict", tq ? text_or_null(tq->verdict) : SqlValue{}},
        {"tune", document(b.tune)},
    };
    for (const auto& v : b.verdicts)
        r.verdicts.push_back({v.claim, number(v.required), number(v.measured), text_or_null(v.unit.text()), v.result.text(), text_or_null(v.why),
                              number(v.bus_ceiling_mb_s)});
    r.jobs = job_rows(b.bench);
    return r;
}

} // namespace mmc::report
