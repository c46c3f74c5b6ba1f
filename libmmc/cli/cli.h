// What every tool shares at its edges: error messages in the util-linux
// form "tool: what: why", exit codes (the typed error: cli/errors.h), colour
// policy, reading "@FILE".
#pragma once

#include "cli/errors.h"
#include "cli/next_option.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace mmc::cli {

// interrupted: a run stopped by SIGINT, SIGTERM or SIGHUP, whichever signal
// (128 + SIGINT, what a shell reports for Ctrl-C); the JSON of such a run has
// "interrupted": true. The same in every tool.
enum Exit { ok = 0, failure = 1, usage = 2, interrupted = 130 };

// Bad command-line input: an Error of kind usage (exit 2, with the --help
// hint), thrown by option parsing.
struct UsageError : Error {
    explicit UsageError(const std::string& message) : Error(ErrorKind::usage, message) {}
};

// Print "tool: message" to stderr.
void error(std::string_view tool, std::string_view message);

// Print "tool: message" and the --help hint; returns the usage exit code.
int usage_failure(std::string_view tool, std::string_view message);

// The ends of every getopt_long loop: -V, and ':' (missing argument) or '?'
// (unknown option) turned into a UsageError naming the option.
[[noreturn]] void print_version_and_exit(std::string_view tool);
[[noreturn]] void throw_getopt_error(int c, char** argv);

// Registers a check, run at exit, that everything written to stdout reached
// it (util-linux close_stdout): a tool whose output was lost, to a full disk
// or a closed descriptor, says "tool: write error: ..." and exits 1 instead
// of 0. A closed pipe (EPIPE) is not an error: "tool | head" is normal.
void check_stdout_at_exit(std::string_view tool);

// Colour only on a terminal and never with NO_COLOR.
bool use_color(int fd);

// The argument itself, or the contents of FILE for "@FILE".
std::string read_arg_or_file(const std::string& arg);

} // namespace mmc::cli
