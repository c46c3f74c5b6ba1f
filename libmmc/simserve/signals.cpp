#include "simserve/signals.h"

#include <csignal>
#include <initializer_list>

namespace mmc::simserve {

namespace {

volatile sig_atomic_t first_signal = 0;
volatile sig_atomic_t unforwarded = 0; // a signal sent by kill(2), not yet passed on

void on_signal(int sig, siginfo_t* info, void*)
{
    if (!first_signal) first_signal = sig;
    if (info && info->si_code != SI_KERNEL) unforwarded = sig;
}

} // namespace

void catch_stop_signals()
{
    struct sigaction sa = {};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

int stop_signal()
{
    return first_signal;
}

void forward_stop_signal(pid_t pid)
{
    if (const int sig = unforwarded) {
        unforwarded = 0;
        kill(pid, sig);
    }
}

} // namespace mmc::simserve
