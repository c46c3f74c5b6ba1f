#include "qualify/child_step.h"

#include "cli/cli.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <sstream>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>

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

std::string last_line(const std::string& text)
{
    std::istringstream lines(text);
    std::string last;
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) last = line;
    return last.substr(0, 300);
}

bool executable(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

} // namespace

std::optional<std::string> find_tool(const std::string& tool, const std::string& self)
{
    std::error_code ec;
    const fs::path me = fs::read_symlink(self, ec);
    const fs::path beside = (ec ? fs::path(self) : me).parent_path() / tool;
    if (executable(beside)) return beside.string();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && executable(fs::path(dir) / tool)) return (fs::path(dir) / tool).string();
    return std::nullopt;
}

ChildResult run_child(const std::string& program, const std::vector<std::string>& args, const std::atomic<bool>& stop)
{
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    if (!out || !err) {
        if (out) std::fclose(out);
        if (err) std::fclose(err);
        throw std::system_error(errno, std::generic_category(), "temporary file");
    }
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        const int e = errno;
        std::fclose(out);
        std::fclose(err);
        throw std::system_error(e, std::generic_category(), "fork");
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        execv(program.c_str(), argv.data());
        std::fprintf(stderr, "%s: %s\n", program.c_str(), std::strerror(errno));
        _exit(127);
    }
    // Polled rather than blocked in waitpid: a SIGINT that lands just before
    // waitpid would otherwise go unnoticed until the child ended by itself.
    bool forwarded = false;
    int status = 0;
    for (;;) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) {
            status = 0;
            break;
        }
        if (stop.load() && !forwarded) {
            kill(pid, SIGINT);
            forwarded = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ChildResult res;
    res.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : cli::failure;
    res.out = read_all(out);
    res.err = read_all(err);
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
        const auto program = find_tool(tool);
        if (!program) {
            r.message = fmt::format("{} not found beside mmc-qualify or on PATH", tool);
            if (when_missing == WhenMissing::skip) r.skipped = true;
            else r.exit_status = 127; // what a shell says for a command not found
            return r;
        }
        const auto child = run_child(*program, args(c.settings), c.stop);
        r.exit_status = child.exit_status;
        if (!child.out.empty()) {
            try {
                r.doc = json::parse(child.out);
            } catch (const json::parse_error&) {
                if (r.exit_status == cli::ok) {
                    r.exit_status = cli::failure;
                    r.message = fmt::format("{}: its output is not JSON", tool);
                }
            }
        }
        if (r.exit_status != cli::ok && r.message.empty()) r.message = last_line(child.err);
        return r;
    };
    return spec;
}

} // namespace mmc::qualify
