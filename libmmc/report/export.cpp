#include "report/export.h"
#include "report/json_or_null.h"
#include "report/tune_view.h"

#include "version.h"

#include <fmt/format.h>

namespace mmc::report {

const std::vector<std::string> csv_columns = {
    "table",           "study",      "card",  "host", "seq_write_mb_s", "seq_read_mb_s", "rand_write_iops_1k",
    "rand_read_iops_1k", "rand_write_iops_4k", "rand_read_iops_4k", "rand_write_iops_16k", "rand_read_iops_16k",
    "error",           "claim",      "required", "measured", "unit", "result", "why", "bundle",
    // Added after "bundle" so that readers by position keep working.
    "bus_ceiling_mb_s", "page_size", "au_size", "open_aus", "probe_confidence", "capacity_verdict", "usable_bytes",
    "state_summary", "health_verdict", "life_used_percent", "life_source", "sustained_mb_s", "slc_cache_bytes", "worst_latency_ms",
    "attachment"};

namespace {

std::string num(std::optional<double> v) { return v ? fmt::format("{}", *v) : std::string(); }

std::string num(std::optional<uint64_t> v) { return v ? std::to_string(*v) : std::string(); }

json probe_json(const Bundle& b)
{
    if (!b.geometry && !b.capacity) return nullptr;
    json j;
    if (b.geometry)
        j["geometry"] = {{"page_size", json_or_null(b.geometry->page_size)},
                         {"au_size", json_or_null(b.geometry->au_size)},
                         {"open_aus", json_or_null(b.geometry->open_aus)},
                         {"confidence", b.geometry->confidence.empty() ? json(nullptr) : json(b.geometry->confidence)}};
    else
        j["geometry"] = nullptr;
    if (b.capacity)
        j["capacity"] = {{"verdict", b.capacity->verdict.empty() ? json(nullptr) : json(b.capacity->verdict.text())},
                         {"announced_bytes", json_or_null(b.capacity->announced_bytes)},
                         {"usable_bytes", json_or_null(b.capacity->usable_bytes)},
                         {"module_bytes", json_or_null(b.capacity->module_bytes)},
                         {"cache_bytes", json_or_null(b.capacity->cache_bytes)}};
    else
        j["capacity"] = nullptr;
    return j;
}

json state_json(const Bundle& b)
{
    if (!b.state) return nullptr;
    const auto& s = *b.state;
    return {{"seq_write_mb_s", {{"used", json_or_null(s.seq_write_used_mb_s)}, {"erased", json_or_null(s.seq_write_erased_mb_s)}, {"gain", json_or_null(s.seq_write_gain)}}},
            {"rand_write_iops", {{"used", json_or_null(s.rand_write_used_iops)}, {"erased", json_or_null(s.rand_write_erased_iops)}, {"gain", json_or_null(s.rand_write_gain)}}},
            {"summary", s.summary}};
}

// mmc-health's reading in the bundle, as mmc-report reads it out.
json health_json(const Bundle& b)
{
    if (!b.health_figures) return nullptr;
    const auto& h = *b.health_figures;
    return {{"verdict", h.verdict.empty() ? json(nullptr) : json(h.verdict)},
            {"life_used_percent", json_or_null(h.life_used_percent)},
            {"life_source", h.life_source.empty() ? json(nullptr) : json(h.life_source)}};
}

// The sustained suite's figures (its curve is the HTML report's picture).
json sustained_json(const Bundle& b)
{
    if (!b.sustained) return nullptr;
    const auto& s = *b.sustained;
    return {{"burst_mb_s", json_or_null(s.burst_mb_s)},
            {"slc_cache_bytes", json_or_null(s.knee_bytes)},
            {"sustained_mb_s", json_or_null(s.sustained_mb_s)},
            {"worst_latency_ms", json_or_null(s.worst_latency_ms)}};
}

json iops_obj(const Results& r, bool write)
{
    json j = json::object();
    for (const auto key : iops_keys) j[std::string(key)] = json_or_null(rand_iops(r, write, key));
    return j;
}

std::string csv_line(const std::vector<std::string>& fields)
{
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
    return line + "\r\n";
}

} // namespace

std::string csv_field(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csv_report(const Report& rep)
{
    std::string out = csv_line(csv_columns);
    for (const auto& g : rep.groups) {
        for (const std::size_t m : g.in_row_order()) {
            const Bundle& b = rep.bundles[g.members[m]];
            const std::string& card = g.cards[g.row_of[m]];
            const std::string& host = g.hosts[g.column_of[m]];
            std::vector<std::string> f{"results", g.title, card, host, num(b.results.seq_write_mb_s), num(b.results.seq_read_mb_s)};
            for (const auto key : iops_keys) {
                f.push_back(num(rand_iops(b.results, true, key)));
                f.push_back(num(rand_iops(b.results, false, key)));
            }
            f.insert(f.end(), {b.error, "", "", "", "", "", "", b.path, ""});
            const auto& geo = b.geometry;
            f.insert(f.end(), {geo ? num(geo->page_size) : "", geo ? num(geo->au_size) : "", geo ? num(geo->open_aus) : "",
                               geo ? geo->confidence : "", b.capacity ? b.capacity->verdict.text() : "",
                               b.capacity ? num(b.capacity->usable_bytes) : "", b.state ? b.state->summary : ""});
            const auto& h = b.health_figures;
            f.insert(f.end(), {h ? h->verdict : "", h ? num(h->life_used_percent) : "", h ? h->life_source : ""});
            const auto& su = b.sustained;
            f.insert(f.end(), {su ? num(su->sustained_mb_s) : "", su ? num(su->knee_bytes) : "", su ? num(su->worst_latency_ms) : ""});
            f.push_back(b.attachment);
            out += csv_line(f);
        }
        for (const std::size_t m : g.in_row_order()) {
            const Bundle& b = rep.bundles[g.members[m]];
            for (const auto& v : b.verdicts) {
                std::vector<std::string> f{"verdicts", g.title, g.cards[g.row_of[m]], g.hosts[g.column_of[m]]};
                f.resize(12);
                f.insert(f.end(), {"", v.claim, num(v.required), num(v.measured), v.unit.text(), v.result.text(), v.why, b.path,
                                   num(verdict_ceiling(b, v))});
                f.resize(csv_columns.size());
                out += csv_line(f);
            }
        }
    }
    return out;
}

json json_report(const Report& rep, const std::vector<std::string>& warnings)
{
    json doc;
    doc["tool"] = "mmc-report";
    doc["version"] = mmc::version;
    json bundles = json::array();
    for (const auto& b : rep.bundles)
        bundles.push_back({{"path", b.path},
                           {"kind", b.kind.text()},
                           {"card", b.card.label},
                           {"host", b.host.label},
                           {"created", b.created},
                           {"warnings", b.warnings}});
    doc["bundles"] = bundles;
    json groups = json::array();
    for (const auto& g : rep.groups) {
        json jg;
        jg["title"] = g.title;
        jg["kind"] = to_string(g.kind);
        if (g.source)
            jg["source"] = {{"title", g.source->title},     {"method", g.source->method}, {"units", g.source->units},
                            {"conversion", g.source->conversion}, {"url", g.source->url},   {"notes", g.source->notes}};
        else
            jg["source"] = nullptr;
        jg["hosts"] = g.hosts;
        jg["cards"] = g.cards;
        for (const bool write : {false, true}) {
            json matrix = json::array();
            for (std::size_t r = 0; r < g.cards.size(); ++r) {
                json row = json::array();
                for (std::size_t c = 0; c < g.hosts.size(); ++c) {
                    const int i = g.cell[r][c];
                    row.push_back(i < 0 ? json(nullptr)
                                        : json_or_null(write ? rep.bundles[i].results.seq_write_mb_s : rep.bundles[i].results.seq_read_mb_s));
                }
                matrix.push_back(row);
            }
            jg[write ? "seq_write_mb_s" : "seq_read_mb_s"] = matrix;
        }
        json results = json::array(), verdicts = json::array(), failed = json::array();
        for (const std::size_t m : g.in_row_order()) {
            const Bundle& b = rep.bundles[g.members[m]];
            const std::string& card = g.cards[g.row_of[m]];
            const std::string& host = g.hosts[g.column_of[m]];
            json row = {{"card", card},
                        {"host", host},
                        {"seq_write_mb_s", json_or_null(b.results.seq_write_mb_s)},
                        {"seq_read_mb_s", json_or_null(b.results.seq_read_mb_s)},
                        {"rand_write_iops", iops_obj(b.results, true)},
                        {"rand_read_iops", iops_obj(b.results, false)},
                        {"error", b.error.empty() ? json(nullptr) : json(b.error)},
                        {"bundle", b.path}};
            if (b.source && !b.source->results_as_published.is_null()) row["as_published"] = b.source->results_as_published;
            row["probe"] = probe_json(b);
            row["state"] = state_json(b);
            row["health"] = health_json(b);
            row["sustained"] = sustained_json(b);
            row["tune"] = tune_json(b);
            // How the card was attached; null when the bundle does not say.
            row["attachment"] = b.attachment.empty() ? json(nullptr) : json(b.attachment);
            row["reader"] = b.reader;
            results.push_back(row);
            for (const auto& v : b.verdicts) {
                const auto ceiling = verdict_ceiling(b, v);
                verdicts.push_back({{"card", card},
                                    {"host", host},
                                    {"claim", v.claim},
                                    {"required", json_or_null(v.required)},
                                    {"measured", json_or_null(v.measured)},
                                    {"unit", v.unit.text()},
                                    {"result", v.result.text()},
                                    {"why", v.why},
                                    {"bus_ceiling_mb_s", json_or_null(ceiling)},
                                    {"bus_limited", v.result == VerdictResult::not_applicable && verdict_result_text(v, ceiling) != v.result.text()}});
            }
            for (const auto& s : b.steps)
                if (!s.ok) failed.push_back({{"card", card}, {"host", host}, {"name", s.name}, {"message", s.message}});
        }
        jg["results"] = results;
        jg["verdicts"] = verdicts;
        jg["failed_steps"] = failed;
        groups.push_back(jg);
    }
    doc["groups"] = groups;
    doc["warnings"] = warnings;
    return doc;
}

} // namespace mmc::report
