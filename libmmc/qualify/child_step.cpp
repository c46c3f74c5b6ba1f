#include "qualify/child_step.h"

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/process.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>

namespace mmc::qualify {

namespace fs = std::filesystem;

namespace {

std::string read_all(std::FILE* f)
{
    std::string text;
    std::rewind(f);
    char buf[8192];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    return text;
}

} // namespace

ChildResult run_child(const std::string& program, const std::vector<std::string>& args, const std::atomic<bool>& stop)
{
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    if (!out || !err) {
        if (out) std::fclose(out);
        if (err) std::fclose(err);
        throw std::system_error(errno, std::generic_category(), "temporary file");
    }
    cli::SpawnOptions options;
    options.out = cli::Redirect::to_descriptor(fileno(out));
    options.err = cli::Redirect::to_descriptor(fileno(err));
    options.own_process_group = true; // the terminal's Ctrl-C reaches us alone; we pass on one SIGINT
    std::vector<std::string> argv = {program};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildResult res;
    try {
        cli::Child child(argv, options);
        res.exit_status = child.wait_passing_on_stop(stop);
    } catch (const std::system_error& e) {
        // As a shell says it: the tool was found but could not be started.
        res.exit_status = cli::exit_code_of_start_failure(e);
        res.err = e.what();
    }
    if (res.err.empty()) {
        res.out = read_all(out);
        res.err = read_all(err);
    }
    std::fclose(out);
    std::fclose(err);
    return res;
}

ArgsFn with_device(std::vector<std::string> fixed, bool any_device_too)
{
    return [fixed, any_device_too](const Settings& s) {
        auto args = fixed;
        if (any_device_too && s.any_device) args.push_back("--any-device");
        args.push_back(s.device);
        return args;
    };
}

StepSpec child_step(std::string name, std::string tool, ArgsFn args, Needs needs, WhenMissing when_missing)
{
    StepSpec spec;
    spec.name = name;
    spec.tool = tool;
    spec.needs = needs;
    spec.describe = [tool, args](const Settings& s) {
        std::string line = tool;
        for (const auto& a : args(s)) line += " " + a;
        return "runs " + line;
    };
    spec.run = [tool, args, when_missing](StepContext& c) {
        StepResult r;
        const auto program = cli::find_tool(tool);
        if (!program) {
            r.message = fmt::format("{} not found beside mmc-qualify or on PATH", tool);
            if (when_missing == WhenMissing::skip) r.skipped = true;
            else r.exit_status = 127; // what a shell says for a command not found
            return r;
        }
        const auto child = run_child(*program, args(c.settings), c.stop);
        r.exit_status = child.exit_status;
        if (!child.out.empty()) {
            auto refuse = [&](const std::string& why) {
                if (r.exit_status == cli::ok) {
                    r.exit_status = cli::failure;
                    r.message = fmt::format("{}: its output {}", tool, why);
                }
            };
            try {
                r.doc = cli::parse_json_capped(child.out);
            } catch (const json::parse_error&) {
                refuse("is not JSON");
            } catch (const cli::InputError& e) {
                refuse(fmt::format("is refused: {}", e.what()));
            }
        }
        if (r.exit_status != cli::ok && r.message.empty()) r.message = cli::last_lines(child.err).substr(0, 300);
        return r;
    };
    return spec;
}

} // namespace mmc::qualify
