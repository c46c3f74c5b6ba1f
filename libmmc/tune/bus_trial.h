// mmc-tune bus's trials: each planned mode set through the host's debugfs,
// the card re-initialised, the mode and clock confirmed from ios, and the
// card read (twice, compared with what it held before; with a scratch
// region, written, read back and put back), with the host's err_stats and
// kernel log watched. A mode with any error, a data mismatch or a failed
// switch is rejected; the fastest clean one is chosen. The host is put back
// as it was at the end, on any failure, on an exception and on a stop
// signal, and ios proves it. The host is an interface, so a modelled host
// (tests/unit) and the live one (dev/host_debugfs) run the same engine.
#pragma once

#include "bus/ios.h"
#include "tune/bus_plan.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mmc::tune {

// What a trial changes, as it was: the host's caps, caps2 and clock, and
// the card's runtime-PM settings the re-initialisation uses.
struct HostSnapshot {
    std::string host;                  // "mmc0"
    uint32_t caps = 0, caps2 = 0;
    uint64_t clock_hz = 0;
    std::optional<bus::Mode> mode;     // from ios
    std::string power_control;         // "on" or "auto"
    std::optional<long> autosuspend_delay_ms;
};

// A host operation that failed: a refused write (EINVAL, EACCES), a card
// that never suspended, a read error. The trial it happens in is rejected.
struct HostError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using ErrorCounts = std::vector<std::pair<std::string, uint64_t>>; // ("DATA_CRC", 3), as dev/uevent_card parses err_stats

class BusHost {
public:
    virtual ~BusHost() = default;
    virtual HostSnapshot snapshot() = 0;
    virtual void set_caps(uint32_t caps) = 0;
    virtual void set_caps2(uint32_t caps2) = 0;
    virtual void set_clock(uint64_t hz) = 0;
    // Re-initialise the card with the current caps, the kernel's way: let
    // runtime PM power it off (AGGRESSIVE_PM is set by the caller), then
    // on; within `timeout_s`.
    // `may_stop`: a stop signal may end the wait (a trial; never while putting back).
    virtual void reinit(double timeout_s, bool may_stop) = 0;
    // power/control and autosuspend_delay_ms as they were.
    virtual void put_back_power(const HostSnapshot& start) = 0;
    virtual bus::Ios ios() = 0;
    virtual ErrorCounts err_stats() = 0;     // empty when the kernel has none (before 5.19)
    virtual void mark_log() = 0;              // the kernel log from here on
    virtual std::string log_since_mark() = 0;
    virtual uint64_t card_bytes() = 0;
    virtual void read(uint64_t offset, std::span<uint8_t> into) = 0;
    virtual void write(uint64_t offset, std::span<const uint8_t> from) = 0;
    virtual double now() = 0;                 // seconds, monotonic
};

struct Region {
    uint64_t offset = 0, size = 0;
};

struct TrialOptions {
    double trial_seconds = 30;               // each trial's bound (--time)
    double reinit_seconds = 10;               // the card's power cycle's bound
    int regions = 8;                          // places read, spread over the card
    uint64_t region_bytes = 4 << 20;
    std::optional<Region> scratch;            // --destructive OFFSET:SIZE: written, read back, put back
    bool keep = false;                        // --keep: the chosen mode stays until reboot
    std::filesystem::path state_file;         // written before the first change
    std::string device;                       // named in the state file
    const std::atomic<bool>* stop = nullptr;  // a stop signal's flag
    std::function<void(const std::string&)> progress;
};

struct Trial {
    bus::Mode mode;
    std::optional<uint64_t> clock_asked;      // nullopt: the kernel's own
    bool ios_confirmed = false;
    std::string ios_mode;                      // what ios showed after the switch
    uint64_t clock_hz = 0;                     // ios clock after the switch
    ErrorCounts errors;                        // err_stats deltas (every counter, zeros too)
    std::vector<std::string> log_lines;        // the kernel log's error lines during the trial
    bool data_ok = false;
    std::optional<double> mb_s;                // the read pass, 10^6 bytes/s
    bool clean = false;                        // verdict: clean or rejected
    std::string reason;                        // why rejected
    double seconds = 0;
};

struct Restored {
    bool done = false;                         // ios shows the start mode and clock
    bool kept = false;                         // --keep: the chosen mode left in place
    std::string ios_mode;
    uint64_t ios_clock_hz = 0;
    std::vector<std::string> errors;           // what failed while putting back
};

struct TrialRun {
    HostSnapshot start;
    std::optional<double> before_mb_s;         // the read pass before any change
    std::vector<Trial> trials;                 // in the order run, fastest first
    std::optional<std::size_t> chosen;         // index in trials
    std::optional<Restored> restored;          // nullopt: nothing was changed
    bool interrupted = false;                  // a stop signal ended the trials
    std::string failure;                       // what ended the trials early, besides a signal
};

// Runs the plan's trialled steps. Never throws once the state file is
// written: a failure ends the trials and the host is put back.
TrialRun run_trials(BusHost& host, const BusPlan& plan, const TrialOptions& options);

// Puts the host back as `start` says: caps (with AGGRESSIVE_PM for the
// power cycle), caps2, re-initialisation, the clock where the kernel's own
// differs, caps exactly, power settings; then reads ios. Never throws.
Restored restore_host(BusHost& host, const HostSnapshot& start, double reinit_seconds);

// The kernel log lines that mark a bad mode, from text (bus/kernel_log's
// reader, for this host's names).
std::vector<std::string> signal_error_lines(const std::string& log, const std::string& host);

} // namespace mmc::tune
