// The one way children are started and waited for: a child starts with
// default signal dispositions and nothing blocked whatever ours are, a wait
// past its limit kills and reaps, exit codes read as a shell's, and a stop
// reaches the child once. Every wait here is bounded: by a limit, or by a
// child that ends by itself within seconds.
#include "cli/process.h"

#include "cli/stop_signal.h"
#include "ignoring_sigint.h"
#include "ready_file.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace std::chrono_literals;
using mmc::cli::Child;
using mmc::cli::Redirect;
using mmc::cli::SpawnOptions;
namespace fs = std::filesystem;

namespace {

// A private directory, removed at the end of the test.
struct ScratchDir {
    fs::path path = fs::temp_directory_path() / ("cli-process-" + std::to_string(::getpid()));
    ScratchDir() { fs::create_directories(path); }
    ~ScratchDir() { fs::remove_all(path); }
};

std::string read_file(const fs::path& file)
{
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// "SigIgn:\t..." and "SigBlk:\t..." of a /proc status file, the mask as hex.
std::string status_field(const std::string& status, const std::string& name)
{
    std::istringstream lines(status);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(name + ":\t", 0) == 0) return line.substr(name.size() + 2);
    return "(no " + name + ")";
}

bool mask_has(const std::string& hex_mask, int sig)
{
    return (std::stoull(hex_mask, nullptr, 16) >> (sig - 1)) & 1;
}

// While it lives, signals 32 and 33 (glibc's SIGCANCEL and SIGSETXID) are
// ignored, as in a process started by glibc's posix_spawn. The kernel's
// sigaction record is kept as it was read and put back byte for byte.
struct GlibcSignalsIgnored {
    static constexpr unsigned long kernel_sigset_bytes = 8;
    unsigned long old_action[2][8] = {};
    GlibcSignalsIgnored()
    {
        const unsigned long ignore[8] = {reinterpret_cast<unsigned long>(SIG_IGN)};
        for (int i = 0; i < 2; ++i) syscall(SYS_rt_sigaction, 32 + i, ignore, old_action[i], kernel_sigset_bytes);
    }
    ~GlibcSignalsIgnored()
    {
        for (int i = 0; i < 2; ++i) syscall(SYS_rt_sigaction, 32 + i, old_action[i], nullptr, kernel_sigset_bytes);
    }
};

// Runs body in a forked process (its signal handlers stay out of the test
// binary); its exit status, or 128 + the signal that killed it.
template <typename Body>
int in_helper_process(Body body)
{
    const pid_t pid = fork();
    if (pid == 0) {
        alarm(20); // a helper that hangs dies of SIGALRM, and the test fails
        _exit(body());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return mmc::cli::exit_code_of(status);
}

} // namespace

TEST(CliProcess, AChildStartsWithDefaultSignalsAndNoneBlockedWhateverOursAre)
{
    ScratchDir dir;
    const IgnoringSigintBlockingSigterm ours;
    // The condition is real: this thread does ignore SIGINT and block SIGTERM.
    const auto mine = read_file("/proc/thread-self/status");
    ASSERT_TRUE(mask_has(status_field(mine, "SigIgn"), SIGINT)) << mine;
    ASSERT_TRUE(mask_has(status_field(mine, "SigBlk"), SIGTERM)) << mine;

    // And glibc's own two signals, which a parent started by posix_spawn
    // hands on ignored (glibc's sigaction refuses them: the system call).
    const GlibcSignalsIgnored glibcs;
    ASSERT_TRUE(mask_has(status_field(read_file("/proc/thread-self/status"), "SigIgn"), 32));

    for (const bool own_group : {false, true}) {
        SpawnOptions options;
        options.out = Redirect::to_file(dir.path / "status");
        options.own_process_group = own_group;
        fs::remove(dir.path / "status");
        Child grep({"grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"}, options);
        ASSERT_TRUE(grep.wait_or_kill(10s));
        EXPECT_EQ(grep.exit_code(), 0);
        const auto theirs = read_file(dir.path / "status");
        EXPECT_EQ(status_field(theirs, "SigIgn"), "0000000000000000") << "own process group: " << own_group;
        EXPECT_EQ(status_field(theirs, "SigBlk"), "0000000000000000") << "own process group: " << own_group;
    }
}

TEST(CliProcess, AChildOfItsOwnProcessGroupLeadsIt)
{
    SpawnOptions own;
    own.own_process_group = true;
    Child apart({"sleep", "5"}, own);
    Child beside({"sleep", "5"});
    EXPECT_EQ(getpgid(apart.pid()), apart.pid());
    EXPECT_EQ(getpgid(beside.pid()), getpgrp());
    EXPECT_FALSE(apart.wait_or_kill(0ms));
    EXPECT_FALSE(beside.wait_or_kill(0ms));
}

TEST(CliProcess, AWaitPastItsLimitKillsAndReapsTheChild)
{
    Child sleeper({"sleep", "30"});
    EXPECT_FALSE(sleeper.wait_for(100ms)); // still running, and left so
    EXPECT_EQ(kill(sleeper.pid(), 0), 0);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(sleeper.wait_or_kill(100ms));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
    EXPECT_EQ(sleeper.exit_code(), 128 + SIGKILL);
    int status = 0;
    errno = 0;
    EXPECT_EQ(waitpid(sleeper.pid(), &status, WNOHANG), -1) << "not reaped";
    EXPECT_EQ(errno, ECHILD);
}

TEST(CliProcess, AChildThatEndsInTimeIsNotKilled)
{
    Child quick({"sh", "-c", "exit 4"});
    EXPECT_TRUE(quick.wait_or_kill(10s));
    EXPECT_EQ(quick.exit_code(), 4);
    quick.send(SIGKILL); // reaped: its pid is no longer ours to signal, so nothing happens
    EXPECT_EQ(quick.exit_code(), 4);
}

TEST(CliProcess, ALeftChildIsKilledAndReaped)
{
    pid_t pid;
    {
        Child left({"sleep", "30"});
        pid = left.pid();
    }
    int status = 0;
    errno = 0;
    EXPECT_EQ(waitpid(pid, &status, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
}

TEST(CliProcess, ExitCodesReadAsAShellsDo)
{
    EXPECT_EQ(mmc::cli::exit_code_of(W_EXITCODE(3, 0)), 3);
    EXPECT_EQ(mmc::cli::exit_code_of(W_EXITCODE(0, SIGTERM)), 128 + SIGTERM);
    EXPECT_EQ(mmc::cli::run({"sh", "-c", "exit 0"}), 0);
    EXPECT_EQ(mmc::cli::run({"sh", "-c", "exit 3"}), 3);
    EXPECT_EQ(mmc::cli::run({"sh", "-c", "exit 255"}), 255);
    EXPECT_EQ(mmc::cli::run({"sh", "-c", "kill -TERM $$"}), 128 + SIGTERM);
    EXPECT_EQ(mmc::cli::run({"sh", "-c", "kill -KILL $$"}), 128 + SIGKILL);
}

TEST(CliProcess, AProgramThatCannotStartSaysWhyAsAShellWould)
{
    try {
        Child missing({"mmc-no-such-program"});
        ADD_FAILURE() << "started a program that does not exist";
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code(), std::errc::no_such_file_or_directory);
        EXPECT_NE(std::string(e.what()).find("mmc-no-such-program"), std::string::npos) << e.what();
        EXPECT_EQ(mmc::cli::exit_code_of_start_failure(e), 127);
    }
    ScratchDir dir;
    std::ofstream(dir.path / "not-runnable") << "#!/bin/sh\n";
    fs::permissions(dir.path / "not-runnable", fs::perms::owner_read | fs::perms::owner_write);
    try {
        Child refused({(dir.path / "not-runnable").string()});
        ADD_FAILURE() << "started a file that is not executable";
    } catch (const std::system_error& e) {
        EXPECT_EQ(mmc::cli::exit_code_of_start_failure(e), 126) << e.what();
    }
}

TEST(CliProcess, FindsOnlyExecutableFilesOnPath)
{
    ScratchDir dir;
    fs::create_directories(dir.path / "bin" / "mmc-dir");
    std::ofstream(dir.path / "bin" / "mmc-text") << "text\n";
    std::ofstream(dir.path / "bin" / "mmc-tool") << "#!/bin/sh\n";
    fs::permissions(dir.path / "bin" / "mmc-tool", fs::perms::owner_all);
    const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir.path / "bin").string().append(":/usr/bin:/bin").c_str(), 1);
    EXPECT_EQ(mmc::cli::find_program("mmc-tool"), dir.path / "bin" / "mmc-tool");
    EXPECT_EQ(mmc::cli::find_program("mmc-dir"), fs::path());
    EXPECT_EQ(mmc::cli::find_program("mmc-text"), fs::path());
    EXPECT_EQ(mmc::cli::find_program("sh").filename(), "sh");
    ::setenv("PATH", old_path.c_str(), 1);
}

