// One brain: mmc-tune bus plans only what the doctor allows. Every case of
// evidence the project holds - the ios dumps of tests/data/ios.json (which
// holds every dump of the shared corpus's ios.json, and the device-tree
// fragment a case names), the public cases of tests/data/bus/labelled.json
// (as posted and with live-style evidence), every MMC host node of every
// device-tree fixture in tests/data/dt/ under ios snapshots of both card
// families, and the kernel logs of tests/data/dmesg/ - is diagnosed and
// planned, offline and as a live host with writable caps would be. No mode
// above the ceiling the evidence sets may be offered (a plan step) or
// emitted (the persistent form): the SoC table's row for the host, and 1.8 V
// I/O the board cannot make (no-1-8-v, a vqmmc regulator that stops above
// 1.8 V, an SD slot with no vqmmc-supply) - unless the bus has run the mode.
#include "bus/doctor.h"
#include "bus/mode_caps.h"
#include "bus/soc_limits.h"
#include "tune/bus_persist.h"
#include "tune/bus_plan.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using namespace mmc::bus;
using mmc::regs::CardFamily;
using nlohmann::json;
namespace fs = std::filesystem;

std::string file_text(const fs::path& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string() + " (run the tests from the repository root)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Case {
    std::string id;
    Evidence evidence;
};

Ios one_ios(const std::string& text)
{
    const auto all = parse_ios(text);
    return all.empty() ? Ios{} : all.front();
}

Evidence with_ios(const std::string& ios_text)
{
    Evidence e;
    e.ios = one_ios(ios_text);
    e.host = e.ios.host.empty() ? "mmc0" : e.ios.host;
    return e;
}

std::optional<uint32_t> hex_of(const json& j, const char* key)
{
    if (!j.contains(key) || !j.at(key).is_string()) return std::nullopt;
    return static_cast<uint32_t>(std::stoul(j.at(key).get<std::string>(), nullptr, 16));
}

// The ios snapshots a device-tree fixture is diagnosed under: what the
// kernel shows for an SD card and an eMMC at the modes boards stop at.
const std::vector<std::pair<std::string, std::string>>& snapshots()
{
    static const std::vector<std::pair<std::string, std::string>> all{
        {"SD HS 3.3 V", "clock:\t\t50000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n"},
        {"SD SDR50 1.8 V", "clock:\t\t100000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t4 (sd uhs SDR50)\nsignal voltage:\t1 (1.80 V)\n"},
        {"SD legacy", "clock:\t\t25000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t0 (legacy)\nsignal voltage:\t0 (3.30 V)\n"},
        {"eMMC HS52 3.3 V", "clock:\t\t52000000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t1 (mmc high-speed)\nsignal voltage:\t0 (3.30 V)\n"},
        {"eMMC DDR52", "clock:\t\t52000000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t8 (mmc DDR52)\nsignal voltage:\t0 (3.30 V)\n"},
        {"eMMC HS200", "clock:\t\t200000000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t9 (mmc HS200)\nsignal voltage:\t1 (1.80 V)\n"},
    };
    return all;
}

