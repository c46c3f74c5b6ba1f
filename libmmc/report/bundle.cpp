#include "report/bundle.h"
#include "report/json_or_null.h"

#include "cli/input.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace mmc::report {

std::string_view to_string(VerdictResult result)
{
    switch (result) {
    case VerdictResult::pass: return "pass";
    case VerdictResult::fail: return "fail";
    case VerdictResult::not_applicable: return "not-applicable";
    case VerdictResult::other: break;
    }
    return "";
}

std::string_view to_string(VerdictUnit unit)
{
    switch (unit) {
    case VerdictUnit::mb_s: return "MB/s";
    case VerdictUnit::iops: return "IOPS";
    case VerdictUnit::other: break;
    }
    return "";
}

std::string_view to_string(BundleKind kind)
{
    switch (kind) {
    case BundleKind::measured: return "measured";
    case BundleKind::imported: return "imported";
    case BundleKind::other: break;
    }
    return "";
}

std::string_view to_string(CapacityVerdict verdict)
{
    switch (verdict) {
    case CapacityVerdict::good: return "good";
    case CapacityVerdict::limbo: return "limbo";
    case CapacityVerdict::wraparound: return "wraparound";
    case CapacityVerdict::chain: return "chain";
    case CapacityVerdict::bad: return "bad";
    case CapacityVerdict::other: break;
    }
    return "";
}

std::string_view to_string(CardType type)
{
    switch (type) {
    case CardType::sd: return "SD";
    case CardType::mmc: return "MMC";
    case CardType::other: break;
    }
    return "";
}

bool Results::empty() const
{
    return !seq_read_mb_s && !seq_write_mb_s && rand_read_iops.empty() && rand_write_iops.empty();
}

namespace {

// What no SD or MMC card reaches, with room to spare: SD Express over PCIe
// 4.0 x2 tops out near 4 GB/s and a few hundred thousand IOPS; SDUC's
// largest capacity is 128 TB (2^47 bytes).
constexpr double max_mb_s = 10'000;
constexpr double max_iops = 10'000'000;
constexpr double max_capacity_bytes = 281474976710656.0; // 2^48

json iops_json(const std::map<std::string, double>& iops)
{
    json j = json::object();
    for (const auto key : iops_keys) {
        const auto it = iops.find(std::string(key));
        if (it != iops.end()) j[std::string(key)] = it->second;
    }
    return j;
}

// Readers that take what is there and note what has the wrong type.
class Reader {
public:
    explicit Reader(std::vector<std::string>& warnings) : warnings_(warnings) {}

    std::string text(const json& obj, const char* key, const std::string& where)
    {
        if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return {};
        if (obj[key].is_string()) return obj[key].get<std::string>();
        if (obj[key].is_number()) return obj[key].dump();
        warn(where, key, "a string");
        return {};
    }

    std::optional<double> number(const json& obj, const char* key, const std::string& where)
    {
        if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return std::nullopt;
        if (obj[key].is_number()) return obj[key].get<double>();
        warn(where, key, "a number");
        return std::nullopt;
    }

    // A figure that can be true of an SD/MMC card: finite, not negative, at
    // most max. Anything else is dropped with a warning, never drawn.
    std::optional<double> figure(const json& obj, const char* key, const std::string& where, double max, const char* unit)
    {
        const auto v = number(obj, key, where);
        if (!v) return v;
        const std::string name = where.empty() ? key : where + "." + key;
        if (!std::isfinite(*v)) return drop(name, "is not a finite number");
        if (*v < 0) return drop(name, fmt::format("{} {} is negative", *v, unit));
        if (*v > max) return drop(name, fmt::format("{:g} {} is more than any SD/MMC card reaches ({:g} {})", *v, unit, max, unit));
        return v;
    }

    const json* object(const json& obj, const char* key, const std::string& where)
    {
        if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return nullptr;
        if (obj[key].is_object()) return &obj[key];
        warn(where, key, "an object");
        return nullptr;
    }

    const json* array(const json& obj, const char* key, const std::string& where)
    {
        if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return nullptr;
        if (obj[key].is_array()) return &obj[key];
        warn(where, key, "an array");
        return nullptr;
    }

