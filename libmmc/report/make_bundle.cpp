#include "report/make_bundle.h"
#include "report/tune_parts.h"

#include "cli/file_out.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "dev/system.h"
#include "version.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>

namespace mmc::report {

namespace {

// The value at a path of keys, or nullptr.
const json* find_at(const json& j, std::initializer_list<const char*> keys)
{
    const json* p = &j;
    for (const char* k : keys) {
        if (!p->is_object() || !p->contains(k)) return nullptr;
        p = &(*p)[k];
    }
    return p->is_null() ? nullptr : p;
}

std::string text_at(const json& j, std::initializer_list<const char*> keys)
{
    const json* p = find_at(j, keys);
    return p && p->is_string() ? p->get<std::string>() : std::string();
}

std::optional<double> number_at(const json& j, std::initializer_list<const char*> keys)
{
    const json* p = find_at(j, keys);
    if (p && p->is_number()) return p->get<double>();
    return std::nullopt;
}

std::string trim(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t' || s.back() == '\0'))
        s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    return s.substr(i);
}

// The card part of an mmc-info document: the document itself for one card
// (it has "registers"), else the first of its "cards" list.
const json& info_card(const json& info)
{
    if (info.contains("registers")) return info;
    if (const json* cards = find_at(info, {"cards"}); cards && cards->is_array() && !cards->empty()) return cards->front();
    return info;
}

// The host object of an mmc-bus document for the card's host ("mmc0"): the
// one of that name, the only one, or the first with a storage card.
json pick_bus_host(const json& bus, const std::string& card_host)
{
    if (bus.contains("ios") && !bus.contains("hosts")) return bus; // a host object on its own
    const json* hosts = find_at(bus, {"hosts"});
    if (!hosts || !hosts->is_array() || hosts->empty()) return nullptr;
    if (!card_host.empty())
        for (const auto& h : *hosts)
            if (text_at(h, {"host"}) == card_host) return h;
    if (hosts->size() == 1) return hosts->front();
    for (const auto& h : *hosts) {
        const std::string type = text_at(h, {"card_type"});
        if (type == "SD" || type == "MMC") return h;
    }
    return hosts->front();
}

} // namespace

ToolDoc read_tool_doc(const std::string& path, std::string_view tool)
{
    ToolDoc d;
    d.tool = std::string(tool);
    d.path = path;
    std::string text;
    try {
        text = cli::read_file_capped(path, cli::json_input_cap, "tool document");
    } catch (const cli::InputError& e) {
        d.error = e.what();
        return d;
    }
    if (trim(text).empty()) {
        d.error = fmt::format("{}: empty (did {} fail?)", path, tool);
        return d;
    }
    json doc;
    std::vector<std::string> twice;
    try {
        doc = cli::parse_json_capped(text, &twice);
    } catch (const json::parse_error&) {
        d.error = fmt::format("{}: not JSON (expected {} -J output)", path, tool);
        return d;
    } catch (const cli::InputError& e) {
        d.error = fmt::format("{}: {}", path, e.what());
        return d;
    }
    if (!twice.empty()) {
        // A bundle is a record: it must not keep one of two contradictory values.
        d.error = fmt::format("{}: {}{} given twice (is it {} -J output?)", path, twice.front(),
                              twice.size() > 1 ? fmt::format(" and {} more keys", twice.size() - 1) : "", tool);
        return d;
    }
    const std::string got = text_at(doc, {"tool"});
    if (got != tool) {
        d.error = got.empty() ? fmt::format("{}: not {} -J output (no \"tool\" key)", path, tool)
                              : fmt::format("{}: not {} -J output (\"tool\": \"{}\")", path, tool, got);
        return d;
    }
    d.doc = std::move(doc);
    return d;
}

Step parse_step(std::string_view text)
{
    const auto c1 = text.find(':');
    if (c1 == std::string_view::npos || c1 == 0)
        throw std::invalid_argument(fmt::format("step '{}': expected NAME:ok|fail:MESSAGE", text));
    const auto c2 = text.find(':', c1 + 1);
    const std::string_view status = text.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos : c2 - c1 - 1);
    Step s;
    s.name = std::string(text.substr(0, c1));
    if (status == "ok") s.ok = true;
    else if (status == "fail") s.ok = false;
    else throw std::invalid_argument(fmt::format("step '{}': status '{}' is not ok or fail", text, status));
    if (c2 != std::string_view::npos) s.message = std::string(text.substr(c2 + 1));
    return s;
}

