// Ctrl-C, SIGTERM and SIGHUP as a request to stop: the handler only records
// it, and the run stops at its next check, cleans up and exits with
// cli::interrupted. One place for every tool and command, so they all catch
// the same signals the same way.
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

} // namespace mmc::cli
