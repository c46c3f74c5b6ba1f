// The doctor's parts, shared by its files and by nothing else: each
// family's modes, what one side offers (Side), a reason the ceiling falls
// short (Shortfall), and the findings per side - the card
// (doctor_card.cpp), the host (doctor_host.cpp), the clock and width
// (doctor_clock.cpp), the mode (doctor_mode.cpp) - and their ranking
// (doctor_rank.cpp). diagnose() (doctor.cpp) puts them together.
#pragma once

#include "bus/doctor.h"
#include "bus/soc_limits.h"
#include "cli/size.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus::doctor_parts {

// A shortfall smaller than this is rounding.
constexpr double negligible_gain = 1.02;
// A clock at or above this share of the mode's rate is the mode at full
// speed: the controller makes its clock by dividing a source clock by an
// integer, so the nearest clock at or below the rate can fall short by a
// step (198 MHz for SDR104's 208, 187.5 for HS200's 200, 49.152 for 52).
constexpr double divider_granularity = 0.9;

// Each family's modes, worst first: bus/modes.h's sd_modes and mmc_modes.

using ModeSet = uint32_t;
constexpr ModeSet any_mode = (1u << 7) - 1;

// The modes of one card family, slowest first.
struct FamilyModes {
    regs::CardFamily family;
    const ModeList& modes;

    int index(Mode mode) const
    {
        const auto it = std::find(modes.begin(), modes.end(), mode);
        return it == modes.end() ? -1 : static_cast<int>(it - modes.begin());
    }
    ModeSet bit(Mode mode) const { return index(mode) < 0 ? 0 : 1u << index(mode); }
    // The SoC table's best mode for this family; nullopt if it names none.
    std::optional<Mode> soc_best(const SocLimit& soc) const
    {
        return family == regs::CardFamily::mmc ? soc.best_mode.mmc : soc.best_mode.sd;
    }
    // The fastest mode in the set; legacy, which every card and host does,
    // when the set is empty.
    Mode best(ModeSet set) const
    {
        for (int i = static_cast<int>(modes.size()) - 1; i >= 0; --i)
            if (set >> i & 1) return modes[static_cast<std::size_t>(i)];
        return modes.front();
    }
    Mode top() const { return modes.back(); }
    // The modes of a set, fastest first.
    std::vector<Mode> list(ModeSet set) const
    {
        std::vector<Mode> out;
        for (int i = static_cast<int>(modes.size()) - 1; i >= 0; --i)
            if (set >> i & 1) out.push_back(modes[static_cast<std::size_t>(i)]);
        return out;
    }
    double ceiling(Mode mode) const { return mode_ceiling_mb_s(mode, family).value_or(0); }
    // Modes that need 1.8 V (or 1.2 V) I/O: every UHS-I mode, HS200 and up.
    ModeSet low_voltage() const
    {
        return family == regs::CardFamily::mmc ? bit(Mode::hs200) | bit(Mode::hs400) | bit(Mode::hs400es)
                                               : bit(Mode::sdr12) | bit(Mode::sdr25) | bit(Mode::sdr50) | bit(Mode::ddr50) |
                                                     bit(Mode::sdr104);
    }
};

inline const FamilyModes sd_family{regs::CardFamily::sd, sd_modes};
inline const FamilyModes mmc_family{regs::CardFamily::mmc, mmc_modes};

// What one side (card or host) offers, and in whose name it stops.
struct Side {
    ModeSet modes = any_mode; // unknown: could be anything
    bool known = false;
    Limit owner = Limit::unknown; // card, host, board or unknown (host or board)
    std::string why;          // the evidence for its best mode, in words
    std::vector<std::string> tries;
    std::vector<std::string> evidence; // what decided the owner
    std::string would_decide;          // when the owner is "unknown"
    bool hard_limit = false;           // the SoC table says no setting raises its best mode
    std::vector<DtChange> dt_changes;  // what the board's device tree would change (owner board)
};

// A reason the ceiling is below the best possible.
struct Shortfall {
    Limit owner = Limit::unknown;
    double gain = 1; // ceiling x gain if this alone were fixed
    std::string text;
    std::vector<std::string> tries;
    Mechanism mechanism = Mechanism::none;
    std::vector<std::string> evidence; // what decided the owner
    std::string would_decide;          // when the owner is "unknown"
    bool hard_limit = false;           // no setting raises it: the SoC's own limit
    std::vector<DtChange> dt_changes;  // what the board's device tree would change (owner board)
};

