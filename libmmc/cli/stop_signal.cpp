#include "cli/stop_signal.h"

#include <csignal>
#include <initializer_list>

namespace mmc::cli {

namespace {

std::atomic<bool> requested{false};

static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may only touch a lock-free atomic");

extern "C" void on_stop_signal(int) { requested.store(true); }

} // namespace

const std::atomic<bool>& install_stop_signals(SecondSignal second)
{
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    // No SA_RESTART: a read at a prompt returns. SA_RESETHAND restores the
    // default action once the handler has run, so a second signal kills.
    sa.sa_flags = second == SecondSignal::kills ? SA_RESETHAND : 0;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    return requested;
}

const std::atomic<bool>& stop_requested() { return requested; }

} // namespace mmc::cli
