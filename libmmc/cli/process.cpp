#include "cli/process.h"

#include "cli/cli.h"
#include "cli/stop_signal.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <system_error>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace mmc::cli {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

bool is_executable_file(const fs::path& file)
{
    std::error_code ec;
    return fs::is_regular_file(file, ec) && access(file.c_str(), X_OK) == 0;
}

std::optional<std::string> find_tool(const std::string& tool, const std::string& self)
{
    std::error_code ec;
    const fs::path me = fs::read_symlink(self, ec);
    const fs::path beside = (ec ? fs::path(self) : me).parent_path() / tool;
    if (is_executable_file(beside)) return beside.string();
    if (const auto on_path = find_program(tool); !on_path.empty()) return on_path.string();
    return std::nullopt;
}

fs::path find_program(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const auto candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (is_executable_file(candidate)) return candidate;
    }
    return {};
}

int exit_code_of(int wait_status)
{
    if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
    return failure;
}

int exit_code_of_start_failure(const std::system_error& error)
{
    return error.code() == std::errc::no_such_file_or_directory ? 127 : 126;
}

namespace {

// A descriptor the parent opened for the child: closed in the parent once
// the child has its copy, however the start ends.
struct OwnedFd {
    int fd = -1;
    ~OwnedFd()
    {
        if (fd >= 0) close(fd);
    }
};

// The descriptor one of the child's standard streams becomes: -1 for ours.
// A file is opened here, so that a failure names the file, and close-on-exec
// so that only the child's dup2 copy reaches the program.
int stream_source(int stream, const Redirect& to, OwnedFd& opened)
{
    switch (to.to) {
    case Redirect::To::ours: return -1;
    case Redirect::To::descriptor: return to.fd;
    case Redirect::To::file: break;
    }
    opened.fd = open(to.file.c_str(), (stream == STDIN_FILENO ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND) | O_CLOEXEC, 0600);
    if (opened.fd < 0) throw std::system_error(errno, std::generic_category(), to.file.string());
    return opened.fd;
}

// The child's side, between fork and exec: only async-signal-safe calls (the
// parent may have other threads). On failure, errno goes back through the
// pipe and the child ends.
[[noreturn]] void become_program(const char* program, char* const* argv, char* const* envp, const int (&sources)[3],
                                 bool own_process_group, int error_pipe)
{
    if (own_process_group) setpgid(0, 0);
    // Every disposition to its default, SIG_IGN included: exec keeps an
    // ignored signal ignored (it resets only handlers). By the system call:
    // glibc's sigaction refuses its own two signals (32 and 33), which a
    // parent started by posix_spawn hands on ignored. An all-zero kernel
    // sigaction is SIG_DFL, no flags, an empty mask on every Linux ABI; the
    // buffer is larger than any of them.
    const unsigned long default_action[8] = {};
    constexpr unsigned long kernel_sigset_bytes = 8; // _NSIG (64) bits
    for (int sig = 1; sig < NSIG; ++sig)
        if (sig != SIGKILL && sig != SIGSTOP) syscall(SYS_rt_sigaction, sig, default_action, nullptr, kernel_sigset_bytes);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    bool redirected = true;
    for (int stream = 0; stream < 3 && redirected; ++stream) {
        const int from = sources[stream];
        // dup2 onto itself keeps close-on-exec: clear it instead.
        if (from >= 0) redirected = (from == stream ? fcntl(stream, F_SETFD, 0) : dup2(from, stream)) >= 0;
    }
    if (redirected) execve(program, argv, envp);
    const int err = errno;
    [[maybe_unused]] const ssize_t n = write(error_pipe, &err, sizeof err);
    _exit(127);
}

// Ours, with `added` set over it ("NAME=value" each).
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& added)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry = *e;
        const auto name = entry.substr(0, entry.find('='));
        if (std::none_of(added.begin(), added.end(), [&](const auto& a) { return a.first == name; }))
            env.push_back(entry);
    }
    for (const auto& [name, value] : added) env.push_back(name + "=" + value);
    return env;
}

std::vector<char*> c_strings(const std::vector<std::string>& strings)
{
    std::vector<char*> out;
    for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

// How often a wait looks: a blocking waitpid would miss a stop signal that
// lands just before it until the child ended by itself.
constexpr auto poll_interval = 10ms;

} // namespace

