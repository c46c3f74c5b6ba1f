// The report model: bundles sorted into groups (one per published study,
// one for everything measured with mmckit), each a matrix of cards (rows)
// against hosts (columns), plus the card@host rows of the random-I/O table
// and the verdicts. The views (text, CSV, JSON, HTML) only format this.
#pragma once

#include "report/bundle.h"

#include <optional>
#include <string>
#include <vector>

namespace mmc::report {

// What a missing figure prints as, everywhere: never 0.
inline constexpr const char* missing_text = "\u2013"; // en dash

struct Group {
    std::string title; // the study's title, or "Measured with mmckit"
    BundleKind kind = BundleKind::measured; // imported or measured, never other
    std::optional<Source> source;   // the first member's, for imported groups
    std::vector<std::string> hosts; // columns, in order of first appearance
    std::vector<std::string> cards; // rows, in order of first appearance, made unique
    std::vector<std::vector<int>> cell; // [card][host]: index into Report::bundles, -1 for none
    std::vector<int> members;       // indices into Report::bundles, in file order
    std::vector<int> row_of;        // per member: its card row
    std::vector<int> column_of;     // per member: its host column

    bool has_sequential(const std::vector<Bundle>& bundles) const;
    bool has_random(const std::vector<Bundle>& bundles) const;
    bool has_verdicts(const std::vector<Bundle>& bundles) const;
    bool has_probe(const std::vector<Bundle>& bundles) const; // mmc-probe's geometry or capacity
    bool has_state(const std::vector<Bundle>& bundles) const; // the state comparison
    bool has_sustained(const std::vector<Bundle>& bundles) const; // the sustained suite's curve
    bool has_health(const std::vector<Bundle>& bundles) const; // mmc-health's verdict
    bool has_tune(const std::vector<Bundle>& bundles) const; // mmc-tune's bus or queue result
    bool has_attachments(const std::vector<Bundle>& bundles) const; // a bundle that says how its card was attached
    // Positions in members, ordered by their rows (file order within a
    // row): the views list members so, keeping one card's rows together.
    std::vector<std::size_t> in_row_order() const;
    // How the text and HTML views name a member in a row: "card @ host".
    std::string member_label(std::size_t member) const;
};

struct Report {
    std::vector<Bundle> bundles;
    std::vector<Group> groups;
};

// mmc-health's readings of one card (its label and serial) in a group,
// oldest first by the bundle's time: the text and HTML views show the
// latest and, for a card read more than once, its life used over time.
struct HealthHistory {
    std::string card; // the card's label
    struct Reading {
        std::string date; // YYYY-MM-DD of the bundle, "" when it has none
        const HealthFigures* health;
    };
    std::vector<Reading> readings;
};
std::vector<HealthHistory> health_histories(const Report& rep, const Group& g);
// "80%", or "–".
std::string life_used_text(const HealthFigures& h);

// Whether two bundles are of the same card: their CIDs when both have one;
// else the labels when the user gave both (--card-label); else the exact
// sector count and the partition table's identifier when both have them (a
// reader cannot read the CID, but the card's size and its disk identifier
// travel with it; a size alone is shared by every card of a model); else,
// as for bundles that record none of these, the same label and the same
// serial unless one side has none.
bool same_card(const Bundle& a, const Bundle& b);

// Groups bundles in the order given. A bundle goes to the first row of its
// card (same_card) whose cell on its host is free; two bundles of one card
// on one host (in a reader and in a slot) make two rows, so nothing is
// hidden, and the new row takes the card's label. Rows of one card are
// kept together; members stay in the order given (Group::in_row_order
// lists them by row).
// Rows of one label are told apart by their serials when all have
// different ones ("(serial 0x...)"), else by their attachments when those
// differ ("(USB 2.0 reader, usb-storage)"), else numbered "(1)", "(2)" in order.
Report build_report(std::vector<Bundle> bundles);

// Figures as tables print them: MB/s to 4 significant digits ("18.2",
// "0.982", "65"), IOPS whole from 1000 up ("1854", "219.5"), missing as "–".
std::string mb_s_text(std::optional<double> v);
std::string iops_text(std::optional<double> v);
// "1500 IOPS", "10 MB/s", "3 x" (a unit this version does not know, as
// written: a figure as MB/s are); "–" when missing.
std::string value_with_unit(std::optional<double> v, const Word<VerdictUnit>& unit);

// A card@host's figure, or nothing.
std::optional<double> rand_iops(const Results& r, bool write, std::string_view key);

// What a group's header says about units: "published in MiB/s; shown in MB/s
// (10^6 bytes/s): MiB/s x 1.048576".
std::string units_line(const Group& g);

// The bus ceiling beside a verdict: the one it was judged against, else
// the ceiling of the bundle's bus (bundles made before verdicts kept theirs).
std::optional<double> verdict_ceiling(const Bundle& b, const Verdict& v);
// A verdict's result as the tables print it: "not-applicable (bus-limited)"
// when the bus, not the card, is why it cannot be judged (the requirement
// is above the ceiling, or the figure is near it); else the result.
std::string verdict_result_text(const Verdict& v, std::optional<double> ceiling_mb_s);

// The probe's figures as tables print them: "16 KiB", "4 MiB"; "–" when missing.
std::string bytes_text(std::optional<uint64_t> bytes);
// "good", "limbo: 28 MiB of 256 MiB usable"; "–" without a capacity probe.
std::string capacity_text(const std::optional<ProbeCapacity>& c);
// "4" or "–" (a read-only probe does not count open AUs).
std::string count_text(std::optional<uint64_t> n);

// "C10 U1 V30 A1" from the classes a card claims ("" when none).
std::string classes_text(const Classes& c);

} // namespace mmc::report
