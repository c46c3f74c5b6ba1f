// A bundle's JSON, both ways. One description of its fields (bundle_fields
// and the lists it calls: each key, its member, how it is read and when it
// is written, in the order written) drives both to_json, through
// FieldWriter, and from_json, through FieldReader, which reads with the
// tolerant JsonReader; what only one direction does (the format's checks,
// defaults for missing labels, notes on unknown words) is in the
// description's `if constexpr (is_reading<V>)` blocks, where it happens.
#include "report/bundle.h"
#include "report/json_or_null.h"
#include "report/json_reader.h"
#include "report/tune_parts.h"

#include "cli/input.h"

#include <fmt/format.h>
#include <type_traits>
#include <utility>

namespace mmc::report {

namespace {

json iops_json(const std::map<std::string, double>& iops)
{
    json j = json::object();
    for (const auto key : iops_keys) {
        const auto it = iops.find(std::string(key));
        if (it != iops.end()) j[std::string(key)] = it->second;
    }
    return j;
}

void read_iops(JsonReader& r, const json& results, const char* key, std::map<std::string, double>& out)
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

// When a field is written (reading takes it whenever it is there):
// always (an unknown figure as null), only when set (not empty, not
// unknown, not false, not null), always as an object ({} when null), or
// not at all (a field written only beside another).
enum class Write { always, if_set, as_object, never };
// What a kept part of the document must be: an object, an array, or
// anything (kept as it is, null included).
enum class Shape { object, array, any };

// Writes the fields into one JSON object.
class FieldWriter {
public:
    static constexpr bool reads = false;
    explicit FieldWriter(json& obj) : obj_(obj) {}

    void text(const char* key, const std::string& s, Write w = Write::always)
    {
        if (w == Write::always || (w == Write::if_set && !s.empty())) obj_[key] = s;
    }
    template <typename Enum>
    void word(const char* key, const Word<Enum>& v) { obj_[key] = v.text(); }
    // A figure (double) or a count (uint64_t); the reader's limits are not the writer's business.
    template <typename T>
    void figure(const char* key, const std::optional<T>& v, double, const char*, Write w = Write::always)
    {
        if (w == Write::always) obj_[key] = json_or_null(v);
        else if (w == Write::if_set && v) obj_[key] = *v;
    }
    void flag(const char* key, bool v, Write w = Write::always)
    {
        if (w == Write::always || (w == Write::if_set && v)) obj_[key] = v;
    }
    void part(const char* key, const json& v, Shape, Write w)
    {
        if (w == Write::always || (w == Write::if_set && !v.is_null())) obj_[key] = v;
        else if (w == Write::as_object) obj_[key] = v.is_null() ? json::object() : v;
    }
    void iops(const char* key, const std::map<std::string, double>& v)
    {
        if (!v.empty()) obj_[key] = iops_json(v);
    }
    template <typename T, typename Fields>
    void object(const char* key, const T& v, Fields fields)
    {
        json sub = json::object();
        FieldWriter w(sub);
        fields(w, v);
        obj_[key] = sub;
    }
    template <typename T, typename Fields>
    void optional_object(const char* key, const std::optional<T>& v, Fields fields)
    {
        if (v) object(key, *v, fields);
    }
    template <typename T, typename Fields>
    void list(const char* key, const std::vector<T>& v, Fields fields)
    {
        json items = json::array();
        for (const auto& item : v) {
            json sub = json::object();
            FieldWriter w(sub);
            fields(w, item);
            items.push_back(sub);
        }
        obj_[key] = items;
    }

private:
    json& obj_;
};

// Reads the fields out of one JSON object at `where`, with the warnings of JsonReader.
class FieldReader {
public:
    static constexpr bool reads = true;
    FieldReader(JsonReader& r, const json& obj, std::string where) : r_(r), obj_(obj), where_(std::move(where)) {}

    JsonReader& reader() { return r_; }
    const std::string& where() const { return where_; }
    bool has(const char* key) const { return obj_.contains(key); }

