#include "probe/words_view.h"

namespace mmc::probe {

const char* confidence_name(Confidence c)
{
    switch (c) {
    case Confidence::none: return "none";
    case Confidence::low: return "low";
    case Confidence::medium: return "medium";
    case Confidence::high: return "high";
    }
    return "?";
}

const char* open_au_mode_name(OpenAuMode m)
{
    switch (m) {
    case OpenAuMode::linear: return "linear";
    case OpenAuMode::random: return "random";
    case OpenAuMode::start_random: return "start-random";
    }
    return "?";
}

const char* verdict_name(Verdict v)
{
    switch (v) {
    case Verdict::good: return "good";
    case Verdict::limbo: return "limbo";
    case Verdict::wraparound: return "wraparound";
    case Verdict::chain: return "chain";
    case Verdict::bad: return "bad";
    }
    return "?";
}

} // namespace mmc::probe