Results results_from_bench(const std::vector<json>& docs)
{
    Results r;
    uint64_t best_read_bs = 0, best_write_bs = 0;
    for (const auto& doc : docs) {
        if (text_at(doc, {"suite"}) == "state") continue;
        const json* jobs = find_at(doc, {"jobs"});
        if (!jobs || !jobs->is_array()) continue;
        for (const auto& job : *jobs) {
            if (!job.is_object() || job.contains("error")) continue;
            const std::string rw = text_at(job, {"rw"});
            const auto bs = number_at(job, {"block_size"});
            const auto ios = number_at(job, {"ios"});
            if (!bs || *bs <= 0 || (ios && *ios <= 0)) continue;
            const auto block = static_cast<uint64_t>(*bs);
            if (rw == "read" || rw == "write") {
                const auto mb_s = number_at(job, {"mb_s"});
                if (!mb_s) continue;
                uint64_t& best = rw == "read" ? best_read_bs : best_write_bs;
                if (block >= best) {
                    best = block;
                    (rw == "read" ? r.seq_read_mb_s : r.seq_write_mb_s) = *mb_s;
                }
            } else if (rw == "randread" || rw == "randwrite") {
                const auto iops = number_at(job, {"iops"});
                const auto depth = number_at(job, {"iodepth"});
                if (!iops || (depth && *depth > 1)) continue; // the table is QD1
                for (std::size_t i = 0; i < iops_keys.size(); ++i)
                    if (block == iops_block_sizes[i])
                        (rw == "randread" ? r.rand_read_iops : r.rand_write_iops)[std::string(iops_keys[i])] = *iops;
            }
        }
    }
    return r;
}

std::string nominal_capacity(uint64_t bytes)
{
    const double gb = static_cast<double>(bytes) / 1e9;
    for (int k = -6; k <= 14; ++k) {
        const double p = std::ldexp(1.0, k);
        const double ratio = gb / p;
        if (ratio >= 0.85 && ratio <= 1.1) return k < 0 ? fmt::format("{}MB", static_cast<int>(p * 1024)) : fmt::format("{}GB", static_cast<int>(p));
    }
    return gb >= 1 ? fmt::format("{:.3g}GB", gb) : fmt::format("{:.3g}MB", gb * 1000);
}

std::string default_card_label(const CardInfo& c)
{
    std::string label;
    auto add = [&](const std::string& part) {
        if (part.empty()) return;
        label += (label.empty() ? "" : " ") + part;
    };
    if (c.manufacturer.rfind("unknown", 0) != 0) add(c.manufacturer);
    add(c.product);
    if (c.capacity_bytes) add(nominal_capacity(*c.capacity_bytes));
    if (label.empty()) label = "unknown card";
    return label;
}