    void note(std::string text) { warnings_.push_back(std::move(text)); }

private:
    std::optional<double> drop(const std::string& name, const std::string& why)
    {
        warnings_.push_back(fmt::format("{}: {}; ignored", name, why));
        return std::nullopt;
    }
    void warn(const std::string& where, const char* key, const char* want)
    {
        warnings_.push_back(fmt::format("{}{}: not {}; ignored", where.empty() ? "" : where + ".", key, want));
    }
    std::vector<std::string>& warnings_;
};

void read_iops(Reader& r, const json& results, const char* key, std::map<std::string, double>& out)
{
    const json* j = r.object(results, key, "results");
    if (!j) return;
    for (const auto size : iops_keys) {
        const std::string k(size);
        if (auto v = r.figure(*j, k.c_str(), fmt::format("results.{}", key), max_iops, "IOPS")) out[k] = *v;
    }
    for (const auto& [k, v] : j->items()) {
        bool known = false;
        for (const auto size : iops_keys) known = known || k == size;
        if (!known) r.note(fmt::format("results.{}.{}: not a block size this report shows (1k, 4k, 16k); ignored", key, k));
    }
}

json part(const json& doc, const char* key)
{
    return doc.contains(key) ? doc[key] : json(nullptr);
}

} // namespace

std::string card_cid(const Bundle& b)
{
    const json* regs = b.registers.is_object() && b.registers.contains("registers") ? &b.registers["registers"] : nullptr;
    if (!regs || !regs->is_object() || !regs->contains("cid")) return {};
    const json& cid = (*regs)["cid"];
    return cid.is_object() && cid.contains("hex") && cid["hex"].is_string() ? cid["hex"].get<std::string>() : std::string();
}

json to_json(const Bundle& b)
{
    json j;
    j["format"] = bundle_format;
    j["format_version"] = bundle_format_version;
    j["kind"] = b.kind.text();
    j["created"] = b.created;
    const auto& c = b.card;
    j["card"] = {{"label", c.label},
                 {"manufacturer", c.manufacturer},
                 {"product", c.product},
                 {"serial", c.serial},
                 {"capacity_bytes", json_or_null(c.capacity_bytes)},
                 {"type", c.type.text()},
                 {"classes",
                  {{"speed_class", c.classes.speed_class},
                   {"uhs_speed_grade", c.classes.uhs_speed_grade},
                   {"video_speed_class", c.classes.video_speed_class},
                   {"app_perf_class", c.classes.app_perf_class}}}};
    // Added later, written only when known: older bundles stay as they were.
    if (c.sectors) j["card"]["sectors"] = *c.sectors;
    if (!c.partition_table_id.empty()) j["card"]["partition_table_id"] = c.partition_table_id;
    if (c.label_given) j["card"]["label_given"] = true;
    j["host"] = {{"label", b.host.label}, {"controller", b.host.controller}, {"bus_mode", b.host.bus_mode}, {"kernel", b.host.kernel}};
    if (b.source) {
        const auto& s = *b.source;
        j["source"] = {{"title", s.title}, {"method", s.method}, {"units", s.units}, {"url", s.url}};
        if (!s.notes.empty()) j["source"]["notes"] = s.notes;
        if (!s.conversion.empty()) j["source"]["conversion"] = s.conversion;
        if (!s.results_as_published.is_null()) j["source"]["results_as_published"] = s.results_as_published;
        if (!s.row.is_null()) j["source"]["row"] = s.row;
    }
    json results = json::object();
    if (b.results.seq_read_mb_s) results["seq_read_mb_s"] = *b.results.seq_read_mb_s;
    if (b.results.seq_write_mb_s) results["seq_write_mb_s"] = *b.results.seq_write_mb_s;
    if (!b.results.rand_read_iops.empty()) results["rand_read_iops"] = iops_json(b.results.rand_read_iops);
    if (!b.results.rand_write_iops.empty()) results["rand_write_iops"] = iops_json(b.results.rand_write_iops);
    j["results"] = results;
    if (!b.error.empty()) j["error"] = b.error;
    json verdicts = json::array();
    for (const auto& v : b.verdicts)
        verdicts.push_back({{"claim", v.claim},
                            {"required", json_or_null(v.required)},
                            {"measured", json_or_null(v.measured)},
                            {"unit", v.unit.text()},
                            {"result", v.result.text()},
                            {"why", v.why}});
    for (std::size_t i = 0; i < b.verdicts.size(); ++i)
        if (b.verdicts[i].bus_ceiling_mb_s) verdicts[i]["bus_ceiling_mb_s"] = *b.verdicts[i].bus_ceiling_mb_s;
    j["verdicts"] = verdicts;
    if (!b.registers.is_null()) j["registers"] = b.registers;
    if (!b.bus.is_null()) j["bus"] = b.bus;
    if (!b.erase.is_null()) j["erase"] = b.erase;
    if (!b.bench.is_null()) j["bench"] = b.bench;
    if (!b.probe.is_null()) j["probe"] = b.probe;
    if (!b.health.is_null()) j["health"] = b.health;
    if (!b.attachment.empty()) {
        j["attachment"] = b.attachment;
        j["reader"] = b.reader;
    }
    json steps = json::array();
    for (const auto& s : b.steps) steps.push_back({{"name", s.name}, {"ok", s.ok}, {"message", s.message}});
    j["steps"] = steps;
    j["environment"] = b.environment.is_null() ? json::object() : b.environment;
    j["tools"] = b.tools.is_null() ? json::object() : b.tools;
    return j;
}

