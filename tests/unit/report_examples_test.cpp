// The shipped examples/: every study of tests/data/report/published-results.json
// (a copy of the corpus) comes back from the bundles as published, after the
// documented unit conversion and to the printed precision, in the study's
// order; the published figure stays recoverable; error rows are kept.
#include "report/export.h"
#include "report/load.h"
#include "report/tables.h"
#include "report/text.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace {

using namespace mmc::report;

const json& studies()
{
    static const json s = [] {
        std::ifstream in("tests/data/report/published-results.json");
        if (!in) throw std::runtime_error("cannot open tests/data/report/published-results.json (run from the repository root)");
        return json::parse(in)["studies"];
    }();
    return s;
}

const Report& examples()
{
    static const Report r = [] {
        Loaded l = load_paths({"examples"});
        if (l.bundles.empty()) throw std::runtime_error("no bundles in examples/ (run from the repository root)");
        return build_report(std::move(l.bundles));
    }();
    return r;
}

const Group* group(const std::string& title)
{
    for (const auto& g : examples().groups)
        if (g.title == title) return &g;
    return nullptr;
}

// The documented conversions to MB/s.
constexpr double mib = 1.048576, kib = 1.024e-3;

// The figure a table prints for the published one, and back.
void expect_mb_s(std::optional<double> got, double want, double factor, double published, int published_decimals, const std::string& what)
{
    ASSERT_TRUE(got) << what;
    EXPECT_NEAR(*got, want, 1e-6) << what;
    const std::string printed = mb_s_text(got);
    EXPECT_EQ(printed, mb_s_text(want)) << what;
    // The printed figure leads back to the published one, within what the
    // printed and the published digits can say.
    const auto dot = printed.find('.');
    const int printed_decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
    const double slack = 0.5 * std::pow(10.0, -printed_decimals) / factor + 0.5 * std::pow(10.0, -published_decimals);
    EXPECT_LE(std::abs(std::stod(printed) / factor - published), slack) << what << ": printed " << printed;
}

TEST(ReportExamples, EveryStudyIsAGroupInOrder)
{
    const auto& r = examples();
    ASSERT_EQ(r.groups.size(), studies().size());
    for (std::size_t i = 0; i < studies().size(); ++i) {
        const auto& study = studies()[i];
        const Group& g = r.groups[i];
        EXPECT_EQ(g.title, study["title"]);
        EXPECT_EQ(g.kind, BundleKind::imported);
        ASSERT_TRUE(g.source);
        EXPECT_EQ(g.source->method, study["method"]);
        EXPECT_EQ(g.source->units, study["units"]);
        EXPECT_EQ(g.source->notes, study.value("notes", ""));
        ASSERT_EQ(g.members.size(), study["results"].size()) << g.title;
        for (std::size_t k = 0; k < g.members.size(); ++k) {
            const auto& row = study["results"][k];
            const Bundle& b = r.bundles[g.members[k]];
            std::string label = row["card"];
            if (row.contains("size")) label += " " + row["size"].get<std::string>();
            EXPECT_EQ(b.card.label, label);
            EXPECT_EQ(b.host.label, row["host"]);
            EXPECT_EQ(b.kind.value, BundleKind::imported);
            EXPECT_TRUE(b.registers.is_null()) << "a study has no registers";
            EXPECT_EQ(b.source->row, row) << "the row is kept verbatim";
            EXPECT_EQ(g.cell[g.row_of[k]][g.column_of[k]], g.members[k]);
        }
    }
}

TEST(ReportExamples, OlpcMiBPerSecond)
{
    const auto& study = studies()[0];
    const Group* g = group(study["title"]);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->hosts, (std::vector<std::string>{"Transcend M3", "ASUS Eee PC", "OLPC XO"}));
    EXPECT_EQ(g->cards.size(), 5u);
    for (std::size_t k = 0; k < g->members.size(); ++k) {
        const auto& row = study["results"][k];
        const Bundle& b = examples().bundles[g->members[k]];
        for (const char* rw : {"read", "write"}) {
            const double pub = row[std::string("seq_") + rw + "_mib_s"];
            const auto got = std::string(rw) == "read" ? b.results.seq_read_mb_s : b.results.seq_write_mb_s;
            expect_mb_s(got, pub * mib, mib, pub, 2, b.card.label + " @ " + b.host.label + " " + rw);
            EXPECT_EQ(b.source->results_as_published[std::string("seq_") + rw]["value"], pub);
            EXPECT_EQ(b.source->results_as_published[std::string("seq_") + rw]["unit"], "MiB/s");
        }
    }
}