Child::Child(const std::vector<std::string>& argv, const SpawnOptions& options)
    : own_process_group_(options.own_process_group)
{
    if (argv.empty()) throw std::system_error(EINVAL, std::generic_category(), "no program to start");
    const fs::path program = argv[0].find('/') == std::string::npos ? find_program(argv[0]) : fs::path(argv[0]);
    if (program.empty()) throw std::system_error(ENOENT, std::generic_category(), argv[0]);

    OwnedFd opened[3];
    const int sources[3] = {stream_source(STDIN_FILENO, options.in, opened[0]),
                            stream_source(STDOUT_FILENO, options.out, opened[1]),
                            stream_source(STDERR_FILENO, options.err, opened[2])};
    const auto args = c_strings(argv);
    const auto env_strings = environment_with(options.environment);
    const auto env = c_strings(env_strings);
    int error_pipe[2];
    if (pipe2(error_pipe, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
    OwnedFd read_end{error_pipe[0]}, write_end{error_pipe[1]};

    // Every signal blocked across the fork: none may run one of our handlers
    // in the child before its dispositions are reset.
    sigset_t every, ours;
    sigfillset(&every);
    pthread_sigmask(SIG_SETMASK, &every, &ours);
    const pid_t pid = fork();
    if (pid == 0) become_program(program.c_str(), args.data(), env.data(), sources, options.own_process_group, error_pipe[1]);
    const int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &ours, nullptr);
    if (pid < 0) throw std::system_error(fork_error, std::generic_category(), "fork");
    pid_ = pid;
    // Also from here, so that the group exists before we signal it, whichever runs first.
    if (options.own_process_group) setpgid(pid, pid);

    // The pipe closes at exec (close-on-exec) or carries errno when the start failed.
    close(std::exchange(write_end.fd, -1));
    int err = 0;
    ssize_t n;
    do n = read(read_end.fd, &err, sizeof err);
    while (n < 0 && errno == EINTR);
    if (n == sizeof err) {
        wait();
        pid_ = -1;
        throw std::system_error(err, std::generic_category(), argv[0]);
    }
}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), own_process_group_(other.own_process_group_), exit_code_(other.exit_code_)
{
    other.exit_code_ = failure; // left with nothing to wait for: a wait on it ends at once
}

Child::~Child()
{
    if (pid_ > 0 && !exit_code_) wait_or_kill(0ms);
}

void Child::send(int sig)
{
    if (pid_ > 0 && !exit_code_) kill(pid_, sig);
}

std::optional<int> Child::reap_if_ended()
{
    if (exit_code_ || pid_ <= 0) return exit_code_;
    int status = 0;
    pid_t r;
    do r = waitpid(pid_, &status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == pid_)
        exit_code_ = exit_code_of(status);
    else if (r < 0)
        exit_code_ = failure; // reaped elsewhere (SIGCHLD ignored): its status is lost, and lost is never a success
    return exit_code_;
}

std::optional<int> Child::wait_for(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (const auto code = reap_if_ended()) return code;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(poll_interval, deadline - now));
    }
}

bool Child::wait_or_kill(std::chrono::milliseconds timeout, std::chrono::milliseconds kill_grace)
{
    if (wait_for(timeout)) return true;
    send(SIGKILL);
    wait_for(kill_grace);
    return false;
}

int Child::wait()
{
    for (;;)
        if (const auto code = wait_for(std::chrono::hours(1))) return *code;
}

int Child::wait_passing_on_stop(const std::atomic<bool>& stop)
{
    bool passed_on = false;
    for (;;) {
        if (const auto code = reap_if_ended()) return *code;
        if (own_process_group_) {
            if (stop.load() && !passed_on) {
                send(SIGINT);
                passed_on = true;
            }
        } else if (const int sig = take_signal_sent_to_us_alone()) {
            send(sig);
        }
        std::this_thread::sleep_for(poll_interval);
    }
}

int run(const std::vector<std::string>& argv, const SpawnOptions& options)
{
    return Child(argv, options).wait();
}

Captured run_captured(const std::vector<std::string>& argv)
{
    // A file, not a pipe: a chatty child never blocks on a full pipe we do
    // not read while we wait for it.
    char name[] = "/tmp/mmckit-output-XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "a temporary file for a child's output");
    ::close(fd);
    SpawnOptions so;
    so.in = Redirect::null();
    so.out = Redirect::to_file(name);
    so.err = Redirect::to_file(name);
    Captured c;
    try {
        c.code = run(argv, so);
    } catch (...) {
        ::unlink(name);
        throw;
    }
    std::ifstream in(name);
    std::stringstream text;
    text << in.rdbuf();
    ::unlink(name);
    c.output = text.str();
    return c;
}

std::string last_lines(const std::string& output, std::size_t lines)
{
    std::istringstream in(output);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) all.push_back(line);
    std::string out;
    for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
        out += (out.empty() ? "" : "; ") + all[i];
    return out;
}

} // namespace mmc::cli