Bundle make_bundle(const MakeInputs& in)
{
    Bundle b;
    b.kind = BundleKind::measured;
    b.created = in.created;
    b.steps = in.steps;
    b.environment = in.environment.is_null() ? json::object() : in.environment;
    b.tools = json::object();

    auto usable = [&](const std::optional<ToolDoc>& d) -> const json* {
        if (!d) return nullptr;
        if (!d->error.empty()) {
            b.steps.push_back({"load " + d->tool, false, d->error});
            return nullptr;
        }
        b.tools[d->tool] = text_at(d->doc, {"version"});
        return &d->doc;
    };
    const json* info = usable(in.info);
    const json* bus = usable(in.bus);
    const json* erase = usable(in.erase);
    std::vector<json> bench;
    for (const auto& d : in.bench) {
        if (!d.error.empty()) {
            b.steps.push_back({"load " + d.tool, false, d.error});
            continue;
        }
        b.tools[d.tool] = text_at(d.doc, {"version"});
        bench.push_back(d.doc);
    }
    for (const auto& d : in.probe) {
        if (!d.error.empty()) {
            b.steps.push_back({"load " + d.tool, false, d.error});
            continue;
        }
        const std::string sub = probe_subcommand(d.doc);
        if (sub.empty()) {
            b.steps.push_back({"load mmc-probe", false, fmt::format("{}: neither geometry nor capacity output", d.path)});
            continue;
        }
        b.tools[d.tool] = text_at(d.doc, {"version"});
        if (b.probe.is_null()) b.probe = json::object();
        b.probe[sub] = d.doc;
    }
    for (const auto& d : in.tune) {
        if (!d.error.empty()) {
            b.steps.push_back({"load " + d.tool, false, d.error});
            continue;
        }
        const std::string sub = tune_subcommand(d.doc);
        if (sub.empty()) {
            b.steps.push_back({"load mmc-tune", false, fmt::format("{}: neither bus nor queue output", d.path)});
            continue;
        }
        b.tools[d.tool] = text_at(d.doc, {"version"});
        if (b.tune.is_null()) b.tune = json::object();
        b.tune[sub] = d.doc;
    }
    b.tools["mmc-report"] = mmc::version;

    // The card: mmc-info's registers first, then what mmc-bench knew.
    std::string card_host, card_type; // the type as the tools spell it ("sd" or "SD")
    if (info) {
        b.registers = *info;
        const json& c = info_card(*info);
        // The card identity object ("card": {...}, the same in every tool);
        // mmc-info before it kept those keys at the top level.
        const json* ident = find_at(c, {"card"});
        const json& who = ident && ident->is_object() ? *ident : c;
        card_host = text_at(who, {"host"});
        b.card.manufacturer = text_at(c, {"registers", "cid", "decoded", "manufacturer"});
        b.card.product = text_at(c, {"registers", "cid", "decoded", "product_name"});
        if (b.card.product.empty()) b.card.product = text_at(who, {ident ? "product" : "name"});
        b.card.serial = text_at(c, {"registers", "cid", "decoded", "serial_hex"});
        card_type = text_at(who, {"type"});
        std::optional<double> cap = number_at(c, {"registers", "ext_csd", "decoded", "capacity_bytes"});
        if (!cap) cap = number_at(c, {"registers", "csd", "decoded", "capacity_bytes"});
        if (!cap) cap = number_at(who, {"capacity_bytes"});
        if (cap && *cap > 0) b.card.capacity_bytes = static_cast<uint64_t>(*cap);
        b.card.classes.speed_class = text_at(c, {"registers", "ssr", "decoded", "speed_class"});
        b.card.classes.uhs_speed_grade = text_at(c, {"registers", "ssr", "decoded", "uhs_speed_grade"});
        b.card.classes.video_speed_class = text_at(c, {"registers", "ssr", "decoded", "video_speed_class"});
        b.card.classes.app_perf_class = text_at(c, {"registers", "ssr", "decoded", "app_perf_class"});
        if (!info->contains("registers"))
            b.steps.push_back({"load mmc-info", false,
                               fmt::format("{}: a card list without registers (run mmc-info -J DEVICE for one card)", in.info->path)});
    }
    for (const auto& doc : bench) {
        const json* c = find_at(doc, {"card"});
        if (!c) continue;
        if (b.card.product.empty()) b.card.product = text_at(*c, {"product"});
        if (card_type.empty()) card_type = text_at(*c, {"type"});
        if (!b.card.capacity_bytes)
            if (auto cap = number_at(*c, {"capacity_bytes"}); cap && *cap > 0) b.card.capacity_bytes = static_cast<uint64_t>(*cap);
        if (card_host.empty()) card_host = text_at(doc, {"bus", "host"});
    }
    if (card_type == "sd") card_type = "SD";
    if (card_type == "mmc") card_type = "MMC";
    b.card.type = read_word<CardType>(card_type);
    b.card.label = in.card_label.empty() ? default_card_label(b.card) : in.card_label;
    b.card.label_given = !in.card_label.empty();

    // The host: mmc-bus's diagnosis, then mmc-bench's bus, then mmc-info's controller.
    if (bus) b.bus = pick_bus_host(*bus, card_host);
    if (!b.bus.is_null()) {
        b.host.controller = text_at(b.bus, {"controller"});
        b.host.bus_mode = text_at(b.bus, {"ios", "mode"});
    }
    for (const auto& doc : bench) {
        if (b.host.controller.empty()) b.host.controller = text_at(doc, {"bus", "controller"});
        if (b.host.bus_mode.empty()) b.host.bus_mode = text_at(doc, {"bus", "mode"});
        if (b.host.kernel.empty()) b.host.kernel = text_at(doc, {"kernel"});
    }
    if (info && b.host.controller.empty()) {
        const json& c = info_card(*info);
        b.host.controller = text_at(c, {"host_controller", "driver"});
        if (b.host.controller.empty()) b.host.controller = text_at(c, {"controller", "driver"});
    }
    if (b.host.kernel.empty()) b.host.kernel = text_at(b.environment, {"kernel"});
    if (!in.host_label.empty()) {
        b.host.label = in.host_label;
    } else {
        std::string machine = text_at(b.environment, {"machine"});
        if (machine.empty()) machine = text_at(b.environment, {"hostname"});
        if (machine.empty()) machine = b.host.controller.empty() ? "unknown host" : b.host.controller;
        b.host.label = b.host.bus_mode.empty() ? machine : machine + ", " + b.host.bus_mode;
    }

    if (erase) b.erase = *erase;
    if (!bench.empty()) {
        b.bench = json::array();
        for (const auto& doc : bench) b.bench.push_back(doc);
        b.results = results_from_bench(bench);
        for (const auto& doc : bench) {
            const json* vs = find_at(doc, {"verdicts"});
            if (!vs || !vs->is_array()) continue;
            for (const auto& v : *vs) {
                if (!v.is_object()) continue;
                Verdict out;
                out.claim = text_at(v, {"claim"});
                out.required = number_at(v, {"required"});
                out.measured = number_at(v, {"measured"});
                out.unit = read_word<VerdictUnit>(text_at(v, {"unit"}));
                out.result = read_word<VerdictResult>(text_at(v, {"result"}));
                out.why = text_at(v, {"why"});
                out.bus_ceiling_mb_s = number_at(v, {"bus_ceiling_mb_s"});
                if (!out.bus_ceiling_mb_s) out.bus_ceiling_mb_s = number_at(doc, {"bus", "ceiling_mb_s"});
                b.verdicts.push_back(std::move(out));
            }
        }
    }
    read_tool_parts(b);
    return b;
}

