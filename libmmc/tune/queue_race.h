// mmc-tune queue's decision: which I/O scheduler and read-ahead suit this
// device, by measurement. The candidates are raced: every round measures
// each one still in the race once per workload, interleaved (A B A B ...,
// so a drift of the device or the machine falls on all of them alike, not
// on whichever ran last), and after each round a candidate whose interval
// lies wholly below the best one's is out. The race ends when one is left,
// when those left are equal within a small margin, or when the time budget
// would be overrun by another round.
//
// The two knobs are then decided apart, each on its own evidence: the
// read-ahead among the candidates with the scheduler in force, then the
// scheduler among those with the read-ahead so chosen. A knob is changed
// only when its value in force is beaten outside the noise (the intervals
// apart) by at least the margin a rule is worth; otherwise it is kept, and
// called the current setting, which is what it is.
//
// Pure over a MeasurementSource and its clock: the unit tests race a
// modelled device (means and noise, seeded) or scripted samples on a
// virtual clock, exactly; tune/queue_bench.h is the source that measures a
// real device.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::tune {

// One candidate: what queue/scheduler and queue/read_ahead_kb would hold.
struct QueueSetting {
    std::string scheduler;
    uint64_t read_ahead_kb = 0;
    bool operator==(const QueueSetting&) const = default;
};
// "mq-deadline, read-ahead 128 KiB"
std::string to_string(const QueueSetting& s);

// What is measured: each with the access the setting affects. Read-ahead
// acts only on buffered reads (O_DIRECT bypasses the page cache and its
// read-ahead), so seq_read reads through the page cache in small pieces, as
// a program reading a file does; the scheduler acts on every request, and
// rand_read queues direct reads so that it has something to order.
enum class Workload { seq_read, rand_read, seq_write, rand_write };
std::string_view to_string(Workload w); // "seq-read", "rand-read", "seq-write", "rand-write": the JSON's "suite"
bool writes(Workload w);

// The candidates: the start setting first, then every scheduler offered
// times the read-aheads (the start's own among them), duplicates dropped.
std::vector<QueueSetting> queue_candidates(const QueueSetting& start, const std::vector<std::string>& schedulers,
                                           const std::vector<uint64_t>& read_aheads_kb);
// The read-aheads tried when none are named: 128, 512 and 2048 KiB.
std::vector<uint64_t> default_read_aheads_kb();

// Where figures come from. measure() puts `setting` in force, runs
// `workload` once and returns its throughput in MB/s; it throws
// std::runtime_error when it cannot. now_s() is the clock the budget is
// spent on (seconds, from any origin).
class MeasurementSource {
public:
    virtual ~MeasurementSource() = default;
    virtual double measure(const QueueSetting& setting, Workload workload) = 0;
    virtual double now_s() const = 0;
};

struct RaceProgress {
    int round = 0;              // 1-based
    std::size_t candidate = 0;  // index into the candidates
    Workload workload = Workload::seq_read;
    std::size_t left = 0;       // candidates still in the race
    double elapsed_s = 0;
    double budget_s = 0;
};

struct RaceOptions {
    std::vector<Workload> workloads{Workload::seq_read, Workload::rand_read};
    double budget_s = 120;
    int min_rounds = 3;         // before any interval is drawn (t95(2) = 4.3: wide, but honest)
    int max_rounds = 100;
    // Those left are "equal" once every interval lies within +-this percent
    // of the best one's mean: measuring on would only split hairs.
    double equal_within_pct = 2;
    // A change must buy at least this much to be advised (a rule for less
    // is not worth its upkeep), even when it is measurably faster.
    double min_gain_pct = 5;
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const RaceProgress&)> progress; // before each measurement
};

struct Figure {
    double mean = 0, low = 0, high = 0; // the 95% interval of the mean
    int runs = 0;
};
// "12.5 to 18.0": an interval as words, its signs unambiguous.
std::string interval_text(const Figure& f);

struct Contender {
    QueueSetting setting;
    std::vector<std::vector<double>> runs; // per workload (RaceOptions order), one MB/s per round
    std::vector<double> scores;            // per round: the geometric mean over the workloads
    std::optional<int> out_after_round;    // measurably slower than the best, from this round on
    Figure score() const;
    Figure figure(std::size_t workload) const;
};

// better: a change is advised, or what is in force measurably beats every
// alternative; no_difference: nothing measured beats it outside the noise.
enum class RaceVerdict { better, no_difference };
std::string_view to_string(RaceVerdict v); // "better", "no measurable difference"

// One knob's decision (the scheduler, or the read-ahead).
struct KnobDecision {
    bool change = false;
    bool in_force_fastest = false; // kept: what is in force measurably beats every other value
    std::string reason;            // "kept, the current setting (none): mq-deadline measured within its noise"
};
enum class RaceEnd { one_left, equal, budget, max_rounds, interrupted };
std::string_view to_string(RaceEnd e); // "one left", "equal", "budget", "max rounds", "interrupted"

struct RaceResult {
    std::vector<Workload> workloads;
    std::vector<Contender> contenders; // as given: [0] is the start setting
    std::size_t chosen = 0;            // the advice (0: keep the start)
    RaceVerdict verdict = RaceVerdict::no_difference;
    KnobDecision read_ahead, scheduler;
    std::string reason;                // both decisions in one sentence
    RaceEnd end = RaceEnd::budget;
    int rounds = 0;
    double elapsed_s = 0;
};

// Races `candidates` ([0] the setting in force). Throws std::invalid_argument
// for no candidate or no workload; what the source throws passes through.
RaceResult race(MeasurementSource& source, const std::vector<QueueSetting>& candidates, const RaceOptions& options);

} // namespace mmc::tune
