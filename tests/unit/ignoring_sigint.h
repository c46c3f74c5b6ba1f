// A test's stand-in for a background job of a non-interactive shell
// (`make check &`), which ignores SIGINT: every child it starts inherits
// that through exec unless the spawn resets it.
#pragma once

#include <csignal>
#include <pthread.h>

// While it lives, the process ignores SIGINT and this thread blocks SIGTERM.
struct IgnoringSigintBlockingSigterm {
    struct sigaction old_int {};
    sigset_t old_mask;
    IgnoringSigintBlockingSigterm()
    {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGINT, &ignore, &old_int);
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &term, &old_mask);
    }
    ~IgnoringSigintBlockingSigterm()
    {
        sigaction(SIGINT, &old_int, nullptr);
        pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    }
    IgnoringSigintBlockingSigterm(const IgnoringSigintBlockingSigterm&) = delete;
    IgnoringSigintBlockingSigterm& operator=(const IgnoringSigintBlockingSigterm&) = delete;
};
