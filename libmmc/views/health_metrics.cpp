#include "views/health_metrics.h"

#include <fmt/format.h>
#include <map>

namespace mmc::out {

namespace {

std::string escape_label(std::string_view v)
{
    std::string s;
    for (char c : v) {
        if (c == '\\') s += "\\\\";
        else if (c == '"') s += "\\\"";
        else if (c == '\n') s += "\\n";
        else s += c;
    }
    return s;
}

// label="value" pairs joined by commas; a label without a value is left
// out (Prometheus reads an empty label as an absent one, and promtool's
// users as a mistake).
std::string label_set(std::initializer_list<std::pair<const char*, std::string_view>> labels)
{
    std::string s;
    for (const auto& [name, value] : labels)
        if (!value.empty()) s += fmt::format("{}{}=\"{}\"", s.empty() ? "" : ",", name, escape_label(value));
    return s;
}

std::string joined(const std::string& a, const std::string& b) { return a.empty() || b.empty() ? a + b : a + "," + b; }

// The old names stay one release, as renamed options do (README, "One
// command-line language").
std::string deprecated(const char* replacement)
{
    return fmt::format("Deprecated, removed in the next release: use {}.", replacement);
}

class Families {
public:
    void gauge(const std::string& name, const std::string& help, const std::string& labels, double value)
    {
        add(name, "gauge", help, labels, value);
    }
    void counter(const std::string& name, const std::string& help, const std::string& labels, double value)
    {
        add(name, "counter", help, labels, value);
    }
    std::string text() const
    {
        std::string out;
        for (const auto& [name, f] : families_) {
            out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, f.help, name, f.type);
            for (const auto& s : f.samples) out += s + "\n";
        }
        return out;
    }

private:
    struct Family {
        std::string type, help;
        std::vector<std::string> samples;
    };
    void add(const std::string& name, const char* type, const std::string& help, const std::string& labels, double value)
    {
        auto& f = families_[name];
        f.type = type;
        f.help = help;
        f.samples.push_back(labels.empty() ? fmt::format("{} {}", name, value) : fmt::format("{}{{{}}} {}", name, labels, value));
    }
    std::map<std::string, Family> families_; // sorted by name: stable output
};

void wear_metrics(Families& m, const std::string& l, const health::Wear& w)
{
    if (w.life_used_percent) {
        m.gauge("mmc_health_life_used_ratio",
                "Share of the rated endurance used, 1 being all of it (upper bound of the source's step; above 1 when the source says "
                "the rated life is exceeded)",
                l, *w.life_used_percent / 100);
        m.gauge("mmc_health_life_used_percent", deprecated("mmc_health_life_used_ratio"), l, *w.life_used_percent);
    }
    if (w.pre_eol) {
        for (auto state : {health::PreEol::normal, health::PreEol::warning, health::PreEol::urgent})
            m.gauge("mmc_health_pre_eol_state", "EXT_CSD PRE_EOL_INFO: 1 for the card's state (normal, warning, urgent), 0 for the others",
                    joined(l, label_set({{"state", to_string(state)}})), *w.pre_eol == state ? 1 : 0);
        m.gauge("mmc_health_pre_eol", deprecated("mmc_health_pre_eol_state") + " PRE_EOL_INFO: 1 normal, 2 warning, 3 urgent", l,
                static_cast<int>(*w.pre_eol) + 1);
    }
    if (w.spare_blocks_percent) {
        m.gauge("mmc_health_spare_blocks_ratio", "Share of spare blocks still available, 1 being all of them", l,
                *w.spare_blocks_percent / 100);
        m.gauge("mmc_health_spare_blocks_percent", deprecated("mmc_health_spare_blocks_ratio"), l, *w.spare_blocks_percent);
    }
    const std::string bad = "Bad blocks by kind (factory, runtime)";
    if (w.bad_blocks.factory) m.gauge("mmc_health_bad_blocks", bad, joined(l, "kind=\"factory\""), static_cast<double>(*w.bad_blocks.factory));
    if (w.bad_blocks.runtime) m.gauge("mmc_health_bad_blocks", bad, joined(l, "kind=\"runtime\""), static_cast<double>(*w.bad_blocks.runtime));
    const auto& e = w.erase_count;
    const std::string erases = "Erase counts of the card's blocks (min, avg, max); stat=\"total\" is " +
                               deprecated("mmc_health_block_erases_total");
    if (e.min) m.gauge("mmc_health_block_erases", erases, joined(l, "stat=\"min\""), static_cast<double>(*e.min));
    if (e.avg) m.gauge("mmc_health_block_erases", erases, joined(l, "stat=\"avg\""), *e.avg);
    if (e.max) m.gauge("mmc_health_block_erases", erases, joined(l, "stat=\"max\""), static_cast<double>(*e.max));
    if (e.total) {
        m.counter("mmc_health_block_erases_total", "Block erases the card counted over its life", l, static_cast<double>(*e.total));
        m.gauge("mmc_health_block_erases", erases, joined(l, "stat=\"total\""), static_cast<double>(*e.total));
    }
    // A rating of 0 is a source that does not know it: no series, rather
    // than a rating no flash has.
    if (w.rated_erase_cycles && *w.rated_erase_cycles > 0)
        m.gauge("mmc_health_rated_erase_cycles", "Erase cycles the flash is rated for", l, static_cast<double>(*w.rated_erase_cycles));
    if (w.power_cycles) {
        m.counter("mmc_health_power_cycles_total", "Power cycles the card counted over its life", l, static_cast<double>(*w.power_cycles));
        m.gauge("mmc_health_power_cycles", deprecated("mmc_health_power_cycles_total"), l, static_cast<double>(*w.power_cycles));
    }
    if (w.abnormal_power_losses) {
        m.counter("mmc_health_abnormal_power_losses_total", "Sudden power losses the card counted over its life", l,
                  static_cast<double>(*w.abnormal_power_losses));
        m.gauge("mmc_health_abnormal_power_losses", deprecated("mmc_health_abnormal_power_losses_total"), l,
                static_cast<double>(*w.abnormal_power_losses));
    }
    if (w.bytes_written) {
        m.counter("mmc_health_written_bytes_total", "Bytes written to the card, as it counts them, over its life", l,
                  static_cast<double>(*w.bytes_written));
        m.gauge("mmc_health_written_bytes", deprecated("mmc_health_written_bytes_total"), l, static_cast<double>(*w.bytes_written));
    }
}

} // namespace

