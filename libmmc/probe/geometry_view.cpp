#include "probe/geometry_view.h"

#include "cli/size.h"
#include "probe/measure.h"
#include "probe/words_view.h"
#include "version.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::probe {

using nlohmann::ordered_json;

namespace {

std::string size_or(const std::optional<uint64_t>& v, std::string_view none)
{
    return v ? cli::format_bytes(*v) : std::string(none);
}

ordered_json opt_json(const std::optional<uint64_t>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }
ordered_json opt_json(const std::optional<unsigned>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

ordered_json ladder_json(const Ladder& l, const Geometry& g)
{
    ordered_json j;
    j["read_bytes"] = l.read_bytes ? ordered_json(l.read_bytes) : ordered_json(nullptr);
    j["repeats"] = l.repeats ? ordered_json(l.repeats) : ordered_json(nullptr);
    j["noise_ns"] = l.noise_ns ? ordered_json(*l.noise_ns) : ordered_json(nullptr);
    j["noise_floor_ns"] = g.noise_floor_ns;
    j["threshold_ns"] = g.threshold_ns;
    j["rows"] = ordered_json::array();
    for (const auto& r : l.rows)
        j["rows"].push_back({{"align", r.align}, {"pre_ns", r.pre_ns}, {"on_ns", r.on_ns}, {"post_ns", r.post_ns},
                             {"diff_ns", r.diff_ns()}, {"positions", r.positions}});
    return j;
}

ordered_json open_au_json(const OpenAuResult& r)
{
    ordered_json j;
    j["linear"] = opt_json(r.linear);
    j["random"] = opt_json(r.random);
    j["tried_up_to"] = r.tried_up_to;
    j["start_area_special"] = r.start_area_special ? ordered_json(*r.start_area_special) : ordered_json(nullptr);
    j["trials"] = ordered_json::array();
    for (const auto& t : r.trials)
        j["trials"].push_back({{"mode", open_au_mode_name(t.mode)}, {"aus", t.aus}, {"offset", t.offset}, {"ns_per_write", t.ns_per_write},
                               {"bytes_per_s", t.bytes_per_s}, {"recheck", t.recheck}});
    j["bytes_written"] = r.bytes_written;
    j["restored"] = r.restored;
    j["notes"] = r.notes;
    if (!r.restore_error.empty()) j["restore_error"] = r.restore_error;
    return j;
}


} // namespace

std::optional<unsigned> open_count(const std::optional<OpenAuResult>& r)
{
    if (!r || (!r->linear && !r->random)) return std::nullopt;
    if (r->linear && r->random) return std::min(*r->linear, *r->random);
    return r->linear ? r->linear : r->random;
}

void print_geometry_text(const ProbedDevice* d, const GeometryReport& r, bool verbose)
{
    const auto& g = r.geometry;
    if (d) {
        if (d->card) {
            const auto& id = d->card->identity;
            fmt::print("Device:      {} ({} {}, {})\n", d->path, id.type, id.product.empty() ? id.name : id.product,
                       cli::format_bytes(id.capacity_bytes));
        } else if (d->in_reader) {
            fmt::print("Device:      {} ({})\n", d->path, d->not_card);
        } else {
            fmt::print("Device:      {} (not an MMC/SD card: {})\n", d->path, d->not_card);
        }
    } else {
        fmt::print("Source:      flashbench -a output ({})\n", *r.source_file == "-" ? "standard input" : *r.source_file);
    }
    std::string page = size_or(g.page_bytes, "no step found");
    if (g.multi_plane_bytes) page += fmt::format(" ({} read at once: multi-plane)", cli::format_bytes(*g.multi_plane_bytes));
    fmt::print("Page:        {}\n", page);
    fmt::print("AU:          {}\n", size_or(g.au_bytes, g.page_bytes || g.au_bytes ? "no step found" : "no boundary"));
    if (r.open) {
        const auto& x = *r.open;
        auto count = [&](const std::optional<unsigned>& v) {
            return v ? fmt::format("{}", *v) : fmt::format("at least {}", x.tried_up_to);
        };
        fmt::print("Open AUs:    {} (in order {}, random {})\n",
                   open_count(r.open) ? fmt::format("{}", *open_count(r.open)) : count(std::nullopt), count(x.linear),
                   count(x.random));
        fmt::print("Start area:  {}\n", x.start_area_special ? (*x.start_area_special ? "special (more AUs open at the card's start)" : "not special")
                                                              : "not measured");
    } else if (!r.source_file) {
        fmt::print("Open AUs:    not measured (--destructive writes to measure them)\n");
    }
    fmt::print("Confidence:  {}\n", confidence_name(g.confidence));
    fmt::print("Registers:   {}\n", cross_check_text(r.claims, g.au_bytes));
    fmt::print("Evidence:\n");
    for (const auto& e : g.evidence) fmt::print("  {}\n", e);
    for (const auto& n : r.notes) fmt::print("  note: {}\n", n);
    if (r.open) {
        fmt::print("Write speed (page-sized writes, round-robin over N AUs):\n");
        for (const auto& t : r.open->trials)
            fmt::print("  {:<12} {:>2} AU{} at {:>9}: {:>9}/s, {} per write{}\n", open_au_mode_name(t.mode), t.aus, t.aus == 1 ? " " : "s",
                       cli::format_bytes(t.offset), cli::format_bytes(static_cast<uint64_t>(t.bytes_per_s)),
                       microseconds_text(t.ns_per_write), t.recheck ? " (recheck)" : "");
        fmt::print("Written:     {} (test and restore); {}\n", cli::format_bytes(r.open->bytes_written),
                   r.open->restored ? "every block written back as it was" : "NOT restored: " + r.open->restore_error);
        for (const auto& n : r.open->notes) fmt::print("  note: {}\n", n);
    }
    if (verbose) {
        fmt::print("Ladder:\n  {:>12} {:>10} {:>10} {:>10} {:>10}\n", "align", "pre", "on", "post", "diff");
        auto rows = r.ladder.rows;
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.align < b.align; });
        for (const auto& row : rows)
            fmt::print("  {:>12} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}\n", cli::format_bytes(row.align), row.pre_ns / 1e3,
                       row.on_ns / 1e3, row.post_ns / 1e3, row.diff_ns() / 1e3);
        fmt::print("  (times in us)\n");
    }
    // A pasted ladder was not timed here: its reading time says nothing.
    if (d) fmt::print("Time:        {:.1f} s\n", r.seconds);
}