TEST(ReportExamples, SfLugMegabytesPerSecondAsPublished)
{
    const auto& study = studies()[1];
    const Group* g = group(study["title"]);
    ASSERT_TRUE(g);
    for (std::size_t k = 0; k < g->members.size(); ++k) {
        const auto& row = study["results"][k];
        const Bundle& b = examples().bundles[g->members[k]];
        expect_mb_s(b.results.seq_read_mb_s, row["seq_read_mb_s"], 1.0, row["seq_read_mb_s"], 1, b.card.label);
        expect_mb_s(b.results.seq_write_mb_s, row["seq_write_mb_s"], 1.0, row["seq_write_mb_s"], 1, b.card.label);
        EXPECT_EQ(b.source->row["csd_erase_block_bytes"], row["csd_erase_block_bytes"]);
    }
}

TEST(ReportExamples, RetroBsdKilobytesAre1024Bytes)
{
    const auto& study = studies()[2];
    const Group* g = group(study["title"]);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->hosts.size(), 3u);
    int errors = 0;
    for (std::size_t k = 0; k < g->members.size(); ++k) {
        const auto& row = study["results"][k];
        const Bundle& b = examples().bundles[g->members[k]];
        if (row.contains("error")) {
            ++errors;
            EXPECT_EQ(b.error, row["error"]);
            EXPECT_TRUE(b.results.empty()) << "an error is not a zero";
            continue;
        }
        const std::string what = b.card.label + " @ " + b.host.label;
        expect_mb_s(b.results.seq_read_mb_s, row["seq_read_kb_s"].get<double>() * kib, kib, row["seq_read_kb_s"], 0, what + " read");
        expect_mb_s(b.results.seq_write_mb_s, row["seq_write_kb_s"].get<double>() * kib, kib, row["seq_write_kb_s"], 0, what + " write");
        EXPECT_EQ(b.source->results_as_published["seq_read"]["unit"], "kbytes/s");
    }
    EXPECT_EQ(errors, 2);
    // Two cards of one name on one host are two rows, numbered; the same
    // model on two hosts shares its rows in order.
    const auto has = [&](const std::string& card) { return std::find(g->cards.begin(), g->cards.end(), card) != g->cards.end(); };
    EXPECT_TRUE(has("Kodak SD 2 Gb (1)"));
    EXPECT_TRUE(has("Kodak SD 2 Gb (2)"));
    EXPECT_TRUE(has("Kodak microSDHC Class 4 4 Gb (2)"));
    EXPECT_TRUE(has("ADATA microSD 2 Gb"));
    EXPECT_EQ(g->cards.size(), 22u);
}

TEST(ReportExamples, OdroidIopsAsPublished)
{
    const auto& study = studies()[3];
    const Group* g = group(study["title"]);
    ASSERT_TRUE(g);
    for (std::size_t k = 0; k < g->members.size(); ++k) {
        const auto& row = study["results"][k];
        const Bundle& b = examples().bundles[g->members[k]];
        for (const auto key : iops_keys) {
            for (const bool write : {false, true}) {
                const std::string pk = fmt::format("rand_{}_{}_iops", key, write ? "write" : "read");
                ASSERT_TRUE(row.contains(pk));
                const auto got = rand_iops(b.results, write, key);
                ASSERT_TRUE(got) << pk;
                EXPECT_EQ(*got, row[pk].get<double>()) << pk;
                EXPECT_EQ(iops_text(got), fmt::format("{}", row[pk].get<int>())) << pk;
            }
        }
        if (row.contains("seq_read_mb_s")) {
            EXPECT_EQ(mb_s_text(b.results.seq_read_mb_s), fmt::format("{}", row["seq_read_mb_s"].get<int>()));
            EXPECT_EQ(mb_s_text(b.results.seq_write_mb_s), fmt::format("{}", row["seq_write_mb_s"].get<int>()));
        } else {
            EXPECT_FALSE(b.results.seq_read_mb_s) << "the DDR50 rows have no sequential figure: none is made up";
        }
        // The A1 cards carry verdicts derived from the study's own A1 minimums.
        const bool a1 = b.card.label.find(" A1 ") != std::string::npos;
        EXPECT_EQ(b.verdicts.size(), a1 ? 3u : 0u) << b.card.label;
    }
    EXPECT_TRUE(g->has_verdicts(examples().bundles));
}

