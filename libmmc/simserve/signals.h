// Ctrl-C and SIGTERM while a simulated card is served: the handler only
// records the signal, so the chain is always torn down by ordinary code.
#pragma once

#include <sys/types.h>

namespace mmc::simserve {

// Catches SIGINT, SIGTERM and SIGHUP (without SA_RESTART, so waits return EINTR).
void catch_stop_signals();

// The first stop signal received so far, 0 when none.
int stop_signal();

// Passes a signal that was sent to us alone (kill, not the terminal) on to
// pid; a Ctrl-C from the terminal already reached pid's process group.
void forward_stop_signal(pid_t pid);

} // namespace mmc::simserve
