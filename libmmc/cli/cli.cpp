#include "cli/cli.h"

#include "cli/input.h"

#include "version.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <getopt.h>
#include <iostream>
#include <poll.h>
#include <sstream>
#include <unistd.h>

namespace mmc::cli {

void error(std::string_view tool, std::string_view message)
{
    fmt::print(stderr, "{}: {}\n", tool, message);
}

int usage_failure(std::string_view tool, std::string_view message)
{
    error(tool, message);
    fmt::print(stderr, "Try '{} --help' for more information.\n", tool);
    return usage;
}

void print_version_and_exit(std::string_view tool)
{
    fmt::print("{} from mmckit {}\n", tool, mmc::version);
    std::exit(ok);
}

void throw_getopt_error(int c, char** argv)
{
    if (c == ':') throw UsageError(fmt::format("option '{}' needs an argument", argv[optind - 1]));
    throw UsageError(fmt::format("unknown option '{}'", argv[optind - 1]));
}

namespace {

std::string stdout_owner = "mmckit";

void close_stdout()
{
    std::cout.flush();
    bool lost = std::cout.bad() || std::ferror(stdout);
    int err = 0;
    // A write that failed earlier left only the error flag; flushing what is
    // still buffered may name the reason.
    errno = 0;
    if (std::fflush(stdout) != 0) { lost = true; err = errno; }
    // A pipe whose reader has gone ("tool | head") reports POLLERR; with
    // SIGPIPE ignored that is the EPIPE the failed write no longer tells.
    pollfd out{fileno(stdout), 0, 0};
    if (lost && !err && poll(&out, 1, 0) == 1 && (out.revents & POLLERR)) err = EPIPE;
    if (std::fclose(stdout) != 0 && !err) { lost = true; err = errno; }
    if (lost && err != EPIPE) {
        fmt::print(stderr, "{}: write error{}{}\n", stdout_owner, err ? ": " : "", err ? std::strerror(err) : "");
        std::fflush(stderr);
        _exit(failure);
    }
}

} // namespace

void check_stdout_at_exit(std::string_view tool)
{
    stdout_owner = tool;
    std::atexit(close_stdout);
}

bool use_color(int fd)
{
    const char* no_color = std::getenv("NO_COLOR");
    return isatty(fd) && !(no_color && *no_color);
}

std::string read_arg_or_file(const std::string& arg)
{
    if (arg.empty() || arg[0] != '@') return arg;
    return read_file_capped(arg.substr(1), register_input_cap, "register dump");
}

} // namespace mmc::cli