std::string health_prometheus(const std::vector<CardHealth>& cards)
{
    Families m;
    m.gauge("mmc_health_cards", "Cards mmc-health read in this run (0: none, and no card series)", "", static_cast<double>(cards.size()));
    for (const auto& c : cards) {
        const std::string card = label_set({{"card", c.name}, {"device", c.device}});
        for (auto v : {health::Verdict::healthy, health::Verdict::worn, health::Verdict::end_of_life, health::Verdict::read_only,
                       health::Verdict::unknown})
            m.gauge("mmc_health_verdict", "1 for the card's verdict (healthy, worn, end_of_life, read_only, unknown), 0 for the others",
                    joined(card, label_set({{"verdict", to_string(v)}})), c.report.judgement.verdict == v ? 1 : 0);
        if (c.report.writability.writable)
            m.gauge("mmc_health_writable", "1 when the card's user area can be written now, 0 when not", card,
                    *c.report.writability.writable ? 1 : 0);
        for (const auto& r : c.report.readings) wear_metrics(m, joined(card, label_set({{"source", r.source}})), r.wear);
        if (const auto& canary = c.report.canary) {
            m.gauge("mmc_health_canary_ok", "1 when the write canary read back all it wrote, 0 when not", card,
                    canary->state == health::CanaryState::ok ? 1 : 0);
            m.gauge("mmc_health_canary_lost_bytes", "Bytes of the write canary acknowledged and not read back as written", card,
                    static_cast<double>(canary->lost));
        }
    }
    return m.text();
}

} // namespace mmc::out