std::string duplicate_key_warning(const std::string& pointer)
{
    return fmt::format("{}: given twice; the last one is read, the first ignored (which is right is unknown)", pointer);
}

bool looks_like_bundle(const json& doc)
{
    return doc.is_object() && doc.contains("format") && doc["format"].is_string() && doc["format"] == bundle_format;
}

Bundle from_json(const json& doc)
{
    if (!doc.is_object()) throw NotABundle("not an mmckit bundle (not a JSON object)");
    if (!looks_like_bundle(doc)) {
        if (doc.contains("tool") && doc["tool"].is_string())
            throw NotABundle(fmt::format("not an mmckit bundle ({} output; mmc-report makes a bundle from it)",
                                         doc["tool"].get<std::string>()));
        throw NotABundle("not an mmckit bundle (no \"format\": \"mmckit-bundle\")");
    }
    Bundle b;
    Reader r(b.warnings);
    if (!doc.contains("format_version")) {
        r.note("no format_version; read as version 1");
    } else if (!doc["format_version"].is_number_integer()) {
        throw NotABundle("format_version is not an integer");
    } else if (doc["format_version"].get<int>() > bundle_format_version) {
        throw NotABundle(fmt::format("bundle format version {} is newer than this mmc-report reads ({})",
                                     doc["format_version"].get<int>(), bundle_format_version));
    }
    b.kind = read_word<BundleKind>(r.text(doc, "kind", ""));
    if (b.kind.empty()) b.kind = doc.contains("source") ? BundleKind::imported : BundleKind::measured;
    if (b.kind == BundleKind::other) r.note(fmt::format("kind: unknown kind '{}'", b.kind.text()));
    b.created = r.text(doc, "created", "");

    if (const json* c = r.object(doc, "card", "")) {
        b.card.label = r.text(*c, "label", "card");
        b.card.manufacturer = r.text(*c, "manufacturer", "card");
        b.card.product = r.text(*c, "product", "card");
        b.card.serial = r.text(*c, "serial", "card");
        if (auto cap = r.figure(*c, "capacity_bytes", "card", max_capacity_bytes, "bytes")) b.card.capacity_bytes = static_cast<uint64_t>(*cap);
        b.card.type = read_word<CardType>(r.text(*c, "type", "card"));
        if (const json* cl = r.object(*c, "classes", "card")) {
            b.card.classes.speed_class = r.text(*cl, "speed_class", "card.classes");
            b.card.classes.uhs_speed_grade = r.text(*cl, "uhs_speed_grade", "card.classes");
            b.card.classes.video_speed_class = r.text(*cl, "video_speed_class", "card.classes");
            b.card.classes.app_perf_class = r.text(*cl, "app_perf_class", "card.classes");
        }
        if (auto n = r.figure(*c, "sectors", "card", max_capacity_bytes / 512, "sectors")) b.card.sectors = static_cast<uint64_t>(*n);
        b.card.partition_table_id = r.text(*c, "partition_table_id", "card");
        b.card.label_given = c->contains("label_given") && (*c)["label_given"].is_boolean() && (*c)["label_given"].get<bool>();
    }
    if (b.card.label.empty()) {
        b.card.label = b.card.product.empty() ? "unnamed card"
                       : b.card.manufacturer.empty() ? b.card.product
                                                     : b.card.manufacturer + " " + b.card.product;
    }
    if (const json* h = r.object(doc, "host", "")) {
        b.host.label = r.text(*h, "label", "host");
        b.host.controller = r.text(*h, "controller", "host");
        b.host.bus_mode = r.text(*h, "bus_mode", "host");
        b.host.kernel = r.text(*h, "kernel", "host");
    }
    if (b.host.label.empty()) b.host.label = b.host.controller.empty() ? "unnamed host" : b.host.controller;

    if (const json* s = r.object(doc, "source", "")) {
        Source src;
        src.title = r.text(*s, "title", "source");
        src.method = r.text(*s, "method", "source");
        src.units = r.text(*s, "units", "source");
        src.url = r.text(*s, "url", "source");
        src.notes = r.text(*s, "notes", "source");
        src.conversion = r.text(*s, "conversion", "source");
        src.results_as_published = part(*s, "results_as_published");
        src.row = part(*s, "row");
        b.source = std::move(src);
    }
    if (const json* res = r.object(doc, "results", "")) {
        b.results.seq_read_mb_s = r.figure(*res, "seq_read_mb_s", "results", max_mb_s, "MB/s");
        b.results.seq_write_mb_s = r.figure(*res, "seq_write_mb_s", "results", max_mb_s, "MB/s");
        read_iops(r, *res, "rand_read_iops", b.results.rand_read_iops);
        read_iops(r, *res, "rand_write_iops", b.results.rand_write_iops);
    }
    b.error = r.text(doc, "error", "");
    if (const json* vs = r.array(doc, "verdicts", "")) {
        for (std::size_t i = 0; i < vs->size(); ++i) {
            const json& v = (*vs)[i];
            const std::string where = fmt::format("verdicts[{}]", i);
            if (!v.is_object()) {
                r.note(where + ": not an object; ignored");
                continue;
            }
            Verdict out;
            out.claim = r.text(v, "claim", where);
            out.required = r.figure(v, "required", where, max_iops, "(a verdict's figure)");
            out.measured = r.figure(v, "measured", where, max_iops, "(a verdict's figure)");
            out.unit = read_word<VerdictUnit>(r.text(v, "unit", where));
            out.result = read_word<VerdictResult>(r.text(v, "result", where));
            out.why = r.text(v, "why", where);
            out.bus_ceiling_mb_s = r.figure(v, "bus_ceiling_mb_s", where, max_mb_s, "MB/s");
            if (out.result == VerdictResult::other)
                r.note(fmt::format("{}: result '{}' is not pass, fail or not-applicable", where, out.result.text()));
            b.verdicts.push_back(std::move(out));
        }
    }
    if (const json* reg = r.object(doc, "registers", "")) b.registers = *reg;
    if (const json* bus = r.object(doc, "bus", "")) b.bus = *bus;
    if (const json* er = r.object(doc, "erase", "")) b.erase = *er;
    if (const json* be = r.array(doc, "bench", "")) b.bench = *be;
    if (const json* pr = r.object(doc, "probe", "")) b.probe = *pr;
    if (const json* he = r.object(doc, "health", "")) b.health = *he;
    b.attachment = r.text(doc, "attachment", "");
    if (const json* rd = r.object(doc, "reader", "")) b.reader = *rd;
    if (const json* steps = r.array(doc, "steps", "")) {
        for (std::size_t i = 0; i < steps->size(); ++i) {
            const json& s = (*steps)[i];
            const std::string where = fmt::format("steps[{}]", i);
            if (!s.is_object()) {
                r.note(where + ": not an object; ignored");
                continue;
            }
            Step step;
            step.name = r.text(s, "name", where);
            step.ok = s.contains("ok") && s["ok"].is_boolean() && s["ok"].get<bool>();
            step.message = r.text(s, "message", where);
            b.steps.push_back(std::move(step));
        }
    }
    if (const json* env = r.object(doc, "environment", "")) b.environment = *env;
    if (const json* tools = r.object(doc, "tools", "")) b.tools = *tools;
    read_tool_parts(b);
    return b;
}

