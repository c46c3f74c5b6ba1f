// The speed-class verdicts of the sustained suite, by the SD Physical Layer
// specification's method (Speed Class chapter, "Write Performance"): the
// host writes recording units (RUs) sequentially into a free allocation unit
// (AU), and the performance Pw of that AU is its bytes over the time from
// the start of its first RU to the end of its last. A claim (class 2/4/6/10
// in MB/s, UHS grade U1 = 10, U3 = 30, video class V6..V90 in MB/s) holds
// when every AU meets it, so the verdict rests on the slowest AU, and a
// failure names that AU and what made it slow (its longest write).
#pragma once

#include "bench/suites.h"
#include "bench/sustained.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mmc::bench {

struct AuSpeed {
    uint64_t index = 0;          // the AU's number on the card (offset / AU size)
    uint64_t written_before = 0; // bytes the run had written when the AU began
    double mb_s = 0;             // Pw: the AU's bytes over the time its RUs took
    double seconds = 0;          // that time
    uint64_t writes = 0;         // its RUs
    double slowest_write_ms = 0; // its longest write ...
    uint64_t slowest_written_before = 0; // ... and the bytes written before it
};

// Every AU the trace covers whole, in order. A write that crosses an AU
// boundary (an RU must not) counts where it starts.
std::vector<AuSpeed> au_speeds(std::span<const WriteSample> trace, uint64_t au_bytes);

// The slowest AU (nothing when no AU was covered whole).
std::optional<AuSpeed> slowest_au(std::span<const AuSpeed> aus);

// One verdict per claim the card makes in its registers (none when it
// makes none or is not an SD card; "not-applicable" with why when its
// claims are unknown or no whole AU was written). `aus_free` says whether the
// AUs were erased before the run (the spec measures free AUs); when they were
// not, each verdict says so. A failure reads "AU 37: 24.1 MB/s < 30: a 412 ms
// stall at 1.18 GiB" (or "... : its writes were uniformly slow" when no
// write in it stood out).
std::vector<Verdict> sustained_class_verdicts(std::span<const AuSpeed> aus, const SuiteFacts& facts, bool aus_free,
                                              const SustainedOptions& options = {});

} // namespace mmc::bench