    void text(const char* key, std::string& s, Write = Write::always) { s = r_.text(obj_, key, where_); }
    template <typename Enum>
    void word(const char* key, Word<Enum>& v) { v = read_word<Enum>(r_.text(obj_, key, where_)); }
    void figure(const char* key, std::optional<double>& v, double max, const char* unit, Write = Write::always)
    {
        v = r_.figure(obj_, key, where_, max, unit);
    }
    void figure(const char* key, std::optional<uint64_t>& v, double max, const char* unit, Write = Write::always)
    {
        if (auto n = r_.figure(obj_, key, where_, max, unit)) v = static_cast<uint64_t>(*n);
    }
    void flag(const char* key, bool& v, Write = Write::always)
    {
        v = obj_.contains(key) && obj_[key].is_boolean() && obj_[key].get<bool>();
    }
    void part(const char* key, json& v, Shape shape, Write)
    {
        if (shape == Shape::any) {
            v = obj_.contains(key) ? obj_[key] : json(nullptr);
            return;
        }
        const json* p = shape == Shape::object ? r_.object(obj_, key, where_) : r_.array(obj_, key, where_);
        if (p) v = *p;
    }
    void iops(const char* key, std::map<std::string, double>& v) { read_iops(r_, obj_, key, v); }
    template <typename T, typename Fields>
    void object(const char* key, T& v, Fields fields)
    {
        if (const json* sub = r_.object(obj_, key, where_)) {
            FieldReader inner(r_, *sub, where_.empty() ? key : where_ + "." + key);
            fields(inner, v);
        }
    }
    template <typename T, typename Fields>
    void optional_object(const char* key, std::optional<T>& v, Fields fields)
    {
        if (const json* sub = r_.object(obj_, key, where_)) {
            T item;
            FieldReader inner(r_, *sub, where_.empty() ? key : where_ + "." + key);
            fields(inner, item);
            v = std::move(item);
        }
    }
    // Each element an object; another is noted and skipped.
    template <typename T, typename Fields>
    void list(const char* key, std::vector<T>& v, Fields fields)
    {
        const json* items = r_.array(obj_, key, where_);
        if (!items) return;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const json& sub = (*items)[i];
            const std::string at = fmt::format("{}{}[{}]", where_.empty() ? "" : where_ + ".", key, i);
            if (!sub.is_object()) {
                r_.note(at + ": not an object; ignored");
                continue;
            }
            T item;
            FieldReader inner(r_, sub, at);
            fields(inner, item);
            v.push_back(std::move(item));
        }
    }

private:
    JsonReader& r_;
    const json& obj_;
    std::string where_;
};

template <typename V>
constexpr bool is_reading = std::remove_reference_t<V>::reads;

// The description. Each takes a FieldWriter and a const member, or a
// FieldReader and the member to fill.

constexpr auto classes_fields = [](auto& v, auto& c) {
    v.text("speed_class", c.speed_class);
    v.text("uhs_speed_grade", c.uhs_speed_grade);
    v.text("video_speed_class", c.video_speed_class);
    v.text("app_perf_class", c.app_perf_class);
};

constexpr auto card_fields = [](auto& v, auto& c) {
    v.text("label", c.label);
    v.text("manufacturer", c.manufacturer);
    v.text("product", c.product);
    v.text("serial", c.serial);
    v.figure("capacity_bytes", c.capacity_bytes, max_capacity_bytes, "bytes");
    v.word("type", c.type);
    v.object("classes", c.classes, classes_fields);
    // Added later, written only when known: older bundles stay as they were.
    v.figure("sectors", c.sectors, max_capacity_bytes / 512, "sectors", Write::if_set);
    v.text("partition_table_id", c.partition_table_id, Write::if_set);
    v.flag("label_given", c.label_given, Write::if_set);
};

constexpr auto host_fields = [](auto& v, auto& h) {
    v.text("label", h.label);
    v.text("controller", h.controller);
    v.text("bus_mode", h.bus_mode);
    v.text("kernel", h.kernel);
};

constexpr auto source_fields = [](auto& v, auto& s) {
    v.text("title", s.title);
    v.text("method", s.method);
    v.text("units", s.units);
    v.text("url", s.url);
    v.text("notes", s.notes, Write::if_set);
    v.text("conversion", s.conversion, Write::if_set);
    v.part("results_as_published", s.results_as_published, Shape::any, Write::if_set);
    v.part("row", s.row, Shape::any, Write::if_set);
};

constexpr auto results_fields = [](auto& v, auto& r) {
    v.figure("seq_read_mb_s", r.seq_read_mb_s, max_mb_s, "MB/s", Write::if_set);
    v.figure("seq_write_mb_s", r.seq_write_mb_s, max_mb_s, "MB/s", Write::if_set);
    v.iops("rand_read_iops", r.rand_read_iops);
    v.iops("rand_write_iops", r.rand_write_iops);
};

constexpr auto verdict_fields = [](auto& v, auto& out) {
    v.text("claim", out.claim);
    v.figure("required", out.required, max_iops, "(a verdict's figure)");
    v.figure("measured", out.measured, max_iops, "(a verdict's figure)");
    v.word("unit", out.unit);
    v.word("result", out.result);
    v.text("why", out.why);
    v.figure("bus_ceiling_mb_s", out.bus_ceiling_mb_s, max_mb_s, "MB/s", Write::if_set);
    if constexpr (is_reading<decltype(v)>) {
        if (out.result == VerdictResult::other)
            v.reader().note(fmt::format("{}: result '{}' is not pass, fail or not-applicable", v.where(), out.result.text()));
    }
};

constexpr auto step_fields = [](auto& v, auto& step) {
    v.text("name", step.name);
    v.flag("ok", step.ok);
    v.text("message", step.message);
};

// The bundle after "format" and "format_version".
constexpr auto bundle_fields = [](auto& v, auto& b) {
    v.word("kind", b.kind);
    if constexpr (is_reading<decltype(v)>) {
        if (b.kind.empty()) b.kind = v.has("source") ? BundleKind::imported : BundleKind::measured;
        if (b.kind == BundleKind::other) v.reader().note(fmt::format("kind: unknown kind '{}'", b.kind.text()));
    }
    v.text("created", b.created);
    v.object("card", b.card, card_fields);
    if constexpr (is_reading<decltype(v)>) {
        if (b.card.label.empty()) {
            b.card.label = b.card.product.empty() ? "unnamed card"
                           : b.card.manufacturer.empty() ? b.card.product
                                                         : b.card.manufacturer + " " + b.card.product;
        }
    }
    v.object("host", b.host, host_fields);
    if constexpr (is_reading<decltype(v)>) {
        if (b.host.label.empty()) b.host.label = b.host.controller.empty() ? "unnamed host" : b.host.controller;
    }
    v.optional_object("source", b.source, source_fields);
    v.object("results", b.results, results_fields);
    v.text("error", b.error, Write::if_set);
    v.list("verdicts", b.verdicts, verdict_fields);
    v.part("registers", b.registers, Shape::object, Write::if_set);
    v.part("bus", b.bus, Shape::object, Write::if_set);
    v.part("erase", b.erase, Shape::object, Write::if_set);
    v.part("bench", b.bench, Shape::array, Write::if_set);
    v.part("probe", b.probe, Shape::object, Write::if_set);
    v.part("health", b.health, Shape::object, Write::if_set);
    v.part("tune", b.tune, Shape::object, Write::if_set);
    // How the card was attached: the reader is written with it, null or not.
    v.text("attachment", b.attachment, Write::if_set);
    v.part("reader", b.reader, Shape::object, b.attachment.empty() ? Write::never : Write::always);
    v.list("steps", b.steps, step_fields);
    v.part("environment", b.environment, Shape::object, Write::as_object);
    v.part("tools", b.tools, Shape::object, Write::as_object);
};

} // namespace