namespace {

std::optional<uint64_t> bytes_of(Reader& r, const json& obj, const char* key, const std::string& where)
{
    const auto v = r.figure(obj, key, where, max_capacity_bytes, "bytes");
    return v ? std::optional<uint64_t>(static_cast<uint64_t>(*v)) : std::nullopt;
}

// The sustained suite's curve from one mmc-bench document; nothing when the
// document is of another suite or has no trace.
std::optional<SustainedCurve> read_sustained(Reader& r, const json& doc, std::size_t i)
{
    if (!doc.is_object() || !doc.contains("suite") || doc["suite"] != "sustained") return std::nullopt;
    const std::string where = fmt::format("bench[{}].sustained", i);
    const json* su = r.object(doc, "sustained", fmt::format("bench[{}]", i));
    if (!su) return std::nullopt;
    SustainedCurve c;
    if (const json* trace = r.array(*su, "trace", where))
        for (const auto& p : *trace) {
            if (c.points.size() == max_sustained_points) {
                r.note(fmt::format("{}.trace: more than {} points; the rest ignored", where, max_sustained_points));
                break;
            }
            const auto written = r.figure(p, "written", where + ".trace", max_capacity_bytes, "bytes");
            const auto mb_s = r.figure(p, "mb_s", where + ".trace", max_mb_s, "MB/s");
            if (written && mb_s) c.points.push_back({static_cast<uint64_t>(*written), *mb_s});
        }
    if (c.points.empty()) return std::nullopt;
    c.knee_bytes = bytes_of(r, *su, "slc_cache_bytes", where);
    c.burst_mb_s = r.figure(*su, "burst_mb_s", where, max_mb_s, "MB/s");
    c.sustained_mb_s = r.figure(*su, "sustained_mb_s", where, max_mb_s, "MB/s");
    c.worst_latency_ms = r.figure(*su, "worst_latency_ms", where, 3.6e6, "ms"); // an hour: no write takes longer
    if (const json* verdicts = r.array(*su, "verdicts", where))
        for (const auto& v : *verdicts) {
            const auto need = r.figure(v, "required", where + ".verdicts", max_mb_s, "MB/s");
            if (!need || (c.class_mb_s && *need <= *c.class_mb_s)) continue;
            c.class_mb_s = need;
            c.class_name = r.text(v, "claim", where + ".verdicts");
            if (const auto cut = c.class_name.find(" ("); cut != std::string::npos) c.class_name.resize(cut);
        }
    return c;
}

} // namespace

