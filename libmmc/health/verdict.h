// The verdict: one word a script can act on, from every reading and the
// writability. Thresholds (documented in mmc-health(1)):
//   end_of_life  a source says the rated life is used up (EXT_CSD life time
//                0x0B, a vendor's life remaining 0%, SanDisk's used above
//                100%), PRE_EOL_INFO urgent, or no spare blocks left;
//   read_only    the user area cannot be written now (writability);
//   worn         life used >= 80% (EXT_CSD 0x08, "70-80%", counts as 80),
//                PRE_EOL_INFO warning, or at most 20% of the spare blocks left;
//   healthy      at least one source gives life used, PRE_EOL or spare left,
//                and none of the above;
//   unknown      no source gives any of them (an EXT_CSD before revision 7,
//                an SD card without a known layout): never healthy by default.
#pragma once

#include "health/reading.h"
#include "health/writability.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::health {

enum class Verdict { healthy, worn, end_of_life, read_only, unknown };
std::string_view to_string(Verdict v);

inline constexpr double worn_life_used_percent = 80.0;
inline constexpr double worn_spare_left_percent = 20.0;

// The figure that decided a verdict; its word is the schema key the JSON's
// verdict_basis names.
// canary: the write canary (canary.h) lost or could not write what it wrote.
enum class DecidingFigure { none, life_used_percent, pre_eol, spare_blocks_percent, writable, canary };
std::string_view to_string(DecidingFigure f); // "", "life_used_percent", ..., "writable", "canary"

struct Judgement {
    Verdict verdict = Verdict::unknown;
    std::string source; // the reading (or "writability") that decided; empty for healthy/unknown
    DecidingFigure figure = DecidingFigure::none;
};

Judgement judge(const std::vector<Reading>& readings, const Writability& writability);

// mmc-health's exit status for a verdict: 0 healthy, 3 worn, 4 end_of_life,
// 5 read_only, 6 unknown (1 and 2 stay failure and usage). mmc-qualify
// reads them back as answers, not failures.
int exit_status(Verdict v);
std::optional<Verdict> verdict_of_exit_status(int status);

// Worst first: end_of_life 4, read_only 3, worn 2, unknown 1, healthy 0.
int severity(Verdict v);

} // namespace mmc::health
