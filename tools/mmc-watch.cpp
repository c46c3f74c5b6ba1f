// mmc-watch: print SD/MMC card, host and block-device uevents as they
// happen. Thin: options here, the netlink listener and the parser in
// libmmc/dev/uevent, the line formats in libmmc/views/uevent_view.
#include "cli/cli.h"
#include "cli/duration.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "cli/process.h"
#include "dev/journal.h"
#include "dev/uevent.h"
#include "dev/uevent_card.h"
#include "views/uevent_journal.h"
#include "views/uevent_view.h"
#include "version.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <getopt.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-watch";
// Long-only options take values past any char.
constexpr int opt_once = 256;
constexpr int opt_timeout = 257;
constexpr int opt_health = 258;
constexpr int opt_journal = 259;

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options]

Print SD/MMC card and host events (add, remove, change, bind, unbind) as the
kernel reports them, one line each.

Options:
 -a, --all               print every uevent, not only cards, hosts and
                         mmcblk block devices
     --once              exit after the first event printed
     --timeout TIME      stop after TIME (e.g. 30, 1.5s, 500ms, 2m)
     --health            when a card's disk appears, read its health with
                         mmc-health and print the verdict after the event
 -J, --json              print one JSON object per line (see mmc-watch(1))
     --journal           send each event to the systemd journal as a
                         record with fields (MMC_CARD_SERIAL, MMC_HOST,
                         MMC_EVENT, error counts; see mmc-watch(1)) instead
                         of printing it
 -h, --help              display this help
 -V, --version           display version

Without --once or --timeout it runs until interrupted. Exit status: 0 when
at least one event was printed, 1 when the timeout passed with none or on
failure, 2 on a usage error.

Examples:
 {0}
 {0} --json --once --timeout 30
 {0} --journal          (as mmckit-watch.service runs it)
)",
               tool);
}

struct Options {
    bool all = false;
    bool once = false;
    bool json = false;
    bool health = false;
    bool journal = false;
    std::optional<std::chrono::milliseconds> timeout;
};

std::chrono::milliseconds parse_timeout(const char* arg)
{
    const double seconds = mmc::cli::seconds_option("--timeout", arg);
    if (seconds <= 0 || seconds > 1e9) throw mmc::cli::UsageError(fmt::format("--timeout {}: expected a time above zero", arg));
    return std::chrono::milliseconds(static_cast<long long>(std::ceil(seconds * 1000)));
}

Options parse_options(int argc, char** argv)
{
    static const option longopts[] = {
        {"all", no_argument, nullptr, 'a'},  {"once", no_argument, nullptr, opt_once},
        {"timeout", required_argument, nullptr, opt_timeout}, {"json", no_argument, nullptr, 'J'},
        {"health", no_argument, nullptr, opt_health}, {"journal", no_argument, nullptr, opt_journal},
        {"help", no_argument, nullptr, 'h'}, {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    Options o;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":aJhV", longopts)) != -1) {
        switch (c) {
        case 'a': o.all = true; break;
        case opt_once: o.once = true; break;
        case opt_timeout: o.timeout = parse_timeout(optarg); break;
        case opt_health: o.health = true; break;
        case opt_journal: o.journal = true; break;
        case 'J': o.json = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default: mmc::cli::throw_getopt_error(c, argv);
        }
    }
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'", argv[optind]));
    if (o.journal && o.json) throw mmc::cli::UsageError("--journal and --json: give one of them");
    return o;
}

// A card's whole disk arriving ("add" of mmcblkN, not a partition or a
// boot area): the moment to read its health.
bool is_card_disk_added(const mmc::dev::Uevent& e)
{
    static const std::regex disk("mmcblk[0-9]+");
    return e.action == "add" && e.subsystem == "block" && std::regex_match(e.devname, disk);
}

