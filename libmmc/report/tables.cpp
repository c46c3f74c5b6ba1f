#include "report/tables.h"

#include "cli/size.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace mmc::report {

bool Group::has_sequential(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (bundles[i].results.seq_read_mb_s || bundles[i].results.seq_write_mb_s) return true;
    return false;
}

bool Group::has_random(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (!bundles[i].results.rand_read_iops.empty() || !bundles[i].results.rand_write_iops.empty()) return true;
    return false;
}

bool Group::has_verdicts(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (!bundles[i].verdicts.empty()) return true;
    return false;
}

bool Group::has_probe(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (bundles[i].geometry || bundles[i].capacity) return true;
    return false;
}

bool Group::has_health(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (bundles[i].health_figures) return true;
    return false;
}

std::vector<HealthHistory> health_histories(const Report& rep, const Group& g)
{
    std::vector<HealthHistory> out;
    std::vector<std::string> keys;
    std::vector<std::vector<std::pair<std::string, const HealthFigures*>>> by_key; // full time, for the order
    for (int i : g.members) {
        const Bundle& b = rep.bundles[i];
        if (!b.health_figures) continue;
        const std::string key = b.card.label + "\n" + b.card.serial;
        auto at = std::find(keys.begin(), keys.end(), key) - keys.begin();
        if (at == static_cast<std::ptrdiff_t>(keys.size())) {
            keys.push_back(key);
            by_key.emplace_back();
            out.push_back({b.card.label, {}});
        }
        by_key[at].emplace_back(b.created, &*b.health_figures);
    }
    for (std::size_t k = 0; k < out.size(); ++k) {
        auto& rs = by_key[k];
        std::stable_sort(rs.begin(), rs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [created, h] : rs) out[k].readings.push_back({created.substr(0, 10), h});
    }
    return out;
}

std::string life_used_text(const HealthFigures& h)
{
    return h.life_used_percent ? fmt::format("{:g}%", *h.life_used_percent) : std::string(missing_text);
}

bool Group::has_tune(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (bundles[i].tune_bus || bundles[i].tune_queue) return true;
    return false;
}

bool Group::has_state(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (bundles[i].state) return true;
    return false;
}

bool Group::has_sustained(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (bundles[i].sustained) return true;
    return false;
}

std::string Group::member_label(std::size_t member) const { return cards[row_of[member]] + " @ " + hosts[column_of[member]]; }

std::optional<double> verdict_ceiling(const Bundle& b, const Verdict& v)
{
    if (v.bus_ceiling_mb_s) return v.bus_ceiling_mb_s;
    if (b.bus.is_object() && b.bus.contains("ceiling_mb_s") && b.bus["ceiling_mb_s"].is_number())
        return b.bus["ceiling_mb_s"].get<double>();
    return std::nullopt;
}

std::string verdict_result_text(const Verdict& v, std::optional<double> ceiling)
{
    if (v.result.empty()) return missing_text;
    if (v.result != VerdictResult::not_applicable) return v.result.text();
    // mmc-bench's words for it; and a requirement in MB/s above the ceiling
    // is the bus's limit whatever an older bundle's "why" says.
    const bool bus_limited = v.why.rfind("bus-limited", 0) == 0 ||
                             (ceiling && v.unit == VerdictUnit::mb_s && v.required && *v.required > *ceiling);
    return bus_limited ? v.result.text() + " (bus-limited)" : v.result.text();
}

std::string bytes_text(std::optional<uint64_t> bytes) { return bytes ? cli::format_bytes(*bytes) : missing_text; }

std::string count_text(std::optional<uint64_t> n) { return n ? std::to_string(*n) : missing_text; }

std::string capacity_text(const std::optional<ProbeCapacity>& c)
{
    if (!c) return missing_text;
    if (c->verdict.empty()) return "no verdict";
    if (c->verdict == CapacityVerdict::good || !c->usable_bytes) return c->verdict.text();
    return fmt::format("{}: {} of {} usable", c->verdict.text(), cli::format_bytes(*c->usable_bytes), bytes_text(c->announced_bytes));
}

namespace {

// What a row of the report knows of its card: the identity of the bundle
// that opened it (its serial filled in later when it had none).
struct RowCard {
    std::string label, serial, cid, partition_table_id, attachment;
    std::optional<uint64_t> sectors;
    bool label_given = false;
    std::size_t card = 0; // which card: rows of one card share it
};

RowCard row_card(const Bundle& b)
{
    return {b.card.label, b.card.serial, card_cid(b), b.card.partition_table_id, b.attachment, b.card.sectors, b.card.label_given};
}

} // namespace