std::vector<Case> all_cases()
{
    std::vector<Case> out;
    // The dumps (with their caps, and with and without their DT fragment).
    for (const auto& j : json::parse(file_text("tests/data/ios.json"))) {
        const std::string id = j.at("board").get<std::string>().substr(0, 48);
        Evidence e = with_ios(j.at("ios"));
        e.caps = hex_of(j, "caps");
        e.caps2 = hex_of(j, "caps2");
        if (j.contains("kernel") && j.at("kernel").is_string()) e.kernel_version = j.at("kernel");
        if (j.contains("dmesg") && j.at("dmesg").is_string()) e.log = parse_kernel_log(j.at("dmesg").get<std::string>(), {e.host});
        out.push_back({id, e});
        if (j.contains("dt_fragment")) {
            const auto parsed = parse_dts(file_text(j.at("dt_fragment").get<std::string>()));
            if (parsed.host) {
                e.dt = parsed.host;
                out.push_back({id + " + " + j.at("dt_fragment").get<std::string>(), e});
            }
        }
    }
    // The labelled public cases, posted and live.
    for (const auto& j : json::parse(file_text("tests/data/bus/labelled.json")).at("cases")) {
        for (const char* part : {"posted", "live"}) {
            Evidence e = with_ios(j.at("posted").at("ios"));
            const std::string family = j.at("posted").value("family", "");
            if (family == "sd") e.card = CardFamily::sd;
            if (family == "mmc") e.card = CardFamily::mmc;
            for (const char* where : {"posted", "live"}) {
                if (std::string(where) == "live" && std::string(part) == "posted") continue;
                if (!j.contains(where)) continue;
                const json& w = j.at(where);
                if (w.contains("dt") && w.at("dt").is_string())
                    if (auto p = parse_dts(w.at("dt").get<std::string>()); p.host) e.dt = p.host;
                if (w.contains("dmesg") && w.at("dmesg").is_string()) {
                    e.log = parse_kernel_log(w.at("dmesg").get<std::string>(), {e.host});
                    e.kernel_message = e.log->card_message;
                }
            }
            out.push_back({j.at("id").get<std::string>() + " (" + part + ")", e});
        }
    }
    // Every MMC host node of every device-tree fixture, under each snapshot.
    std::vector<fs::path> trees;
    for (const auto& f : fs::directory_iterator("tests/data/dt"))
        if (f.path().extension() == ".dts") trees.push_back(f.path());
    std::sort(trees.begin(), trees.end());
    for (const auto& tree : trees) {
        const std::string text = file_text(tree);
        auto nodes = parse_dts(text).candidates;
        if (nodes.empty()) nodes.push_back("");
        for (const auto& node : nodes) {
            const auto parsed = parse_dts(text, node);
            if (!parsed.host) continue;
            for (const auto& [name, ios] : snapshots()) {
                Evidence e = with_ios(ios);
                e.dt = parsed.host;
                out.push_back({tree.filename().string() + " " + node + " / " + name, e});
            }
        }
    }
    // The kernel logs, each with the snapshots of its host's family.
    for (const auto& f : fs::directory_iterator("tests/data/dmesg")) {
        if (f.path().extension() != ".log") continue;
        const std::string log = file_text(f.path());
        for (const auto& [name, ios] : snapshots()) {
            for (const char* host : {"mmc0", "mmc1", "mmc2"}) {
                Evidence e = with_ios(ios);
                e.host = host;
                e.log = parse_kernel_log(log, {e.host});
                e.kernel_message = e.log->card_message;
                out.push_back({f.path().filename().string() + " " + host + " / " + name, e});
            }
        }
    }
    return out;
}

// The host's caps offering every mode of both families, as a live host with
// writable caps would be planned from (so that every step could trial).
Evidence with_all_caps(Evidence e)
{
    e.caps = caps_bit("4_BIT_DATA") | caps_bit("8_BIT_DATA") | caps_bit("SD_HIGHSPEED") | caps_bit("MMC_HIGHSPEED") |
             caps_bit("UHS_SDR12") | caps_bit("UHS_SDR25") | caps_bit("UHS_SDR50") | caps_bit("UHS_SDR104") | caps_bit("UHS_DDR50") |
             caps_bit("1_8V_DDR") | caps_bit("CMD23");
    e.caps2 = caps2_bit("HS200_1_8V_SDR") | caps2_bit("HS400_1_8V");
    e.kernel_version = "6.12";
    return e;
}

int rank(CardFamily f, Mode m)
{
    const auto& modes = family_modes(f);
    return static_cast<int>(std::find(modes.begin(), modes.end(), m) - modes.begin());
}

// Why the evidence forbids `m` on this host and board, or "" when it does
// not: the rules, written here apart from the doctor's code.
std::string forbidden(const Evidence& e, const Diagnosis& d, Mode m)
{
    if (!d.card || !d.mode || *d.mode == Mode::off) return {};
    const CardFamily f = *d.card;
    if (m == *d.mode) return {}; // running proves it
    if (e.dt) {
        if (const SocLimit* soc = soc_limit(*e.dt)) {
            const auto best = f == CardFamily::mmc ? soc->best_mode.mmc : soc->best_mode.sd;
            if (best && rank(f, m) > rank(f, *best) && rank(f, *d.mode) <= rank(f, *best))
                return "above the SoC table's " + std::string(to_string(*best)) + " for " + std::string(soc->controller);
        }
    }
    const bool at_1v8 = e.ios.signal_voltage_v && *e.ios.signal_voltage_v < 2;
    if (low_voltage_mode(m) && !at_1v8 && !low_voltage_mode(*d.mode) && e.dt) {
        if (e.dt->has("no-1-8-v")) return "no-1-8-v";
        if (e.dt->vqmmc && e.dt->vqmmc->min_microvolt && !e.dt->vqmmc->reaches_1v8()) return "vqmmc cannot make 1.8 V";
        if (f == CardFamily::sd && !e.dt->has_vqmmc_supply) return "an SD slot with no vqmmc-supply";
    }
    return {};
}