TEST(CliProcess, TheEnvironmentAndStreamsAreAsAsked)
{
    ScratchDir dir;
    std::ofstream(dir.path / "in") << "from a file\n";
    SpawnOptions options;
    options.in = Redirect::to_file(dir.path / "in");
    options.out = Redirect::to_file(dir.path / "out");
    std::FILE* err = std::tmpfile();
    ASSERT_NE(err, nullptr);
    options.err = Redirect::to_descriptor(fileno(err));
    options.environment = {{"MMC_TEST_ADDED", "added"}, {"HOME", "/replaced"}};
    EXPECT_EQ(mmc::cli::run({"sh", "-c", "read line; echo \"$line $MMC_TEST_ADDED $HOME\"; echo said >&2"}, options), 0);
    EXPECT_EQ(read_file(dir.path / "out"), "from a file added /replaced\n");
    std::rewind(err);
    char buf[64] = {};
    EXPECT_EQ(std::string(buf, std::fread(buf, 1, sizeof buf, err)), "said\n");
    std::fclose(err);
}

TEST(CliProcess, AStopReachesAChildOfItsOwnGroupAsOneSigint)
{
    // The child counts the SIGINTs it gets and exits with the count half a
    // second after the first (time for a second to arrive), or by itself
    // after 10 s whatever happens. It says when its trap is set, and the
    // stop comes only then.
    SpawnOptions own;
    own.own_process_group = true;
    const ReadyFile ready;
    Child counter({"sh", "-c",
                   "n=0; trap 'n=$((n+1))' INT; " + ready.shell_says_ready() +
                       "; i=0; after=0; while [ $i -lt 200 ] && [ $after -lt 10 ]; do sleep 0.05; i=$((i+1)); "
                       "[ $n -eq 0 ] || after=$((after+1)); done; exit $n"},
                  own);
    std::atomic<bool> stop{false};
    bool said_ready = false;
    std::thread ctrl_c([&] {
        said_ready = ready.wait();
        stop.store(true);
    });
    const int code = counter.wait_passing_on_stop(stop);
    ctrl_c.join();
    EXPECT_TRUE(said_ready) << "the child never set its trap";
    EXPECT_EQ(code, 1) << "SIGINTs the child got";
}

