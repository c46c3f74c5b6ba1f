// The write canary (mmc-health --canary): a few pages written with the
// verify pattern (probe/verify.h: each sector names its own address and
// this run's sequence number), flushed, read back past the page cache and
// compared. It catches what a card's registers cannot say: a card that
// acknowledges writes and keeps none (the end of life of many SD cards),
// one that turned read-only, or one whose fresh writes read back wrong.
// Pure: the space written is a probe::VerifyTarget (a file of its own on
// the mounted file system, or a named raw region: canary_targets.h; a
// simulated card in the unit tests).
#pragma once

#include "health/assess.h"
#include "health/canary_result.h"
#include "probe/verify.h"

namespace mmc::health {

// One run on `target` with this sequence number (the caller picks it at
// random, so that what an earlier run left cannot pass for this one's).
// Throws what the target throws for anything but a refused or failed
// write (EROFS, EPERM, EACCES, EIO as std::system_error).
CanaryResult run_canary(probe::VerifyTarget& target, uint64_t sequence);

// The canary's word on the verdict: read_only makes the card read_only,
// any other failure end_of_life (a card that loses what it acknowledges
// is done), unless the registers already say worse. The report keeps it.
void apply_canary(HealthReport& report, const CanaryResult& canary);

} // namespace mmc::health
