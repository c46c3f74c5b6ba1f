// The stop-signal helper, in a child process each so the test binary keeps
// its own signal dispositions: a signal sets the flag and the run goes on, a
// second signal is ignored or kills as asked, a blocked read returns, the
// first signal is the one recorded, and one sent to us alone is taken once.
#include "cli/stop_signal.h"

#include <cerrno>
#include <csignal>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using mmc::cli::SecondSignal;

namespace {

// Runs body in a child; returns its wait status.
template <typename Body>
int in_child(Body body)
{
    const pid_t pid = fork();
    if (pid == 0) _exit(body());
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

} // namespace

TEST(CliStopSignal, EachStopSignalSetsTheFlag)
{
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        const int status = in_child([sig] {
            const auto& stop = mmc::cli::install_stop_signals();
            if (stop.load()) return 10;
            raise(sig);
            // The flag the helper returned is the one every checker reads.
            return stop.load() && &stop == &mmc::cli::stop_requested() ? 0 : 11;
        });
        ASSERT_TRUE(WIFEXITED(status)) << "signal " << sig << " killed the child";
        EXPECT_EQ(WEXITSTATUS(status), 0) << "signal " << sig;
    }
}

TEST(CliStopSignal, ASecondSignalIsIgnoredByDefault)
{
    const int status = in_child([] {
        const auto& stop = mmc::cli::install_stop_signals();
        raise(SIGTERM);
        raise(SIGINT);
        return stop.load() ? 0 : 1;
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(CliStopSignal, ASecondSignalKillsWhenAsked)
{
    const int status = in_child([] {
        const auto& stop = mmc::cli::install_stop_signals(SecondSignal::kills);
        raise(SIGINT);
        if (!stop.load()) return 1;
        raise(SIGINT);
        return 2; // not reached: the default action ends the process
    });
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    EXPECT_EQ(WTERMSIG(status), SIGINT);
}

TEST(CliStopSignal, ABlockedReadReturnsInsteadOfRestarting)
{
    const int status = in_child([] {
        int fds[2];
        if (pipe(fds) != 0) return 1;
        const auto& stop = mmc::cli::install_stop_signals();
        const pid_t parent = getpid();
        if (fork() == 0) { // a signal from outside, while the read waits
            usleep(200 * 1000);
            kill(parent, SIGINT);
            _exit(0);
        }
        alarm(5); // a restarted read would wait forever: SIGALRM ends it, and the test fails
        char c;
        const ssize_t n = read(fds[0], &c, 1); // nothing will ever come
        const int err = errno;
        wait(nullptr);
        return n < 0 && err == EINTR && stop.load() ? 0 : 3;
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(CliStopSignal, TheFirstSignalIsTheOneRecorded)
{
    const int status = in_child([] {
        mmc::cli::install_stop_signals();
        if (mmc::cli::first_stop_signal() != 0) return 1;
        raise(SIGTERM);
        raise(SIGINT);
        return mmc::cli::first_stop_signal() == SIGTERM ? 0 : 2;
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(CliStopSignal, ASignalSentToUsAloneIsTakenOnce)
{
    const int status = in_child([] {
        mmc::cli::install_stop_signals();
        if (mmc::cli::take_signal_sent_to_us_alone() != 0) return 1;
        kill(getpid(), SIGHUP); // kill(2): SI_USER, not the terminal's SI_KERNEL
        if (mmc::cli::take_signal_sent_to_us_alone() != SIGHUP) return 2;
        return mmc::cli::take_signal_sent_to_us_alone() == 0 ? 0 : 3; // passed on once, then forgotten
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}
