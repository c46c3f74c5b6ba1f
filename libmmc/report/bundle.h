// The result bundle: one card measured (or reported by a study) on one
// host, with where every figure came from. Its JSON, format "mmckit-bundle"
// version 1, is documented in man/mmc-report.1. Loading is tolerant: an
// imported bundle has no registers, a failed pipeline step leaves its part
// out, and a part of the wrong shape is dropped with a warning.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::report {

using json = nlohmann::ordered_json;

inline constexpr std::string_view bundle_format = "mmckit-bundle";
inline constexpr int bundle_format_version = 1;

// The random-I/O block sizes a bundle keeps, as its JSON keys, and in bytes.
inline constexpr std::array<std::string_view, 3> iops_keys = {"1k", "4k", "16k"};
inline constexpr std::array<uint32_t, 3> iops_block_sizes = {1024, 4096, 16384};

// The words a bundle holds that the report decides by: a verdict's result
// and unit, the bundle's kind, the card's type, the capacity verdict. A
// bundle is outside input (written by this, an older or a newer mmckit, or
// imported from a published study), so its words are read once, where it
// is read (from_json; make_bundle for the tools' words), into these enums,
// and the views compare the enums.
//
// A word this version does not know is not an error, and it never counts
// as a pass or a fail: it is `other`, and its Word keeps it as written, so
// every view prints it as the bundle has it (text, HTML, CSV and JSON alike;
// HTML's badge class "na") and writing the bundle back writes it again. An
// absent word is `other` with nothing written. A kind this version does not
// know is kept the same way and grouped as measured (only "imported" makes
// a study's group).
enum class VerdictResult { pass, fail, not_applicable, other };
enum class VerdictUnit { mb_s, iops, other };
enum class BundleKind { measured, imported, other };
enum class CapacityVerdict { good, limbo, wraparound, chain, bad, other }; // F3's taxonomy
enum class CardType { sd, mmc, other };

// The words as bundles spell them; "" for other (its Word holds the word).
std::string_view to_string(VerdictResult result);     // "pass", "fail", "not-applicable"
std::string_view to_string(VerdictUnit unit);         // "MB/s", "IOPS"
std::string_view to_string(BundleKind kind);          // "measured", "imported"
std::string_view to_string(CapacityVerdict verdict);  // "good", "limbo", "wraparound", "chain", "bad"
std::string_view to_string(CardType type);            // "SD", "MMC"

// One of those words as a bundle holds it: the value, and for other the
// word as written.
template <typename Enum>
struct Word {
    Enum value = Enum::other;
    std::string as_written; // only when value is other; "" when the bundle has no word

    Word() = default;
    Word(Enum known) : value(known) {} // implicit: b.kind = BundleKind::measured

    // The word to print and to write back.
    std::string text() const { return value == Enum::other ? as_written : std::string(to_string(value)); }
    bool empty() const { return value == Enum::other && as_written.empty(); }
    friend bool operator==(const Word& word, Enum e) { return word.value == e; }
};

// The one reading of a word: the value whose to_string it is, else other
// keeping the word, so that read_word(w).text() is w exactly.
template <typename Enum>
Word<Enum> read_word(std::string_view text)
{
    for (int i = 0; i < static_cast<int>(Enum::other); ++i)
        if (to_string(static_cast<Enum>(i)) == text) return Word<Enum>(static_cast<Enum>(i));
    Word<Enum> unknown;
    unknown.as_written = std::string(text);
    return unknown;
}

// What the card claims in its SD status, as mmc-info decodes it
// ("C10", "U3", "V30", "A1"; "U0" or "not supported" when it claims nothing).
struct Classes {
    std::string speed_class, uhs_speed_grade, video_speed_class, app_perf_class;
};

struct CardInfo {
    std::string label;        // the row name in tables
    std::string manufacturer; // "SanDisk"
    std::string product;      // "SL16G"
    std::string serial;       // "0x0eace07e"
    std::optional<uint64_t> capacity_bytes;
    Word<CardType> type;      // "SD", "MMC"; other: "" (unknown) or as written
    Classes classes;
    // What tells the card apart where its CID cannot be read (a USB reader):
    // the device's size in 512-byte sectors and its partition table's
    // identifier (blkid's PTUUID), as they were when the run began; and
    // whether the label is the user's (--card-label) rather than derived.
    // Absent in bundles made before mmc-qualify recorded them.
    std::optional<uint64_t> sectors;
    std::string partition_table_id;
    bool label_given = false;
};

struct HostInfo {
    std::string label;      // the column name in tables
    std::string controller; // "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)"
    std::string bus_mode;   // "HS", "SDR104", "DDR50", "HS200" ...
    std::string kernel;
};