std::string probe_subcommand(const json& doc)
{
    // geometry says "subcommand", capacity "command".
    for (const char* key : {"subcommand", "command"}) {
        const std::string sub = text_at(doc, {key});
        if (sub == "geometry" || sub == "capacity") return sub;
    }
    return {};
}

WrittenBundle write_bundle_file(const std::string& dir_name, const Bundle& bundle, const json& doc)
{
    namespace fs = std::filesystem;
    const fs::path dir(dir_name);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(fmt::format("{}: {}", dir_name, ec.message()));
    std::string name = bundle_file_name(bundle);
    const std::string stem = name.substr(0, name.size() - 5);
    for (int n = 2; fs::exists(dir / name); ++n) name = fmt::format("{}-{}.json", stem, n);
    const fs::path path = dir / name;
    const auto text = cli::dump_json(doc);
    cli::write_output_file(path, text.text + "\n");
    return {path.string(), text.replaced_at};
}

json collect_environment(const std::string& root)
{
    const auto h = dev::read_host_facts(root.empty() ? "/" : root);
    json env = json::object();
    env["hostname"] = h.hostname;
    env["machine"] = h.machine;
    if (!h.kernel.empty()) {
        env["kernel"] = h.kernel;
        env["arch"] = h.arch;
    }
    env["os"] = h.os;
    env["cpu_model"] = h.cpu_model;
    return env;
}

} // namespace mmc::report
