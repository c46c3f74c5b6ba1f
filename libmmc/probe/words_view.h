// The words the probe's views give its typed results: one function per
// type, the only place each word is spelled (the JSON in mmc-probe(1) and
// the text views use them; the library compares the enums, never the words).
#pragma once

#include "probe/capacity.h"
#include "probe/confidence.h"
#include "probe/open_aus.h"

namespace mmc::probe {

const char* confidence_name(Confidence);     // "none", "low", "medium", "high"
const char* open_au_mode_name(OpenAuMode);   // "linear", "random", "start-random"
const char* verdict_name(Verdict);           // "good", "limbo", "wraparound", "chain", "bad"

} // namespace mmc::probe