namespace {

bool same_card(const RowCard& x, const RowCard& y)
{
    // The CID is the card's own name: when both have one, it decides.
    if (!x.cid.empty() && !y.cid.empty()) return x.cid == y.cid;
    // A reader cannot read the CID. Labels the user gave both decide next.
    if (x.label_given && y.label_given) return x.label == y.label;
    // Else the exact size and the partition table's identifier together (a
    // size alone is shared by every card of a model, so it never decides alone).
    if (x.sectors && y.sectors && !x.partition_table_id.empty() && !y.partition_table_id.empty())
        return *x.sectors == *y.sectors && x.partition_table_id == y.partition_table_id;
    // Bundles that say none of these: the same label, and the same serial
    // unless one side has none.
    return x.label == y.label && (x.serial == y.serial || x.serial.empty() || y.serial.empty());
}

} // namespace

bool same_card(const Bundle& a, const Bundle& b) { return same_card(row_card(a), row_card(b)); }

Report build_report(std::vector<Bundle> bundles)
{
    Report r;
    r.bundles = std::move(bundles);
    std::map<std::string, std::size_t> group_of;
    std::vector<std::vector<RowCard>> rows;
    for (int i = 0; i < static_cast<int>(r.bundles.size()); ++i) {
        const Bundle& b = r.bundles[i];
        const bool imported = b.kind == BundleKind::imported && b.source;
        const std::string gkey = imported ? "imported\x1f" + b.source->title : "measured";
        auto [it, fresh] = group_of.try_emplace(gkey, r.groups.size());
        if (fresh) {
            Group g;
            g.kind = imported ? BundleKind::imported : BundleKind::measured;
            g.title = imported ? (b.source->title.empty() ? "Untitled study" : b.source->title) : "Measured with mmckit";
            if (imported) g.source = b.source;
            r.groups.push_back(std::move(g));
            rows.emplace_back();
        }
        Group& g = r.groups[it->second];
        auto& grows = rows[it->second];

        int col = -1;
        for (std::size_t c = 0; c < g.hosts.size(); ++c)
            if (g.hosts[c] == b.host.label) col = static_cast<int>(c);
        if (col < 0) {
            col = static_cast<int>(g.hosts.size());
            g.hosts.push_back(b.host.label);
            for (auto& row : g.cell) row.push_back(-1);
        }
        // The first row of the same card (same_card) with its cell on this
        // host free; a card seen before whose cells are taken (the same
        // host in a reader and in a slot) gets a row of its own, with the
        // card's label, beside its others.
        int row = -1;
        std::optional<std::size_t> known;
        const RowCard card = row_card(b);
        for (std::size_t k = 0; k < grows.size() && row < 0; ++k) {
            if (!same_card(grows[k], card)) continue;
            if (!known) known = k;
            if (g.cell[k][col] < 0) row = static_cast<int>(k);
        }
        if (row < 0) {
            row = static_cast<int>(grows.size());
            RowCard rc = card;
            if (known) {
                rc.card = grows[*known].card;
                rc.label = grows[*known].label;
            } else {
                for (const auto& other : grows) rc.card = std::max(rc.card, other.card + 1);
            }
            grows.push_back(rc);
            g.cell.emplace_back(g.hosts.size(), -1);
        } else if (grows[row].serial.empty()) {
            grows[row].serial = b.card.serial;
        }
        g.cell[row][col] = i;
        g.members.push_back(i);
        g.row_of.push_back(row);
        g.column_of.push_back(col);
    }
    for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
        auto& g = r.groups[gi];
        auto& grows = rows[gi];
        // Rows of one card together, in the order cards first appear.
        std::vector<std::size_t> order(grows.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::vector<std::size_t> first_row_of_card;
        for (std::size_t k = 0; k < grows.size(); ++k) {
            if (grows[k].card >= first_row_of_card.size()) first_row_of_card.resize(grows[k].card + 1, grows.size());
            first_row_of_card[grows[k].card] = std::min(first_row_of_card[grows[k].card], k);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return first_row_of_card[grows[a].card] < first_row_of_card[grows[b].card]; });
        std::vector<int> new_index(grows.size());
        for (std::size_t k = 0; k < order.size(); ++k) new_index[order[k]] = static_cast<int>(k);
        std::vector<RowCard> sorted_rows;
        std::vector<std::vector<int>> sorted_cells;
        for (const auto k : order) {
            sorted_rows.push_back(grows[k]);
            sorted_cells.push_back(g.cell[k]);
        }
        grows = std::move(sorted_rows);
        g.cell = std::move(sorted_cells);
        for (auto& rw : g.row_of) rw = new_index[rw];
    }
    // Unique row names: rows of one label get their serials when those tell
    // them apart, else their attachments when those do (one card in a
    // reader and in a slot), else numbers in order.
    for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
        const auto& grows = rows[gi];
        auto& cards = r.groups[gi].cards;
        for (std::size_t k = 0; k < grows.size(); ++k) {
            std::vector<std::size_t> same;
            for (std::size_t m = 0; m < grows.size(); ++m)
                if (grows[m].label == grows[k].label) same.push_back(m);
            std::string name = grows[k].label;
            if (same.size() > 1) {
                auto all_differ = [&](std::string RowCard::*field) {
                    for (std::size_t a = 0; a < same.size(); ++a)
                        for (std::size_t b = 0; b < same.size(); ++b)
                            if ((grows[same[a]].*field).empty() || (a != b && grows[same[a]].*field == grows[same[b]].*field)) return false;
                    return true;
                };
                if (all_differ(&RowCard::serial)) name += fmt::format(" (serial {})", grows[k].serial);
                else if (all_differ(&RowCard::attachment)) name += fmt::format(" ({})", grows[k].attachment);
                else name += fmt::format(" ({})", std::find(same.begin(), same.end(), k) - same.begin() + 1);
            }
            cards.push_back(name);
        }
    }
    return r;
}

