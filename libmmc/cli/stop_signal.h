// Ctrl-C, SIGTERM and SIGHUP as a request to stop: the handler only records
// it, and the run stops at its next check, cleans up and exits with
// cli::interrupted (or, for mmc-sim, 128 + the signal). The one place for
// every tool and command, so they all catch the same signals the same way;
// passing a stop on to a child process is cli/process.h's.
#pragma once

#include <atomic>

namespace mmc::cli {

// What a second stop signal does once the first has been recorded.
enum class SecondSignal {
    ignored, // the run always finishes its cleanup (restoring data, ending an erase command)
    kills,   // the default action: a run with nothing to undo ends at once
};

// Catches SIGINT, SIGTERM and SIGHUP, without SA_RESTART so that a blocked
// read (a confirmation prompt) returns EINTR. Returns the flag the handler
// sets; calling it again only changes what a second signal does.
const std::atomic<bool>& install_stop_signals(SecondSignal second = SecondSignal::ignored);

// The flag itself, for code that checks it (false until a signal came, and
// always false when install_stop_signals was never called).
const std::atomic<bool>& stop_requested();

// The first stop signal received (SIGINT, SIGTERM or SIGHUP), 0 when none.
int first_stop_signal();

// A stop signal sent to this process alone (by kill(2): a service manager,
// a script), not yet passed on, and forgets it; 0 when there is none. A
// signal from the terminal (Ctrl-C) is not one: the terminal sent it to
// the whole foreground process group, our children in it included.
int take_signal_sent_to_us_alone();

} // namespace mmc::cli
