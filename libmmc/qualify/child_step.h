// A step that runs a sibling tool as a child process with -J: for a tool
// whose library entry point is not ready to be called in-process, or one
// that may not be installed (WhenMissing::skip). The tool is looked for
// next to this program (/proc/self/exe), then on PATH. Its exit status is
// the step's; its stdout, parsed as JSON, the step's document; the last
// line of its stderr, the message.
//
// Ctrl-C: the child runs in its own process group, so a terminal's SIGINT
// reaches mmc-qualify alone, which forwards exactly one SIGINT (a second
// one would kill a tool that stops cleanly on the first).
#pragma once

#include "qualify/step.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmc::qualify {

enum class WhenMissing { fail, skip };

// The arguments after the program name; DEVICE is the caller's to add.
using ArgsFn = std::function<std::vector<std::string>(const Settings&)>;

StepSpec child_step(std::string name, std::string tool, ArgsFn args, Needs needs, WhenMissing when_missing);

// The usual arguments: `fixed` (a subcommand, -J, ...), then --any-device
// when the run has it and `any_device_too` (the tool takes it), then DEVICE.
ArgsFn with_device(std::vector<std::string> fixed, bool any_device_too = false);


struct ChildResult {
    int exit_status = 0; // the child's; 128 + N when signal N killed it
    std::string out, err;
};

// Runs program with args in its own process group; sends it SIGINT once
// when `stop` becomes true. One that cannot be started ends as a shell says
// it (127 not found, 126 not runnable) with the reason in `err`; throws
// std::system_error when no temporary file can hold its output.
ChildResult run_child(const std::string& program, const std::vector<std::string>& args, const std::atomic<bool>& stop);

} // namespace mmc::qualify