enum class HostSource { none, caps, device_tree };

struct Host {
    Side side;
    HostSource source = HostSource::none;
    bool no_1_8_v = false;        // the device tree says no-1-8-v
    bool regulator_3v3 = false;   // the vqmmc-supply regulator cannot reach 1.8 V
    ModeSet quirk_held = 0;       // the modes a command-line sdhci debug quirk takes from an SDHCI host
};

// Whether the host's driver is sdhci, whose debug quirk options act on it;
// nullopt when the evidence names no driver.
std::optional<bool> sdhci_driven(const Evidence& e);
// The command line's sdhci.debug_quirks2 when it is in force (a value the
// kernel takes, not 0); nullptr otherwise.
const SdhciQuirkOption* quirks2_in_force(const Evidence& e);

// Figures in the doctor's words: cli/size's formatter with the unit.
inline std::string hz_text(double hz) { return cli::format_hz(hz); }
inline std::string mb_text(double mb_s) { return cli::format_figure(mb_s, 2) + " MB/s"; }
inline std::string microvolts(uint32_t uv) { return cli::format_figure(uv / 1e6, 3) + " V"; }

std::string join(const std::vector<std::string>& items, std::string_view sep);
bool contains(const std::vector<std::string>& names, std::string_view name);
std::string modes_text(const std::vector<Mode>& modes);
void add_unique(std::vector<std::string>& list, const std::vector<std::string>& items);


// ---- the card (doctor_card.cpp) ----
// The card in the slot: its family, or an SDIO function, or neither.
void identify_card(const Evidence& e, Diagnosis& d);
// What an SD card offers; `host_asks_1_8v`: a card answers S18A=1 only then.
Side sd_card(const Evidence& e, ModeSet proven, bool host_asks_1_8v);
// What an eMMC offers, from EXT_CSD DEVICE_TYPE and STROBE_SUPPORT.
Side mmc_card(const Evidence& e, ModeSet proven);

// ---- the host (doctor_host.cpp) ----
Host host_modes(const Evidence& e, const FamilyModes& f, const std::vector<std::string>& caps);
// Why the host stops at its best mode, in words, who owns it, and what to try.
void describe_host(Host& h, const Evidence& e, const FamilyModes& f, const std::vector<std::string>& caps);
std::string regulator_text(const Regulator& r);

// ---- the clock and width (doctor_clock.cpp) ----
std::optional<double> bus_clock(const Ios& ios, std::vector<Finding>& findings);
void delivery_shortfalls(const Evidence& e, const ModeSpec& spec, double hz, const std::vector<std::string>& caps,
                         std::vector<Shortfall>& out, std::vector<Finding>& notes);
// The first log event of these kinds, if the log was read and has one.
const LogEvent* first_event(const Evidence& e, std::initializer_list<LogEventKind> kinds);
std::string log_line(const LogEvent& ev);

// ---- the mode (doctor_mode.cpp) ----
void mode_shortfalls(const Evidence& e, const FamilyModes& f, Mode mode, const Side& card, const Host& host_info,
                     std::vector<Shortfall>& out, std::vector<Finding>& info);

// The modes the kernel log proves both sides reached (a "new ... card" line
// naming the mode, a tuning attempt); `evidence` gets the lines.
ModeSet modes_reached(const Evidence& e, const FamilyModes& f, std::vector<std::string>& evidence);

// ---- the modes ruled out (doctor_allowed.cpp) ----
// Every mode of the family this host, board and card cannot run, fastest
// first; `reached`: the modes the bus has run, which nothing rules out.
std::vector<RuledOut> rule_out_modes(const Evidence& e, const FamilyModes& f, const Side& card, const Host& host, ModeSet reached);
// The fastest mode the SoC table's row lets this family run on the host;
// the family's top when no row names one.
Mode table_ceiling(const Evidence& e, const FamilyModes& f);

// ---- the ranking (doctor_rank.cpp) ----
// Orders the shortfalls so the first names the limit.
void rank(std::vector<Shortfall>& shortfalls);

} // namespace mmc::bus::doctor_parts