// mmc-health on the new disk, run as a child (found beside this program,
// else on PATH) with a limit; its verdict line (text) or its document as one
// line (JSON). Health never writes the card's data (mmc-health(1)).
std::string health_line(const mmc::dev::Uevent& e, bool json, std::chrono::system_clock::time_point now)
{
    const std::string device = "/dev/" + e.devname;
    const auto tool_path = mmc::cli::find_tool("mmc-health");
    nlohmann::ordered_json j{{"time", mmc::out::uevent_timestamp(now, true)},
                             {"event", "health"},
                             {"device", device}};
    auto failed = [&](const std::string& why) {
        if (!json) return fmt::format("{} health  {}: not read: {}", mmc::out::uevent_timestamp(now, false), device, why);
        j["health"] = nullptr;
        j["error"] = why;
        return mmc::cli::dump_json(j, -1).text;
    };
    if (!tool_path) return failed("mmc-health not found beside mmc-watch or on PATH");
    // The add event can come before the card's disk answers (its partitions
    // are still being read): a failure (exit 1) is tried again, three times
    // at most, half a second apart.
    const std::filesystem::path out =
        std::filesystem::temp_directory_path() / fmt::format("mmc-watch-health-{}-{}", ::getpid(), e.devname);
    const std::filesystem::path errors = out.string() + ".err";
    std::vector<std::string> argv{*tool_path};
    if (json) argv.push_back("-J");
    argv.push_back(device);
    auto read_file = [](const std::filesystem::path& f) {
        std::ifstream in(f);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    };
    std::string text, said;
    for (int attempt = 1;; ++attempt) {
        std::filesystem::remove(out);
        std::filesystem::remove(errors);
        mmc::cli::SpawnOptions spawn;
        spawn.in = mmc::cli::Redirect::null();
        spawn.out = mmc::cli::Redirect::to_file(out);
        spawn.err = mmc::cli::Redirect::to_file(errors);
        try {
            mmc::cli::Child child(argv, spawn);
            if (!child.wait_or_kill(std::chrono::seconds(60))) {
                said = "mmc-health did not answer within 60 s (stopped)";
                break;
            }
            text = read_file(out);
            said = mmc::cli::last_lines(read_file(errors));
            if (child.exit_code() != mmc::cli::failure || attempt == 3) break;
        } catch (const std::system_error& ex) {
            said = ex.what();
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    std::filesystem::remove(out);
    std::filesystem::remove(errors);
    if (text.empty()) return failed(said.empty() ? "mmc-health printed nothing" : said);
    if (!json) {
        const std::string first = text.substr(0, text.find('\n'));
        if (first.empty()) return failed("mmc-health printed nothing");
        return fmt::format("{} health  {}: {}", mmc::out::uevent_timestamp(now, false), device, first);
    }
    try {
        j["health"] = mmc::cli::parse_json_capped(text);
    } catch (const mmc::cli::InputError& e) {
        return failed(fmt::format("mmc-health's output: {}", e.what()));
    } catch (const nlohmann::json::exception&) {
        return failed("mmc-health's output is not JSON");
    }
    return mmc::cli::dump_json(j, -1).text;
}

int watch(const Options& options)
{
    using clock = std::chrono::steady_clock;
    mmc::dev::UeventListener listener;
    // --journal: the socket first, so that a machine without journald is
    // told before any event; the cards present now, so that one pulled
    // later is still named by its serial.
    std::optional<mmc::dev::JournalSocket> journal;
    std::optional<mmc::dev::CardFactsCache> cards;
    if (options.journal) {
        journal.emplace();
        cards.emplace(mmc::dev::SysRoots{});
        cards->prime();
    }
    const auto deadline = clock::now() + options.timeout.value_or(std::chrono::milliseconds(0));
    std::uint64_t printed = 0, overruns = 0;
    for (;;) {
        auto wait = std::chrono::milliseconds(-1);
        if (options.timeout) {
            wait = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now());
            if (wait.count() <= 0) break;
        }
        const auto event = listener.next(wait);
        if (listener.overruns() != overruns) {
            overruns = listener.overruns();
            mmc::cli::error(tool, "kernel events were lost (socket receive buffer overrun)");
        }
        if (!event || (!options.all && !mmc::dev::is_mmc_event(*event))) continue;
        const auto now = std::chrono::system_clock::now();
        if (journal) {
            const auto facts = cards->facts_of(*event);
            journal->send(mmc::out::uevent_journal_fields(*event, facts));
            ++printed;
            if (options.health && is_card_disk_added(*event)) {
                auto fields = mmc::out::uevent_journal_fields(*event, facts);
                const std::string health = health_line(*event, false, now);
                for (auto& [name, value] : fields) {
                    if (name == "MESSAGE") value = health.substr(health.find(' ') + 1); // the journal has the time
                    if (name == "MMC_EVENT") value = "health";
                }
                journal->send(fields);
            }
            if (options.once) break;
            continue;
        }
        std::string line;
        if (options.json) {
            auto j = mmc::cli::dump_json(mmc::out::uevent_json(*event, now), -1);
            if (!j.replaced_at.empty()) fmt::print(stderr, "{}\n", mmc::cli::replaced_warning(tool, j.replaced_at));
            line = std::move(j.text);
        } else {
            line = mmc::out::uevent_text_line(*event, now);
        }
        if (std::fputs(line.c_str(), stdout) == EOF || std::fputc('\n', stdout) == EOF || std::fflush(stdout) == EOF)
            throw std::system_error(errno, std::generic_category(), "write error");
        ++printed;
        if (options.health && is_card_disk_added(*event)) {
            const std::string health = health_line(*event, options.json, now);
            if (std::fputs(health.c_str(), stdout) == EOF || std::fputc('\n', stdout) == EOF || std::fflush(stdout) == EOF)
                throw std::system_error(errno, std::generic_category(), "write error");
        }
        if (options.once) break;
    }
    return printed > 0 ? mmc::cli::ok : mmc::cli::failure;
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const Options options = mmc::cli::as_usage([&] { return parse_options(argc, argv); });

    // A user pipes this into grep or a log: every event leaves at once.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    try {
        return watch(options);
    } catch (const std::system_error& e) {
        std::string message = e.what();
        if (options.journal && std::string_view(e.what()).starts_with("journal "))
            message += "; is systemd-journald running? Without it, drop --journal and use the printed lines";
        else if (e.code() == std::errc::operation_not_permitted || e.code() == std::errc::permission_denied)
            message += "; a seccomp or security policy forbids netlink here: run it as root or outside the container";
        else if (e.code() == std::errc::protocol_not_supported || e.code() == std::errc::address_family_not_supported)
            message += "; this kernel has no netlink uevent support";
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure, message);
    }
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