TEST(ReportExamples, RaspberryPiIozoneRecords)
{
    const auto& study = studies()[4];
    const Group* g = group(study["title"]);
    ASSERT_TRUE(g);
    for (std::size_t k = 0; k < g->members.size(); ++k) {
        const auto& rec = study["results"][k]["records"];
        const Bundle& b = examples().bundles[g->members[k]];
        expect_mb_s(b.results.seq_read_mb_s, rec["16384k"]["read"].get<double>() * kib, kib, rec["16384k"]["read"], 0, "read");
        expect_mb_s(b.results.seq_write_mb_s, rec["16384k"]["write"].get<double>() * kib, kib, rec["16384k"]["write"], 0, "write");
        EXPECT_EQ(rand_iops(b.results, false, "4k"), rec["4k"]["random_read"].get<double>() / 4);
        EXPECT_EQ(rand_iops(b.results, true, "4k"), rec["4k"]["random_write"].get<double>() / 4);
        EXPECT_FALSE(rand_iops(b.results, false, "16k")) << "iozone's 16384k record is 16 MiB, not 16 KiB";
        EXPECT_EQ(b.source->results_as_published["rand_read_4k"]["value"], rec["4k"]["random_read"]);
    }
}

// The text tables put each figure in its card's row under its host.
TEST(ReportExamples, TextTablesMatchTheMatrix)
{
    const auto& r = examples();
    const std::string text = text_report(r, false);
    for (const auto& g : r.groups) {
        const auto at = text.find(g.title + "\n");
        ASSERT_NE(at, std::string::npos) << g.title;
        const auto read_at = text.find("Sequential read, MB/s, by card", at);
        ASSERT_NE(read_at, std::string::npos);
        std::map<std::size_t, int> column_decimals;
        for (std::size_t row = 0; row < g.cards.size(); ++row) {
            const auto line_at = text.find("\n  " + g.cards[row] + " ", read_at);
            ASSERT_NE(line_at, std::string::npos) << g.cards[row];
            std::istringstream line(text.substr(line_at + 3 + g.cards[row].size(), text.find('\n', line_at + 1) - line_at - 3 - g.cards[row].size()));
            std::vector<std::string> cells;
            for (std::string c; line >> c;) cells.push_back(c);
            ASSERT_EQ(cells.size(), g.hosts.size()) << g.cards[row];
            for (std::size_t c = 0; c < g.hosts.size(); ++c) {
                const int i = g.cell[row][c];
                std::string want = missing_text;
                if (i >= 0) {
                    const Bundle& b = r.bundles[i];
                    want = !b.results.seq_read_mb_s && !b.error.empty() ? "error" : mb_s_text(b.results.seq_read_mb_s);
                }
                if (i < 0 || !r.bundles[i].results.seq_read_mb_s) {
                    EXPECT_EQ(cells[c], want) << g.cards[row] << " @ " << g.hosts[c];
                    continue;
                }
                // The figure, rounded to its column's decimals (one number of
                // decimals per column: ReportViews.TextTableGivesAColumnOneNumberOfDecimals).
                const auto dot = cells[c].find('.');
                const int decimals = dot == std::string::npos ? 0 : static_cast<int>(cells[c].size() - dot - 1);
                const double figure = *r.bundles[i].results.seq_read_mb_s;
                EXPECT_NEAR(std::stod(cells[c]), figure, 0.5 * std::pow(10.0, -decimals) + 1e-9)
                    << cells[c] << " for " << figure << ": " << g.cards[row] << " @ " << g.hosts[c];
                const auto& first = column_decimals.try_emplace(c, decimals).first->second;
                EXPECT_EQ(decimals, first) << "one number of decimals per column: " << g.hosts[c];
            }
        }
    }
    EXPECT_NE(text.find("ADATA microSD 2 Gb @ RetroBSD, Fubarino SDXL, SPI 13.3 MHz: error: I/O errors"), std::string::npos);
    for (const auto& g : r.groups)
        for (const auto& card : g.cards) {
            const auto line_at = text.find("\n  " + card + " ");
            const std::string line = text.substr(line_at, text.find('\n', line_at + 1) - line_at);
            EXPECT_EQ((line + " ").find(" 0 "), std::string::npos) << "no missing figure prints as 0: " << line;
        }
}

TEST(ReportExamples, JsonMatrixHoldsThePublishedFigures)
{
    const json j = json_report(examples(), {});
    const auto& olpc = j["groups"][0];
    EXPECT_EQ(olpc["hosts"][2], "OLPC XO");
    EXPECT_NEAR(olpc["seq_read_mb_s"][0][2].get<double>(), 8.35 * mib, 1e-9);
    const auto& odroid = j["groups"][3];
    EXPECT_TRUE(odroid["seq_read_mb_s"][2][1].is_null()) << "Ultra A1 on DDR50: no sequential figure";
    EXPECT_EQ(odroid["results"][0]["rand_write_iops"]["16k"], 2);
    EXPECT_EQ(odroid["results"][0]["as_published"]["rand_write_16k"]["value"], 2);
    const auto& retro = j["groups"][2];
    bool error_seen = false;
    for (const auto& row : retro["results"])
        if (!row["error"].is_null()) {
            error_seen = true;
            EXPECT_TRUE(row["seq_read_mb_s"].is_null());
        }
    EXPECT_TRUE(error_seen);
}

} // namespace
