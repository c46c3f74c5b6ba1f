// Verdicts: measured figures against the card's own claims (speed class, UHS
// grade, video class, application performance class from the SSR) and the
// A1/A2 figures, with the bus ceiling of the negotiated mode beside them so
// a slow bus is not blamed on the card. Pure: numbers in, verdicts out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::bench {

// What the card claims in its SD status (SSR). known = false: no SSR read.
struct CardClaims {
    bool known = false;
    std::string source;                  // "ioctl", "sysfs"
    std::optional<int> speed_class_mb_s; // 2, 4, 6, 10 (nothing for Class 0)
    std::optional<int> uhs_grade;        // 1 or 3 (nothing for U0)
    std::optional<int> video_class;      // 6, 10, 30, 60, 90
    std::optional<int> app_perf_class;   // 1 or 2
    uint64_t au_bytes = 0;               // AU_SIZE (0: not defined)
    bool cache_support = false;          // PERFORMANCE_ENHANCE
    int cq_depth = 0;                    // the queue depth the SSR claims (2-32); 0: no command queue

    // Every speed claim as (name, MB/s): "speed class C10", "UHS grade U3", "video class V30".
    std::vector<std::pair<std::string, double>> speed_claims() const;
    std::string app_class_text() const;  // "A2", "no A1/A2 claim", "unknown"
};

// The negotiated bus mode and its ceiling (libmmc/bus diagnose).
struct BusCeiling {
    std::string mode;                    // "HS", "SDR104"
    std::optional<double> ceiling_mb_s;  // 10^6 bytes per second
    std::optional<uint64_t> clock_hz;    // the clock it rests on: ios "actual clock" where reported
    std::string controller;              // "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)"
};

// A figure above the bus ceiling cannot be the card's: data does not move
// faster than the bus. Either the clock the ceiling rests on is not the one
// the data moves at (an emulated controller, a driver that misreports it) or
// the measurement is wrong (a cache between the benchmark and the card).
bool above_ceiling(double mb_s, const BusCeiling& bus);
// Which is likely, in words: "... is 121% of the HS bus ceiling (13 MB/s at
// 26 MHz): the controller is QEMU's emulated SDHCI ...". Never "the bus is
// the limit".
std::string above_ceiling_why(double mb_s, const BusCeiling& bus);

// Whether the host lets the card work with its cache and command queue: an
// A2 card needs both to show A2 speed. nothing: could not be told.
struct HostQueueing {
    std::optional<bool> cache_enabled;
    std::string cache_evidence; // "/sys/block/mmcblk0/queue/write_cache: write back"
    std::optional<bool> cq_enabled;
    std::string cq_evidence;
};

// What a verdict found: the claim met, not met, or not testable here (the
// bus cannot carry it, the card does not claim it, a job did not run).
enum class VerdictResult { pass, fail, not_applicable };
// "pass", "fail", "not-applicable": the JSON's words.
const char* to_string(VerdictResult);

// What a verdict's figures count: IOPS or MB/s (10^6 bytes/s).
enum class VerdictUnit { iops, mb_s };
// "IOPS", "MB/s": the JSON's words and the figures' unit in the text.
const char* to_string(VerdictUnit);

struct Verdict {
    std::string claim;                // "A1 random read 4 KiB QD1"
    std::optional<double> required;   // in unit
    std::optional<double> measured;   // in unit
    VerdictUnit unit = VerdictUnit::mb_s;
    VerdictResult result = VerdictResult::not_applicable;
    std::string why;
    std::optional<double> bus_ceiling_mb_s;
};

// A figure a suite measured, or why it is missing ("write test skipped:
// read-only run (destructive runs only)").
struct Measured {
    std::optional<double> value;
    std::string missing_why;
};

// Near this share of the bus ceiling, the bus is the limit.
inline constexpr double bus_limited_share = 0.85;

// Throughput against a requirement in MB/s.
Verdict judge_mb_s(const std::string& claim, double required_mb_s, const Measured& measured, const BusCeiling& bus);
// IOPS against a requirement; block_size converts both to MB/s for the bus check.
Verdict judge_iops(const std::string& claim, double required_iops, uint32_t block_size, const Measured& measured,
                   const BusCeiling& bus);
// A verdict that cannot be reached, with why.
Verdict not_applicable(const std::string& claim, std::optional<double> required, VerdictUnit unit,
                       const Measured& measured, const std::string& why);

// Whether an A2 claim can be tested on this host; the reason when not.
std::optional<std::string> a2_blocker(const HostQueueing& host);

} // namespace mmc::bench
