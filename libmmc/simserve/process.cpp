#include "simserve/process.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace mmc::simserve {

namespace fs = std::filesystem;

fs::path find_program(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const auto candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

namespace {

void redirect(int fd, const fs::path& file)
{
    const int to = open(file.empty() ? "/dev/null" : file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (to >= 0) dup2(to, fd); // dup2 clears close-on-exec on the copy
}

} // namespace

pid_t spawn(const std::vector<std::string>& argv, const SpawnOptions& options)
{
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
    if (pid == 0) {
        if (options.own_process_group) setpgid(0, 0);
        // The helpers get the default dispositions, not the parent's handlers' masks.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        if (!options.inherit_stdio) {
            const int devnull = open("/dev/null", O_RDONLY);
            if (devnull >= 0) dup2(devnull, 0);
            redirect(1, options.stdout_file);
            redirect(2, options.stderr_file);
        }
        for (const auto& [name, value] : options.environment) setenv(name.c_str(), value.c_str(), 1);
        execvp(args[0], args.data());
        // As a shell says it: 127 not found, 126 found but not runnable.
        const int err = errno;
        if (options.inherit_stdio) dprintf(2, "%s: %s\n", args[0], strerror(err));
        _exit(err == ENOENT ? 127 : 126);
    }
    return pid;
}

int exit_code_of(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

int run(const std::vector<std::string>& argv, const SpawnOptions& options)
{
    const pid_t pid = spawn(argv, options);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "waitpid");
    return exit_code_of(status);
}

bool wait_for_exit(pid_t pid, std::chrono::milliseconds timeout, int* exit_code)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            if (exit_code) *exit_code = exit_code_of(status);
            return true;
        }
        if (r < 0 && errno == ECHILD) return true; // not ours to reap, or already reaped
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string log_tail(const fs::path& file, std::size_t lines)
{
    std::ifstream in(file);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) all.push_back(line);
    std::string out;
    for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
        out += (out.empty() ? "" : "; ") + all[i];
    return out;
}

} // namespace mmc::simserve