void read_tool_parts(Bundle& b)
{
    Reader r(b.warnings);
    b.geometry.reset();
    b.capacity.reset();
    b.state.reset();
    b.sustained.reset();
    b.health_figures.reset();
    if (const json* cards = r.array(b.health, "cards", "health"); cards && !cards->empty() && (*cards)[0].is_object()) {
        const json& card = (*cards)[0];
        HealthFigures h;
        h.verdict = r.text(card, "verdict", "health.cards[0]");
        if (const json* wear = r.array(card, "wear", "health.cards[0]"))
            for (const auto& w : *wear) {
                if (!w.is_object()) continue;
                const auto used = r.figure(w, "life_used_percent", "health.cards[0].wear", 1000, "percent");
                if (used && (!h.life_used_percent || *used > *h.life_used_percent)) {
                    h.life_used_percent = used;
                    h.life_source = r.text(w, "source", "health.cards[0].wear");
                }
            }
        if (!h.verdict.empty()) b.health_figures = h;
    }
    if (const json* g = r.object(b.probe, "geometry", "probe")) {
        ProbeGeometry geo;
        geo.page_size = bytes_of(r, *g, "page_size", "probe.geometry");
        geo.au_size = bytes_of(r, *g, "au_size", "probe.geometry");
        geo.open_aus = bytes_of(r, *g, "open_aus", "probe.geometry");
        geo.confidence = r.text(*g, "confidence", "probe.geometry");
        b.geometry = std::move(geo);
    }
    if (const json* c = r.object(b.probe, "capacity", "probe")) {
        ProbeCapacity cap;
        cap.verdict = read_word<CapacityVerdict>(r.text(*c, "verdict", "probe.capacity"));
        cap.announced_bytes = bytes_of(r, *c, "announced_bytes", "probe.capacity");
        cap.usable_bytes = bytes_of(r, *c, "usable_bytes", "probe.capacity");
        cap.module_bytes = bytes_of(r, *c, "module_bytes", "probe.capacity");
        cap.cache_bytes = bytes_of(r, *c, "cache_bytes", "probe.capacity");
        b.capacity = std::move(cap);
    }
    if (!b.bench.is_array()) return;
    for (std::size_t i = 0; i < b.bench.size(); ++i)
        if (auto curve = read_sustained(r, b.bench[i], i)) b.sustained = std::move(curve); // the last one wins
    for (std::size_t i = 0; i < b.bench.size(); ++i) {
        const json& doc = b.bench[i];
        if (!doc.is_object() || !doc.contains("suite") || doc["suite"] != "state") continue;
        const std::string where = fmt::format("bench[{}].state", i);
        const json* st = r.object(doc, "state", fmt::format("bench[{}]", i));
        if (!st) continue;
        StateComparison sc;
        if (const json* used = r.object(*st, "used", where)) {
            sc.seq_write_used_mb_s = r.figure(*used, "seq_write_mb_s", where + ".used", max_mb_s, "MB/s");
            sc.rand_write_used_iops = r.figure(*used, "rand_write_iops", where + ".used", max_iops, "IOPS");
        }
        if (const json* erased = r.object(*st, "erased", where)) {
            sc.seq_write_erased_mb_s = r.figure(*erased, "seq_write_mb_s", where + ".erased", max_mb_s, "MB/s");
            sc.rand_write_erased_iops = r.figure(*erased, "rand_write_iops", where + ".erased", max_iops, "IOPS");
        }
        if (const json* gain = r.object(*st, "gain", where)) {
            sc.seq_write_gain = r.figure(*gain, "seq_write", where + ".gain", max_iops, "x");
            sc.rand_write_gain = r.figure(*gain, "rand_write", where + ".gain", max_iops, "x");
        }
        sc.summary = r.text(*st, "summary", where);
        b.state = std::move(sc); // the last one wins, as for the results
    }
}

