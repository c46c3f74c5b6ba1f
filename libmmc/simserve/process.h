// Starting and waiting for the helper programs of the serving chain
// (nbdkit, nbdfuse, losetup, fusermount3): fork/exec with the output in a
// log file, so that a failure can be reported with what the helper said.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace mmc::simserve {

// PATH lookup; empty when the program is not installed.
std::filesystem::path find_program(const std::string& name);

struct SpawnOptions {
    std::filesystem::path stdout_file; // empty: /dev/null
    std::filesystem::path stderr_file; // empty: /dev/null
    bool own_process_group = false;    // out of the terminal's reach: Ctrl-C is ours to handle
    bool inherit_stdio = false;        // the user's command: our stdin, stdout and stderr
    std::vector<std::pair<std::string, std::string>> environment; // added to ours
};

// Starts argv[0] (looked up in PATH) and returns its pid; throws std::system_error.
pid_t spawn(const std::vector<std::string>& argv, const SpawnOptions& options);

// Runs argv to completion; returns its wait status decoded as an exit code
// (128+N when killed by signal N).
int run(const std::vector<std::string>& argv, const SpawnOptions& options);

// Waits for pid up to timeout; true when it exited (status stored when given).
bool wait_for_exit(pid_t pid, std::chrono::milliseconds timeout, int* exit_code = nullptr);

// The exit code a shell would show for a wait status.
int exit_code_of(int wait_status);

// The last lines of a log file, joined with "; " (for error messages).
std::string log_tail(const std::filesystem::path& file, std::size_t lines = 3);

} // namespace mmc::simserve
