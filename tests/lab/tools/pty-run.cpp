// pty-run: a lab-only tool (never installed) that runs a command with its
// stderr on a pseudo-terminal and copies what the command draws there into a
// file as it comes, so a guest script can wait on a tool's progress line (the
// project's progress line is drawn only on a terminal, and the lab's busybox
// has no `script`). The tests' handshakes read that file instead of sleeping.
//
//   pty-run LOG COMMAND [ARGS...]
//
// stdin and stdout stay the caller's. SIGINT, SIGTERM and SIGHUP sent to
// pty-run are passed on to the command, so `kill -INT $!` reaches the tool as
// a Ctrl-C would. Exits with the command's status, or 128 + the signal that
// ended it; 125 when pty-run itself fails.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <initializer_list>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace {

volatile sig_atomic_t child_pid = 0;

void pass_on(int sig)
{
    if (child_pid > 0) kill(child_pid, sig);
}

[[noreturn]] void die(const char* what)
{
    std::fprintf(stderr, "pty-run: %s: %s\n", what, std::strerror(errno));
    std::exit(125);
}

// Copies what is waiting on the terminal's master side into the log; false
// once the terminal has no writer left (the command and its children ended).
bool copy_once(int master, int log, int timeout_ms)
{
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return true;
    char buf[4096];
    ssize_t n = read(master, buf, sizeof buf);
    if (n <= 0) return n < 0 && errno == EINTR;
    for (ssize_t done = 0; done < n;) {
        ssize_t w = write(log, buf + done, static_cast<size_t>(n - done));
        if (w < 0 && errno != EINTR) return false;
        if (w > 0) done += w;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: pty-run LOG COMMAND [ARGS...]\n");
        return 125;
    }
    int log = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0) die(argv[1]);
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) die("posix_openpt");
    const char* slave_name = ptsname(master);
    if (slave_name == nullptr) die("ptsname");
    int slave = open(slave_name, O_RDWR | O_NOCTTY);
    if (slave < 0) die(slave_name);
    // A terminal of a size: a progress line is cut to the width, and 0 columns leaves nothing to read.
    winsize ws{};
    ws.ws_row = 24;
    ws.ws_col = 160;
    ioctl(slave, TIOCSWINSZ, &ws);

    struct sigaction sa{};
    sa.sa_handler = pass_on;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);

    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
        dup2(slave, STDERR_FILENO);
        close(slave);
        setenv("TERM", "xterm", 1);
        execvp(argv[2], argv + 2);
        std::fprintf(stderr, "pty-run: %s: %s\n", argv[2], std::strerror(errno));
        _exit(127);
    }
    child_pid = pid;
    close(slave);

    int status = 0;
    for (;;) {
        copy_once(master, log, 100);
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) die("waitpid");
    }
    // What the command wrote just before it ended.
    while (copy_once(master, log, 0)) {
        pollfd p{master, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0) break;
    }
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
