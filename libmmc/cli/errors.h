// One typed error for every tool: what went wrong and its kind, and the kind
// alone decides the exit status. A tool's main() is
//     return cli::run_tool(tool, [&] { ...; return cli::ok; });
// and maps no exception itself: run_tool is the one place that turns a
// thrown error into "tool: message" on stderr and an exit status.
#pragma once

#include "cli/remedy.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mmc::cli {

enum class ErrorKind {
    failure,     // exit 1: the tool could not do what it was asked
    usage,       // exit 2: bad command-line input; "Try 'tool --help'" follows
    interrupted, // exit 130: stopped by a signal before it finished
};

// 1, 2, 130 (cli::Exit).
int exit_status(ErrorKind kind);

struct Error : std::runtime_error {
    ErrorKind kind;
    // What to do about it, said after the message. Library code gives a
    // Remedy by meaning (cli/remedy.cpp words it with its flag); a tool may
    // give its own words as the hint, which then come instead.
    std::string hint;
    Remedy remedy = Remedy::none;
    Error(ErrorKind k, const std::string& message, std::string h = {})
        : std::runtime_error(message), kind(k), hint(std::move(h)) {}
    Error(ErrorKind k, const std::string& message, Remedy r) : std::runtime_error(message), kind(k), remedy(r) {}
};

// "message", or "message; hint" with the hint, else the remedy's wording.
std::string error_text(const Error& error);

// Runs a tool's body and returns its status. What it throws becomes
// "tool: message" on stderr and an exit status: a cli::Error by its kind (a
// usage error adds the --help hint), any other exception is a failure, its
// library's wording made readable (library_text). When the command line
// asked for JSON (request_json_errors), the error is also printed on stdout
// as the tool's document:
//     {"tool": ..., "version": ..., "error": {"message": ..., "exit_status": N}}
int run_tool(std::string_view tool, const std::function<int()>& body);

// The line asked for -J/--json: errors run_tool reports are JSON on stdout
// too (cli::next_option calls this when it sees -J anywhere on the line).
void request_json_errors(bool on = true);

// An exception's message with the marks its library puts for programmers
// taken out ("[json.exception.parse_error.101] parse error at ..." reads
// "parse error at ..."), wherever they were embedded.
std::string library_text(std::string_view message);

// Runs `body`; an exception it throws comes out as a cli::Error of the same
// kind with "context: " before its message ("/dev/mmcblk0: not found").
template <typename Body>
auto in_context(std::string_view context, Body&& body) -> decltype(body());

[[noreturn]] void rethrow_in_context(std::string_view context);

// Runs `body`, which reads command-line input: what it throws that is not
// already a cli::Error is a usage error with the same message.
template <typename Body>
auto as_usage(Body&& body) -> decltype(body());

[[noreturn]] void rethrow_as_usage();

template <typename Body>
auto in_context(std::string_view context, Body&& body) -> decltype(body())
{
    try {
        return body();
    } catch (...) {
        rethrow_in_context(context);
    }
}

template <typename Body>
auto as_usage(Body&& body) -> decltype(body())
{
    try {
        return body();
    } catch (...) {
        rethrow_as_usage();
    }
}

} // namespace mmc::cli
