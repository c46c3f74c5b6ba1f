#include "views/erase_view.h"

#include "cli/printable.h"
#include "cli/progress.h"
#include "cli/size.h"

#include <array>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace mmc::out {

namespace {

using erase::Edge;
using erase::EdgeAction;
using erase::Extent;

// "4 MiB (4194304 bytes)", "3.44 KiB (3520 bytes)", "512 bytes"
std::string size_text(uint64_t bytes) { return cli::format_bytes_exact(bytes, cli::ExactCount::always); }

std::string extent_text(const Extent& e)
{
    return fmt::format("offset {}, {}", e.offset, size_text(e.length));
}

std::string edge_text(const Edge& e)
{
    if (e.action == EdgeAction::none) return "none";
    return fmt::format("{}: {}", erase::to_string(e.action), extent_text(e.extent));
}

std::string action_key(EdgeAction a)
{
    switch (a) {
    case EdgeAction::none: return "none";
    case EdgeAction::left_alone: return "left_alone";
    case EdgeAction::zeroed: return "zeroed";
    }
    return "none";
}

nlohmann::ordered_json edge_json(const Edge& e)
{
    return {{"offset", e.extent.offset}, {"length", e.extent.length}, {"action", action_key(e.action)}};
}

std::string rate_text(uint64_t bytes, double seconds)
{
    if (seconds <= 0) return "-";
    return fmt::format("{:.1f} MB/s", static_cast<double>(bytes) / seconds / 1e6);
}

// The text report's label for a zeroed edge: its word, capitalised ("Head:").
std::string edge_label(erase::ChunkKind kind)
{
    std::string label(erase::to_string(kind));
    label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    return label + ":";
}

} // namespace

std::string erase_plan_text(const erase::Prepared& p)
{
    const auto& t = p.target;
    const auto& plan = p.plan;
    std::string out;
    auto line = [&](std::string_view label, const std::string& text) { out += fmt::format("{:<12}{}\n", label, text); };

    std::string where;
    if (t.card)
        where = fmt::format("{}, {} on {}", t.card->name, t.caps.kind, t.card->host);
    else if (t.caps.usb_reader)
        where = t.caps.kind;
    else
        where = t.not_mmc.empty() ? "not an MMC/SD card" : t.not_mmc + ", not an MMC/SD card";
    line("Device:", fmt::format("{} ({})", t.path, where));
    if (t.is_partition)
        line("Partition:", fmt::format("{} of {}, from byte {} of the disk, {}", t.name, t.disk_path, t.start,
                                       size_text(t.size)));
    if (t.card) {
        std::string card = t.card->product.empty() ? "(no name)" : fmt::format("\"{}\"", cli::printable(t.card->product));
        if (!t.card->manufacturer.empty()) card += ", " + cli::printable(t.card->manufacturer);
        line("Card:", card);
        line("Serial:", t.card->serial.empty() ? "unknown" : cli::printable(t.card->serial));
        line("Capacity:", size_text(t.card->capacity_bytes));
    } else {
        line("Card:", "none (no card registers behind this device)");
        line("Capacity:", size_text(t.size));
    }
    line("Range:", extent_text(plan.range));
    line("Contents:", cli::printable(dev::volumes_text(p.contents)));
    line("Method:", fmt::format("{}: {}{}", erase::to_string(p.selection.method), p.command,
                                p.selection.why == erase::requested_method ? "" : fmt::format(" ({})", p.selection.why)));
    line("Erase unit:", fmt::format("{} ({})", cli::format_bytes_exact(p.unit.bytes), p.unit.source));
    if (plan.aligned.empty())
        line("Aligned:", "no whole erase unit in the range");
    else
        line("Aligned:", fmt::format("{} in {} chunk{} of at most {}", extent_text(plan.aligned), plan.chunks.size(),
                                     plan.chunks.size() == 1 ? "" : "s", cli::format_bytes_exact(plan.chunk_bytes)));
    line("Head:", edge_text(plan.head));
    line("Tail:", edge_text(plan.tail));
    line("Reads as:", [&] {
        const auto& o = p.outcome;
        if (o.zero_only) return fmt::format("0x00 ({})", o.basis);
        std::string s = o.declared ? fmt::format("0x{:02x} ({})", *o.declared, o.basis) : fmt::format("0x00 or 0xff ({})", o.basis);
        return s;
    }());
    for (const auto& w : p.warnings) out += fmt::format("Warning:    {}\n", w);
    return out;
}

std::string erase_report_text(const erase::Report& r)
{
    const auto& p = r.prepared;
    std::string out;
    auto line = [&](std::string_view label, const std::string& text) { out += fmt::format("{:<12}{}\n", label, text); };
    std::size_t chunks = 0;
    for (const auto& c : r.chunks) chunks += c.kind == erase::ChunkKind::chunk;

    if (r.interrupted)
        line("Interrupted:", fmt::format("erased {} of {}; the rest of the range is untouched",
                                         r.erased.length ? extent_text(r.erased) : "nothing", p.target.path));
    else if (!r.error.empty())
        line("Failed:", fmt::format("{}; erased {} before that", r.error,
                                    r.erased.length ? extent_text(r.erased) : "nothing"));
    else
        line("Erased:", fmt::format("{} of {}", extent_text(r.erased), p.target.path));
    line("Method:", fmt::format("{}: {}", erase::to_string(p.selection.method), p.command));
    line("Chunks:", fmt::format("{} of {} in {:.3f} s, {}", chunks, p.plan.chunks.size(), r.seconds,
                                rate_text(r.erased.length, r.seconds)));
    for (const auto& c : r.chunks)
        if (c.kind != erase::ChunkKind::chunk) line(edge_label(c.kind), fmt::format("zeroed, {}", extent_text(c.extent)));
    if (r.verify) {
        const auto& v = *r.verify;
        line("Verify:", fmt::format("{} ({}, {} checked): expected {}; found {}", erase::to_string(v.result),
                                    erase::to_string(v.mode), cli::format_bytes_exact(v.bytes_checked), v.expected, v.found));
        for (const auto& d : v.details) out += fmt::format("            - {}\n", d);
    }
    for (const auto& w : r.warnings)
        if (w.rfind("verify: ", 0) != 0) out += fmt::format("Warning:    {}\n", w);
    return out;
}