// Where an imported bundle's figures were published.
struct Source {
    std::string title, method, units, url, notes;
    std::string conversion;      // how the published figures became MB/s and IOPS
    // Each figure as published, keyed like results ("seq_read", "seq_write",
    // "rand_read_4k", ...): {"value": 8.35, "unit": "MiB/s"}.
    json results_as_published;
    json row;                    // the study's row verbatim, every field as printed
};

// Figures in MB/s (10^6 bytes per second) and IOPS; a missing figure is absent, never 0.
struct Results {
    std::optional<double> seq_read_mb_s, seq_write_mb_s;
    std::map<std::string, double> rand_read_iops, rand_write_iops; // keys from iops_keys
    bool empty() const;
};

struct Verdict {
    std::string claim; // "A1 random read 4 KiB QD1"
    std::optional<double> required, measured;
    Word<VerdictUnit> unit;
    Word<VerdictResult> result;
    std::string why;
    // The ceiling of the bus mode the figure was measured in (mmc-bench's
    // verdicts carry it); none in bundles made before it did.
    std::optional<double> bus_ceiling_mb_s;
};

// What mmc-probe geometry measured: the flash page, the AU (erase block),
// the AUs the card keeps open (only a --destructive probe counts them) and
// how sure it is ("high", "medium", "low", "none").
struct ProbeGeometry {
    std::optional<uint64_t> page_size, au_size;
    std::optional<uint64_t> open_aus;
    std::string confidence;
};

// What mmc-probe capacity found: the verdict after F3's taxonomy ("good",
// "limbo", "wraparound", "chain", "bad"), the size announced and the size
// that really stores data.
struct ProbeCapacity {
    Word<CapacityVerdict> verdict;
    std::optional<uint64_t> announced_bytes, usable_bytes, module_bytes, cache_bytes;
};

// The state suite of mmc-bench: write speeds in the used (fragmented)
// state and after erasing, and its one line ("sequential write 4.10 ->
// 9.80 MB/s after erase (x2.39)").
struct StateComparison {
    std::optional<double> seq_write_used_mb_s, seq_write_erased_mb_s;
    std::optional<double> rand_write_used_iops, rand_write_erased_iops;
    std::optional<double> seq_write_gain, rand_write_gain;
    std::string summary;
};

// The sustained suite of mmc-bench: throughput against bytes written (its
// trace's stretches, at most max_sustained_points), the knee and the
// speeds either side, and the highest class the card claims (the line a
// recording must stay above), for the report's picture.
struct SustainedCurve {
    struct Point {
        uint64_t written = 0; // bytes written at the end of the stretch
        double mb_s = 0;
    };
    std::vector<Point> points;
    std::optional<uint64_t> knee_bytes;   // the SLC cache; nothing when no knee
    std::optional<double> burst_mb_s, sustained_mb_s;
    std::optional<double> worst_latency_ms; // the longest write: the stall a recorder must buffer
    std::optional<double> class_mb_s;     // the highest requirement among its verdicts ...
    std::string class_name;               // ... and its claim ("video speed class V30")
};
inline constexpr std::size_t max_sustained_points = 1000;

// What mmc-health said of the card (its first card's): the verdict and the
// highest life used any source gave, with that source.
struct HealthFigures {
    std::string verdict;                    // "healthy", "worn", "end_of_life", "read_only", "unknown"
    std::optional<double> life_used_percent;
    std::string life_source;                // "ext_csd", "cmd56:sandisk", ...
};

// What mmc-tune bus found, as the report shows it: the mode in
// use before and its speed, the mode the trials chose and its speed, how
// many trials ran and were rejected, whether the host was put back. The
// words are the tool's (modes, reasons), shown as written; the report
// decides nothing by them.
struct TuneBus {
    std::string host, kernel;
    std::string before_mode;                // start.mode: "SDR50"
    std::optional<uint64_t> before_clock_hz;
    std::optional<double> before_mb_s;      // the mode in use, measured
    bool live_trials = false;               // false: the plan only
    std::string live_trials_reason;         // why not ("this kernel (6.1) cannot trial modes live; ...")
    std::string chosen_mode;                // "" when nothing was chosen (no trial, or none clean)
    std::optional<uint64_t> chosen_clock_hz;
    std::optional<double> chosen_mb_s;
    std::size_t trials = 0, rejected = 0;
    std::optional<bool> restored;           // restored.done; none when nothing was changed
    std::vector<std::string> persistent;    // the kinds of persistent form it gave ("dt-overlay")
};

