// Child processes, the one place that starts and waits for them: the
// simulator's host chain (nbdkit, nbdfuse, losetup), mmc-sim's COMMAND and
// mmc-qualify's steps that run a sibling tool.
//
// A child starts with every signal at its default action and none blocked,
// whatever ours are. A parent that ignores SIGINT (a background job of a
// non-interactive shell, `make check &`) would otherwise hand that on
// through exec, and the child could never be stopped by the SIGINT we send.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <system_error>
#include <utility>
#include <vector>

namespace mmc::cli {

// A regular file (or a link to one) that we may execute.
bool is_executable_file(const std::filesystem::path& file);

// The program's path on PATH; empty when there is none.
std::filesystem::path find_program(const std::string& name);

// A sibling tool's path: beside `self` (the running program), else on PATH,
// so an installed or built tree runs its own tools (mmc-qualify's steps,
// mmc-watch --health).
std::optional<std::string> find_tool(const std::string& tool, const std::string& self = "/proc/self/exe");

// Where one of a child's standard streams goes.
struct Redirect {
    enum class To { ours, file, descriptor } to = To::ours;
    std::filesystem::path file; // stdin reads it; stdout and stderr append (created 0600)
    int fd = -1;                // one of our descriptors, duplicated

    static Redirect ours() { return {}; }
    static Redirect null() { return to_file("/dev/null"); }
    static Redirect to_file(std::filesystem::path f) { return {To::file, std::move(f), -1}; }
    static Redirect to_descriptor(int d) { return {To::descriptor, {}, d}; }
};

struct SpawnOptions {
    Redirect in, out, err; // ours unless said
    // In a process group of its own: the terminal's Ctrl-C reaches us
    // alone, and a stop is ours to pass on (see Child::wait_passing_on_stop).
    bool own_process_group = false;
    std::vector<std::pair<std::string, std::string>> environment; // added to ours
};

// The exit code a shell shows for a wait status: the child's own, or
// 128 + N when signal N killed it.
int exit_code_of(int wait_status);

// The exit code a shell gives a command it could not start, from what the
// Child constructor threw: 127 not found, 126 found but not runnable.
int exit_code_of_start_failure(const std::system_error& error);

class Child {
public:
    // Starts argv[0] (looked up on PATH unless it holds a '/'). Throws
    // std::system_error naming argv[0] (ENOENT when it is not installed).
    explicit Child(const std::vector<std::string>& argv, const SpawnOptions& options = {});
    // A child still running when its Child goes is killed (SIGKILL) and
    // reaped: none outlives the code that started it unnoticed.
    ~Child();
    Child(Child&& other) noexcept;
    Child& operator=(Child&&) = delete;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return pid_; }
    // Its exit code once it has been reaped (by one of the waits below).
    std::optional<int> exit_code() const { return exit_code_; }

    // Sends it sig, unless it has been reaped: its pid may name another
    // process by then.
    void send(int sig);

    // Waits up to timeout (0: only looks); its exit code, or none while it runs.
    std::optional<int> wait_for(std::chrono::milliseconds timeout);

    // Waits up to timeout; past it, kills it (SIGKILL) and waits up to
    // kill_grace for the kernel to end it. True when it ended by itself in time.
    bool wait_or_kill(std::chrono::milliseconds timeout, std::chrono::milliseconds kill_grace = std::chrono::seconds(5));

    // Waits for the exit, however long it takes; its exit code.
    int wait();

    // Waits for the exit, passing a stop on to the child as it needs it:
    //  - in a process group of its own, out of the terminal's reach, it gets
    //    one SIGINT once `stop` is set (one only: a tool that stops cleanly
    //    on the first SIGINT dies of a second);
    //  - in ours, the terminal's Ctrl-C reached it already; it gets the stop
    //    signals sent to us alone, as they came (take_signal_sent_to_us_alone
    //    in cli/stop_signal.h, so install_stop_signals must have been called).
    int wait_passing_on_stop(const std::atomic<bool>& stop);

private:
    std::optional<int> reap_if_ended();

    pid_t pid_ = -1;
    bool own_process_group_ = false;
    std::optional<int> exit_code_;
};

// Runs argv to completion (no forwarding, no limit); its exit code.
int run(const std::vector<std::string>& argv, const SpawnOptions& options = {});

// What a helper program (mkfs, dtc, ...) said: its exit code and its two
// output streams together, in the order written. stdin is /dev/null.
// Throws std::system_error when it cannot be started (ENOENT: not installed).
struct Captured {
    int code = 0;
    std::string output;
};
Captured run_captured(const std::vector<std::string>& argv);

// The last `lines` non-empty lines of what a child wrote, joined with "; ":
// what it said, for an error message.
std::string last_lines(const std::string& output, std::size_t lines = 1);

} // namespace mmc::cli
