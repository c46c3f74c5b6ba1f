#include "cli/stop_signal.h"

#include <csignal>
#include <initializer_list>

namespace mmc::cli {

namespace {

std::atomic<bool> requested{false};
std::atomic<int> first_signal{0};
std::atomic<int> sent_to_us_alone{0};

static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "a signal handler may only touch lock-free atomics");

extern "C" void on_stop_signal(int sig, siginfo_t* info, void*)
{
    int none = 0;
    first_signal.compare_exchange_strong(none, sig);
    // The terminal's signals come from the kernel (SI_KERNEL); kill(2)'s
    // carry SI_USER (or SI_QUEUE, SI_TKILL): those reached us alone.
    if (info && info->si_code != SI_KERNEL) sent_to_us_alone.store(sig);
    requested.store(true);
}

} // namespace

const std::atomic<bool>& install_stop_signals(SecondSignal second)
{
    struct sigaction sa {};
    sa.sa_sigaction = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    // No SA_RESTART: a read at a prompt returns. SA_RESETHAND restores the
    // default action once the handler has run, so a second signal kills.
    sa.sa_flags = SA_SIGINFO | (second == SecondSignal::kills ? SA_RESETHAND : 0);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    return requested;
}

const std::atomic<bool>& stop_requested() { return requested; }

int first_stop_signal() { return first_signal.load(); }

int take_signal_sent_to_us_alone() { return sent_to_us_alone.exchange(0); }

} // namespace mmc::cli