ordered_json geometry_json(const ProbedDevice* d, const GeometryReport& r)
{
    const auto& g = r.geometry;
    ordered_json j;
    j["tool"] = "mmc-probe";
    j["version"] = mmc::version;
    j["subcommand"] = "geometry";
    j["source"] = d ? "device" : "flashbench";
    j["device"] = d ? ordered_json(d->path) : ordered_json(nullptr);
    if (r.source_file) j["file"] = *r.source_file;
    if (d && d->card) j["card"] = dev::identity_json(d->card->identity);
    j["page_size"] = opt_json(g.page_bytes);
    j["multi_plane_size"] = opt_json(g.multi_plane_bytes);
    j["au_size"] = opt_json(g.au_bytes);
    j["open_aus"] = opt_json(open_count(r.open));
    j["confidence"] = confidence_name(g.confidence);
    auto evidence = g.evidence;
    for (const auto& n : r.notes) evidence.push_back("note: " + n);
    j["evidence"] = evidence;
    j["read_cache"] = {{"detected", r.read_cache.detected},
                       {"bytes", opt_json(r.read_cache.bytes)},
                       {"first_read_ns", r.read_cache.first_ns},
                       {"reread_ns", r.read_cache.again_ns}};
    j["registers"] = cross_check_json(r.claims, g.au_bytes);
    j["ladder"] = ladder_json(r.ladder, g);
    j["open_au_test"] = r.open ? open_au_json(*r.open) : ordered_json(nullptr);
    j["seconds"] = r.seconds;
    j["interrupted"] = r.interrupted;
    return j;
}

const char* interrupted_text(const GeometryReport& r)
{
    return r.open ? "interrupted; every block written was put back" : "interrupted; the ladder is incomplete";
}

} // namespace mmc::probe