Bundle load_bundle(const std::filesystem::path& path)
{
    const std::string text = cli::read_file_capped(path, cli::json_input_cap, "bundle");
    json doc;
    std::vector<std::string> twice;
    try {
        doc = cli::parse_json_capped(text, &twice);
    } catch (const json::parse_error& e) {
        throw std::runtime_error(fmt::format("{}: not JSON ({})", path.string(), e.what()));
    } catch (const cli::InputError& e) {
        throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
    }
    Bundle b = from_json(doc);
    b.path = path.string();
    for (const auto& key : twice) b.warnings.push_back(duplicate_key_warning(key));
    return b;
}

std::string safe_name_part(std::string_view text, std::size_t max_length, std::string_view fallback)
{
    std::string out;
    bool dash = false;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.') {
            if (dash && !out.empty()) out += '-';
            dash = false;
            if (c == '.' && (out.empty() || out.back() == '.')) continue; // no leading dot, no ".."
            out += static_cast<char>(c);
        } else if (c >= 'A' && c <= 'Z') {
            if (dash && !out.empty()) out += '-';
            dash = false;
            out += static_cast<char>(c - 'A' + 'a');
        } else {
            dash = true;
        }
        if (out.size() >= max_length) break;
    }
    out.resize(std::min(out.size(), max_length));
    while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
    return out.empty() ? std::string(fallback) : out;
}

std::string bundle_file_name(const Bundle& b)
{
    std::string when;
    for (const char c : b.created)
        if ((c >= '0' && c <= '9') || c == 'T' || c == 'Z') when += c;
    if (when.empty()) when = "undated";
    when.resize(std::min<std::size_t>(when.size(), 20));
    return fmt::format("{}-{}-{}.json", safe_name_part(b.card.label, 48, "card"), safe_name_part(b.host.label, 48, "host"), when);
}

std::string iso8601_utc(int64_t seconds)
{
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace mmc::report