std::string erase_progress_line(const erase::Progress& p)
{
    const double pct = p.total_bytes ? 100.0 * static_cast<double>(p.done_bytes) / static_cast<double>(p.total_bytes) : 100;
    return fmt::format("  {} of {}  {:3.0f}%  {}  {}", cli::format_bytes(p.done_bytes), cli::format_bytes(p.total_bytes),
                       pct, rate_text(p.done_bytes, p.seconds),
                       cli::eta_text(static_cast<double>(p.done_bytes), static_cast<double>(p.total_bytes), p.seconds));
}

nlohmann::ordered_json erase_json(const erase::Prepared& p, const erase::Report* r)
{
    using nlohmann::ordered_json;
    const auto& t = p.target;
    const auto& plan = p.plan;
    ordered_json doc;
    doc["device"] = t.path;
    doc["dry_run"] = r == nullptr;
    doc["target"] = {{"name", t.name},
                     {"disk", t.disk_path},
                     {"partition", t.is_partition},
                     {"start", t.start},
                     {"size_bytes", t.size},
                     {"kind", t.card || t.caps.usb_reader ? t.caps.kind : t.not_mmc},
                     {"usb_reader", t.caps.usb_reader}};
    if (t.card) {
        const auto& c = *t.card;
        doc["card"] = dev::identity_json(c);
    } else {
        doc["card"] = nullptr;
    }
    ordered_json expected;
    if (p.outcome.zero_only || p.outcome.declared)
        expected = fmt::format("0x{:02x}", p.outcome.zero_only ? 0 : *p.outcome.declared);
    else
        expected = "0x00 or 0xff";
    doc["plan"] = {{"method", erase::to_string(p.selection.method)},
                   {"method_reason", p.selection.why},
                   {"command", p.command},
                   {"offset", plan.range.offset},
                   {"length", plan.range.length},
                   {"aligned_offset", plan.aligned.offset},
                   {"aligned_length", plan.aligned.length},
                   {"erase_unit", plan.erase_unit},
                   {"erase_unit_source", p.unit.source},
                   {"au_aligned", p.au_aligned},
                   {"partial_aus", {{"count", p.partial.count}, {"bytes", p.partial.bytes}}},
                   {"chunk_bytes", plan.chunk_bytes},
                   {"head", edge_json(plan.head)},
                   {"tail", edge_json(plan.tail)},
                   {"chunks", plan.chunks.size()},
                   {"expected", expected},
                   {"expected_basis", p.outcome.basis},
                   {"old_data_allowed", p.outcome.undefined}};
    auto& contents = doc["contents"] = ordered_json::array();
    for (const auto& v : p.contents)
        contents.push_back({{"device", v.device}, {"start", v.start}, {"size", v.size}, {"usage", v.usage},
                            {"type", v.type}, {"label", v.label}});

    auto& chunks = doc["chunks"] = ordered_json::array();
    std::size_t chunk_count = 0;
    if (r) {
        for (const auto& c : r->chunks) {
            ordered_json j = {{"offset", c.extent.offset}, {"length", c.extent.length}, {"seconds", c.seconds}};
            if (c.kind != erase::ChunkKind::chunk) j["what"] = erase::to_string(c.kind);
            chunk_count += c.kind == erase::ChunkKind::chunk;
            chunks.push_back(std::move(j));
        }
    }
    doc["erased"] = {{"offset", r ? r->erased.offset : plan.range.offset}, {"length", r ? r->erased.length : 0}};
    doc["interrupted"] = r ? r->interrupted : false;
    doc["error"] = r && !r->error.empty() ? ordered_json(r->error) : ordered_json(nullptr);
    if (r && r->verify) {
        const auto& v = *r->verify;
        doc["verify"] = {{"mode", erase::to_string(v.mode)},   {"expected", v.expected},
                         {"found", v.found},                    {"bytes_checked", v.bytes_checked},
                         {"result", erase::to_string(v.result)}, {"details", v.details}};
    } else {
        doc["verify"] = nullptr;
    }
    doc["warnings"] = r ? r->warnings : p.warnings;
    doc["notes"] = t.notes;
    const double seconds = r ? r->seconds : 0;
    const uint64_t bytes = r ? r->erased.length : 0;
    doc["summary"] = {{"method", erase::to_string(p.selection.method)},
                      {"bytes", bytes},
                      {"chunks", chunk_count},
                      {"chunks_planned", plan.chunks.size()},
                      {"seconds", seconds},
                      {"bytes_per_second", seconds > 0 ? static_cast<double>(bytes) / seconds : 0.0}};
    return doc;
}

} // namespace mmc::out
