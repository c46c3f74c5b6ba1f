// The doctor against the side public threads established, and the
// property that more true evidence never makes it worse.
// - tests/data/bus/labelled.json: ios dumps from public threads with the
//   established side; each is diagnosed from what the thread posted and
//   from what a live system adds (the host's node, the kernel log), and
//   counted right, unknown or wrong. None may be wrong.
// - The doctor's fixtures (tests/data/ios.json entries with the side their
//   thread stated and their DT fragment) and the labelled set: for every
//   two sets of evidence one inside the other, a right answer from the
//   smaller is never a wrong side from the larger.
#include "bus/doctor.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using namespace mmc::bus;
using nlohmann::json;

json load(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
    return json::parse(in);
}

std::string file_text(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::optional<std::string> text_at(const json& j, const char* key)
{
    if (!j.contains(key) || !j.at(key).is_string()) return std::nullopt;
    return j.at(key).get<std::string>();
}

// One piece of evidence a case can have beyond its ios dump.
struct Piece {
    std::string kind; // "dt", "dmesg"
    std::string text;
};

// A case: its dump, its family, the side its thread established, and the
// further pieces of evidence (the ones a thread posted first).
struct Case {
    std::string id;
    std::string ios;
    std::optional<mmc::regs::CardFamily> family;
    std::string side;
    std::vector<Piece> pieces;
    std::size_t posted = 0; // how many of `pieces` the thread itself posted
};

Evidence evidence_of(const Case& c, const std::vector<bool>& use)
{
    Evidence e;
    const auto all = parse_ios(c.ios);
    EXPECT_EQ(all.size(), 1u) << c.id;
    if (!all.empty()) e.ios = all.front();
    e.host = e.ios.host.empty() ? "mmc0" : e.ios.host;
    e.card = c.family;
    for (std::size_t i = 0; i < c.pieces.size(); ++i) {
        if (!use[i]) continue;
        const Piece& p = c.pieces[i];
        if (p.kind == "dt") {
            const auto parsed = parse_dts(p.text);
            EXPECT_TRUE(parsed.host) << c.id << ": " << parsed.error;
            e.dt = parsed.host;
        } else {
            e.log = parse_kernel_log(p.text, {e.host});
            e.kernel_message = e.log->card_message;
        }
    }
    return e;
}

std::optional<mmc::regs::CardFamily> family_of(const std::string& s)
{
    if (s == "sd") return mmc::regs::CardFamily::sd;
    if (s == "mmc") return mmc::regs::CardFamily::mmc;
    return std::nullopt;
}

std::vector<Case> labelled_cases()
{
    std::vector<Case> out;
    const json all = load("tests/data/bus/labelled.json");
    for (const auto& j : all.at("cases")) {
        Case c;
        c.id = j.at("id");
        const json& posted = j.at("posted");
        c.ios = posted.at("ios");
        c.family = family_of(posted.value("family", ""));
        c.side = j.at("side");
        for (const char* kind : {"dt", "dmesg"})
            if (auto t = text_at(posted, kind)) c.pieces.push_back({kind, *t});
        c.posted = c.pieces.size();
        if (j.contains("live"))
            for (const char* kind : {"dt", "dmesg"})
                if (auto t = text_at(j.at("live"), kind)) c.pieces.push_back({kind, *t});
        out.push_back(c);
    }
    return out;
}

// The corpus entries whose thread stated the side and whose DT fragment is
// kept: ios alone, and with the fragment.
std::vector<Case> fixture_cases()
{
    std::vector<Case> out;
    for (const auto& j : load("tests/data/ios.json")) {
        if (!j.contains("thread_cause") || !j.contains("dt_fragment")) continue;
        Case c;
        c.id = j.at("board").get<std::string>().substr(0, 40);
        c.ios = j.at("ios");
        c.side = j.at("thread_cause");
        c.pieces.push_back({"dt", file_text(j.at("dt_fragment"))});
        out.push_back(c);
    }
    return out;
}

enum class Verdict { right, unknown, wrong };

Verdict judge(const Diagnosis& d, const std::string& side)
{
    if (to_string(d.limit) == side) return Verdict::right;
    return d.limit == Limit::unknown ? Verdict::unknown : Verdict::wrong;
}

TEST(BusLabelled, NoneWrongFromWhatWasPostedOrWhatALiveSystemGives)
{
    int counts[2][3] = {};
    const auto cases = labelled_cases();
    ASSERT_GE(cases.size(), 4u);
    for (const auto& c : cases) {
        for (int live = 0; live < 2; ++live) {
            std::vector<bool> use(c.pieces.size());
            for (std::size_t i = 0; i < use.size(); ++i) use[i] = live || i < c.posted;
            const Diagnosis d = diagnose(evidence_of(c, use));
            const Verdict v = judge(d, c.side);
            ++counts[live][static_cast<int>(v)];
            EXPECT_NE(v, Verdict::wrong) << c.id << (live ? " (live)" : " (posted)") << ": said " << to_string(d.limit)
                                         << ", the thread established " << c.side;
        }
    }
    for (int live = 0; live < 2; ++live)
        std::printf("labelled set, %s evidence: %d right, %d unknown, %d wrong of %zu\n", live ? "live-style" : "posted",
                    counts[live][0], counts[live][1], counts[live][2], cases.size());
    // With live-style evidence at least three quarters are right, and none
    // is wrong with either kind of evidence.
    EXPECT_GE(4 * counts[1][0], 3 * static_cast<int>(cases.size()));
    EXPECT_EQ(counts[0][2] + counts[1][2], 0);
}

TEST(BusLabelled, MoreTrueEvidenceNeverTurnsARightAnswerWrong)
{
    auto cases = labelled_cases();
    for (auto& c : fixture_cases()) cases.push_back(c);
    ASSERT_GE(cases.size(), 10u); // 4 labelled, 6 fixtures
    int pairs = 0;
    for (const auto& c : cases) {
        const std::size_t n = c.pieces.size();
        ASSERT_LE(n, 8u);
        std::vector<Verdict> by_subset(std::size_t{1} << n);
        for (std::size_t s = 0; s < by_subset.size(); ++s) {
            std::vector<bool> use(n);
            for (std::size_t i = 0; i < n; ++i) use[i] = s >> i & 1;
            by_subset[s] = judge(diagnose(evidence_of(c, use)), c.side);
        }
        for (std::size_t small = 0; small < by_subset.size(); ++small)
            for (std::size_t large = 0; large < by_subset.size(); ++large) {
                if ((small & large) != small || small == large) continue;
                ++pairs;
                EXPECT_FALSE(by_subset[small] == Verdict::right && by_subset[large] == Verdict::wrong)
                    << c.id << ": right with evidence set " << small << ", wrong with its superset " << large;
            }
    }
    EXPECT_GT(pairs, 8);
}

} // namespace