TEST(CliProcess, AStopSentToUsAloneReachesAChildOfOurGroup)
{
    const int code = in_helper_process([] {
        mmc::cli::install_stop_signals();
        Child sleeper({"sleep", "5"});
        kill(getpid(), SIGTERM); // as a service manager sends it: to us alone
        return sleeper.wait_passing_on_stop(mmc::cli::stop_requested());
    });
    EXPECT_EQ(code, 128 + SIGTERM) << "the child was not passed the SIGTERM";
}

TEST(CliProcess, AStopFlagAloneIsNotPassedToAChildOfOurGroup)
{
    // The terminal's Ctrl-C reached such a child itself: another would be a second.
    const int code = in_helper_process([] {
        mmc::cli::install_stop_signals();
        std::atomic<bool> stop{true};
        return Child({"sleep", "0.3"}).wait_passing_on_stop(stop);
    });
    EXPECT_EQ(code, 0);
}

TEST(CliProcess, LastLinesAreWhatAChildSaidLast)
{
    EXPECT_EQ(mmc::cli::last_lines("one\ntwo\n\nthree\n\n"), "three");
    EXPECT_EQ(mmc::cli::last_lines("one\ntwo\n\nthree\n", 2), "two; three");
    EXPECT_EQ(mmc::cli::last_lines("one", 5), "one");
    EXPECT_EQ(mmc::cli::last_lines(""), "");
}