mmc::tune::BusPlan plan_of(const Evidence& e, bool live)
{
    mmc::tune::BusPlanInput in;
    in.evidence = e;
    in.diagnosis = diagnose(e);
    in.live = live;
    return mmc::tune::plan_bus(in);
}

} // namespace

TEST(BusOneBrain, NoModeOfferedAboveTheCeilingTheEvidenceSets)
{
    const auto cases = all_cases();
    ASSERT_GE(cases.size(), 130u);
    int violating = 0, planned = 0;
    for (const auto& c : cases) {
        bool bad = false;
        for (const bool live : {false, true}) {
            const Evidence e = live ? with_all_caps(c.evidence) : c.evidence;
            const Diagnosis d = diagnose(e);
            const auto p = plan_of(e, live);
            planned += !p.steps.empty();
            const std::string where = c.id + (live ? " (live caps)" : " (offline)");
            for (const auto& s : p.steps) {
                const std::string why = forbidden(e, d, s.mode);
                if (why.empty()) continue;
                bad = true;
                ADD_FAILURE() << where << ": the plan offers " << to_string(s.mode) << " (" << s.trial << "), but " << why;
            }
            // Emitted: the persistent form, offline and as if every planned
            // step had trialled clean (the fastest is the one kept).
            std::vector<std::optional<mmc::tune::TrialRun>> runs{std::nullopt};
            for (std::size_t i = 0; i < p.steps.size(); ++i) {
                mmc::tune::TrialRun run;
                mmc::tune::Trial t;
                t.mode = p.steps[i].mode;
                t.clock_asked = p.steps[i].clock_hz;
                t.clean = true;
                run.trials.push_back(t);
                run.chosen = 0;
                runs.push_back(run);
            }
            for (const auto& run : runs) {
                const auto kept = mmc::tune::persistent_result(e, d, p, run);
                EXPECT_EQ(kept.forms.empty(), kept.for_what.empty()) << where << ": persistent_for and persistent disagree";
                EXPECT_EQ(kept.forms.empty(), !kept.none.empty()) << where << ": a form and no sentence, or neither";
                for (const auto& f : kept.forms)
                    for (const Mode m : family_modes(d.card.value_or(CardFamily::sd)))
                        for (const auto& row : mode_flags(d.card.value_or(CardFamily::sd)))
                            if (row.mode == m && f.kind != "dts-edit" &&
                                f.text.find(std::string(row.dt_flag) + ";") != std::string::npos) {
                                const std::string why = forbidden(e, d, m);
                                if (why.empty()) continue;
                                bad = true;
                                ADD_FAILURE() << where << ": the " << f.kind << " form sets " << row.dt_flag << " ("
                                              << to_string(m) << "), but " << why;
                            }
            }
        }
        violating += bad;
    }
    std::printf("one brain: %zu cases, %d planned, %d offering a mode the evidence rules out\n", cases.size(), planned, violating);
    EXPECT_EQ(violating, 0);
}

TEST(BusOneBrain, EachRuledOutModeHasTheDoctorsReasonAndIsNeverPlanned)
{
    int ruled = 0;
    for (const auto& c : all_cases()) {
        const Diagnosis d = diagnose(c.evidence);
        const auto p = plan_of(c.evidence, false);
        for (const auto& r : d.ruled_out) {
            ++ruled;
            EXPECT_FALSE(r.reason.empty()) << c.id << ": " << to_string(r.mode) << " ruled out with no reason";
            EXPECT_FALSE(r.by.empty()) << c.id;
            EXPECT_TRUE(d.mode != r.mode) << c.id << ": the mode in use ruled out";
            for (const auto& s : p.steps) EXPECT_NE(s.mode, r.mode) << c.id << ": planned though ruled out: " << r.reason;
        }
        // What the oracle forbids, the doctor rules out (the two agree).
        if (d.card && d.mode && *d.mode != Mode::off) {
            for (const Mode m : family_modes(*d.card)) {
                if (forbidden(c.evidence, d, m).empty()) continue;
                EXPECT_TRUE(ruled_out(d, m)) << c.id << ": " << to_string(m) << " is forbidden (" << forbidden(c.evidence, d, m)
                                             << ") but the doctor allows it";
            }
        }
    }
    std::printf("one brain: %d modes ruled out, each with its reason\n", ruled);
    EXPECT_GT(ruled, 60);
}
