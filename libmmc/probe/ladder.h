// The read-timing ladder and what it says about the flash: pure analysis,
// samples in, page / allocation-unit size, confidence and evidence out. The
// same analysis reads a ladder measured here (sampler.h) and the text of a
// `flashbench -a` run (flashbench_text.h).
//
// A row is one candidate boundary A: the mean time of small reads just
// before A ("pre"), straddling A ("on") and just after it ("post"). A read
// that straddles a flash page or an AU boundary costs more than one that
// does not, so diff = on - (pre + post) / 2 steps up at the page size and
// again at the AU size, and stays up for every multiple (Arnd Bergmann's
// reading of flashbench -a, LWN 2011).
#pragma once

#include "probe/confidence.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::probe {

struct LadderRow {
    uint64_t align = 0;     // the boundary tested, bytes: 2^n or 3*2^n
    double pre_ns = 0;
    double on_ns = 0;
    double post_ns = 0;
    unsigned positions = 0; // device offsets averaged (0: unknown, e.g. pasted text)

    double diff_ns() const { return on_ns - (pre_ns + post_ns) / 2; }
};

struct Ladder {
    std::vector<LadderRow> rows;      // any order
    uint64_t read_bytes = 0;          // size of each timed read (0: unknown)
    unsigned repeats = 0;             // reads per position, the minimum kept (0: unknown)
    std::optional<double> noise_ns;   // measured spread of repeated reads, when measured
};

struct Geometry {
    std::optional<uint64_t> page_bytes;        // the first step
    std::optional<uint64_t> multi_plane_bytes; // a second step right above the page (two pages read at once)
    std::optional<uint64_t> au_bytes;          // the strongest sustained step at AU sizes
    Confidence confidence = Confidence::none;  // none: no boundary
    double threshold_ns = 0;                   // a step must exceed this to count
    double noise_floor_ns = 0;                 // the spread of diff where there is no boundary
    std::optional<double> page_step_ns, au_step_ns;
    std::vector<std::string> evidence;         // one sentence per finding, in words
};

// Pages are looked for up to here, AUs from here (real cards: pages of
// 2-64 KiB, erase blocks of 128 KiB and up).
inline constexpr uint64_t max_page_bytes = 64 * 1024;
inline constexpr uint64_t min_au_bytes = 128 * 1024;

Geometry analyze(const Ladder& ladder);

// True for 2^n and 3*2^n: the sizes flash erase blocks come in.
bool is_au_shaped(uint64_t bytes);

} // namespace mmc::probe