std::vector<std::size_t> Group::in_row_order() const
{
    std::vector<std::size_t> order(members.size());
    for (std::size_t m = 0; m < order.size(); ++m) order[m] = m;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return row_of[a] < row_of[b]; });
    return order;
}

bool Group::has_attachments(const std::vector<Bundle>& bundles) const
{
    for (int i : members)
        if (!bundles[i].attachment.empty()) return true;
    return false;
}

std::string mb_s_text(std::optional<double> v)
{
    if (!v) return missing_text;
    if (*v >= 10000) return fmt::format("{:.0f}", *v);
    return fmt::format("{:.4g}", *v);
}

std::string iops_text(std::optional<double> v)
{
    if (!v) return missing_text;
    if (*v >= 1000) return fmt::format("{:.0f}", *v);
    return fmt::format("{:.4g}", *v);
}

std::string value_with_unit(std::optional<double> v, const Word<VerdictUnit>& unit)
{
    if (!v) return missing_text;
    const std::string n = unit == VerdictUnit::iops ? iops_text(v) : mb_s_text(v);
    return unit.empty() ? n : n + " " + unit.text();
}

std::optional<double> rand_iops(const Results& r, bool write, std::string_view key)
{
    const auto& m = write ? r.rand_write_iops : r.rand_read_iops;
    const auto it = m.find(std::string(key));
    if (it == m.end()) return std::nullopt;
    return it->second;
}

std::string units_line(const Group& g)
{
    const std::string shown = "MB/s (10^6 bytes/s) and IOPS";
    if (!g.source || g.source->units.empty()) return "shown in " + shown;
    std::string line = fmt::format("published in {}; shown in {}", g.source->units, shown);
    if (!g.source->conversion.empty()) line += ": " + g.source->conversion;
    return line;
}

std::string classes_text(const Classes& c)
{
    std::string out;
    auto add = [&](const std::string& v, std::initializer_list<const char*> none) {
        if (v.empty()) return;
        for (const char* n : none)
            if (v == n) return;
        std::string s = v;
        if (s.rfind("Class ", 0) == 0) s = "C" + s.substr(6);
        out += (out.empty() ? "" : " ") + s;
    };
    add(c.speed_class, {"Class 0", "C0", "none"});
    add(c.uhs_speed_grade, {"U0", "none"});
    add(c.video_speed_class, {"not supported", "V0", "none"});
    add(c.app_perf_class, {"not supported", "A0", "none"});
    return out;
}

} // namespace mmc::report