// What mmc-tune queue found: the scheduler and read-ahead before, the
// result and its verdict ("better", "no measurable difference") with the
// reason, and the discard advice when it measured one.
struct TuneQueue {
    std::string before_scheduler;
    std::optional<uint64_t> before_read_ahead_kb;
    std::string scheduler;
    std::optional<uint64_t> read_ahead_kb;
    std::string verdict, reason;
    std::size_t measured = 0;               // settings measured
    std::string discard_advice;             // "fstrim.timer", "discard"; "" when not measured
};

// A step of the pipeline that made the bundle and whether it worked.
struct Step {
    std::string name;
    bool ok = false;
    std::string message;
};

struct Bundle {
    Word<BundleKind> kind = BundleKind::measured;
    std::string created;           // ISO-8601 UTC, "2026-11-03T10:15:00Z"
    CardInfo card;
    HostInfo host;
    std::optional<Source> source;  // imported bundles
    Results results;
    std::vector<Verdict> verdicts;
    std::string error;             // what went wrong for this card on this host ("I/O errors")
    // The tools' own documents, kept whole; null when absent.
    json registers;   // mmc-info -J
    json bus;         // one host object of mmc-bus -J
    json erase;       // mmc-erase -J
    json bench;       // array of mmc-bench -J documents
    json probe;       // {"geometry": mmc-probe geometry -J, "capacity": mmc-probe capacity -J}
    json health;      // mmc-health -J of the card
    json tune;        // {"bus": mmc-tune bus -J, "queue": mmc-tune queue -J}, each when it ran
    // How the card was attached: "slot mmc0 SDR104 4-bit", "USB 2.0 reader,
    // usb-storage", "block device loop0"; "" when the bundle does not say
    // (made before mmc-qualify recorded it, or imported). reader: the USB
    // reader (chip, usb_id, driver, transport, speed_mbit, link,
    // ceiling_mb_s, ceiling_source), null when not in a reader or unknown.
    std::string attachment;
    json reader;
    std::vector<Step> steps;
    json environment; // hostname, machine, kernel, arch, os, cpu_model
    json tools;       // {"mmc-info": "0.1.0", ...}

    // Not part of the JSON: the file it was read from and what was odd in it.
    std::string path;
    std::vector<std::string> warnings;
    // Read from probe and bench (not part of the JSON on their own).
    std::optional<ProbeGeometry> geometry;
    std::optional<ProbeCapacity> capacity;
    std::optional<StateComparison> state; // from the last mmc-bench document of suite "state"
    std::optional<SustainedCurve> sustained; // from the last mmc-bench document of suite "sustained"
    std::optional<HealthFigures> health_figures; // from health
    std::optional<TuneBus> tune_bus;     // from tune.bus
    std::optional<TuneQueue> tune_queue; // from tune.queue
};

// The CID as its hex, from the registers mmc-info read; "" without one.
std::string card_cid(const Bundle& bundle);

// The parts read out of the tools' documents, as from_json fills them in
// (make_bundle too): geometry and capacity from bundle.probe, state and
// sustained from bundle.bench, health_figures from bundle.health, tune_bus
// and tune_queue from bundle.tune. Wrong types are warnings.
void read_tool_parts(Bundle& bundle);

// A document that is not a bundle (no "format": "mmckit-bundle"), or one in
// a newer format version than this code reads.
struct NotABundle : std::runtime_error {
    using std::runtime_error::runtime_error;
};

json to_json(const Bundle& bundle);

// Reads a bundle; throws NotABundle when doc is not one. Parts that are
// missing stay empty; parts of the wrong type are dropped with a warning in
// Bundle::warnings.
Bundle from_json(const json& doc);

// Reads and parses a file; throws std::runtime_error ("PATH: why") when it
// cannot be read or is not JSON, NotABundle when it is not a bundle.
Bundle load_bundle(const std::filesystem::path& path);

// What a key given twice in one object says ("/registers/registers/csd:
// given twice; ..."), for the JSON pointer of the key.
std::string duplicate_key_warning(const std::string& pointer);

// True when doc says it is a bundle (its "format"), whatever its version.
bool looks_like_bundle(const json& doc);

// A piece of a file name: lower-case ASCII letters, digits, '.' and '-'
// only, no leading dot, runs of anything else turned into one '-', at most
// max_length characters; fallback when nothing is left.
std::string safe_name_part(std::string_view text, std::size_t max_length, std::string_view fallback);

// "<card>-<host>-<UTC time>.json", from the labels and "created"
// ("2026-11-03T10:15:00Z" -> "20261103T101500Z").
std::string bundle_file_name(const Bundle& bundle);

// "2026-11-03T10:15:00Z" for a time in seconds since the epoch.
std::string iso8601_utc(int64_t seconds_since_epoch);

} // namespace mmc::report