json to_json(const Bundle& b)
{
    json j;
    j["format"] = bundle_format;
    j["format_version"] = bundle_format_version;
    FieldWriter w(j);
    bundle_fields(w, b);
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
    JsonReader r(b.warnings);
    if (!doc.contains("format_version")) {
        r.note("no format_version; read as version 1");
    } else if (!doc["format_version"].is_number_integer()) {
        throw NotABundle("format_version is not an integer");
    } else if (doc["format_version"].get<int>() > bundle_format_version) {
        throw NotABundle(fmt::format("bundle format version {} is newer than this mmc-report reads ({})",
                                     doc["format_version"].get<int>(), bundle_format_version));
    }
    FieldReader top(r, doc, "");
    bundle_fields(top, b);
    read_tool_parts(b);
    return b;
}

namespace {

std::optional<uint64_t> bytes_of(JsonReader& r, const json& obj, const char* key, const std::string& where)
{
    const auto v = r.figure(obj, key, where, max_capacity_bytes, "bytes");
    return v ? std::optional<uint64_t>(static_cast<uint64_t>(*v)) : std::nullopt;
}

// The sustained suite's curve from one mmc-bench document; nothing when the
// document is of another suite or has no trace.
std::optional<SustainedCurve> read_sustained(JsonReader& r, const json& doc, std::size_t i)
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
    JsonReader r(b.warnings);
    b.geometry.reset();
    b.capacity.reset();
    b.state.reset();
    b.sustained.reset();
    b.health_figures.reset();
    read_tune_parts(r, b);
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

} // namespace mmc::report
