#include "probe/geometry_command.h"

#include "bench/safety.h"
#include "bench/session.h"
#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "dev/discovery.h"
#include "dev/identify.h"
#include "probe/flashbench_text.h"
#include "probe/ladder.h"
#include "probe/open_aus.h"
#include "probe/register_check.h"
#include "probe/sampler.h"
#include "version.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <getopt.h>
#include <optional>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace mmc::probe {

namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr const char* tool = "mmc-probe";

std::atomic<bool> stop_requested{false};
extern "C" void on_stop_signal(int) { stop_requested.store(true); }

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} geometry [options] DEVICE
 {0} geometry [options] --from-flashbench FILE|-

Find a card's flash page and allocation unit (AU) from the time small reads
take across aligned boundaries, with the evidence and a confidence, and
cross-check them with the card's registers. Read-only unless --destructive,
which also counts the AUs the card keeps open for writing (in order and at
random) and looks for a special area at the card's start; every block it
writes is read first and written back afterwards.

Options:
     --from-flashbench FILE  read the text of a flashbench -a run instead of
                       a device ("-": standard input)
     --repeats N       reads per place, the fastest kept (default 3)
     --positions N     places per boundary, spread over the device (default 8)
     --destructive     also measure open AUs and the start area (writes)
     --max-open N      try up to N + 1 open AUs (default 8)
 -y, --yes             do not ask before writing
     --any-device      allow writing to a device that is not an MMC/SD card
     --no-ioctl        send no card commands (registers from sysfs)
     --sysfs-root DIR  read sysfs from DIR (default /sys)
 -J, --json            print JSON (see mmc-probe(1))
 -v, --verbose         print the ladder
 -h, --help            display this help
 -V, --version         display version

Examples:
 {0} geometry /dev/mmcblk0
 {0} geometry --destructive --yes /dev/mmcblk0
 flashbench -a /dev/mmcblk0 --blocksize=1024 | {0} geometry --from-flashbench -
)",
               tool);
}

struct Options {
    std::string device;
    std::optional<std::string> flashbench;
    unsigned repeats = 3, positions = 8, max_open = 8;
    bool destructive = false, yes = false, any_device = false, use_ioctl = true, json = false, verbose = false;
    dev::SysRoots roots;
};

unsigned count_option(const char* name, const char* text, unsigned lo, unsigned hi)
{
    char* end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi || text[0] == '-')
        throw cli::UsageError(fmt::format("--{} {}: expected a whole number from {} to {}", name, text, lo, hi));
    return static_cast<unsigned>(v);
}

Options parse(const std::vector<std::string>& args)
{
    enum { from_flashbench = 256, repeats, positions, destructive, max_open, any_device, no_ioctl, sysfs };
    static const option longopts[] = {
        {"from-flashbench", required_argument, nullptr, from_flashbench},
        {"repeats", required_argument, nullptr, repeats},
        {"positions", required_argument, nullptr, positions},
        {"destructive", no_argument, nullptr, destructive},
        {"max-open", required_argument, nullptr, max_open},
        {"yes", no_argument, nullptr, 'y'},
        {"any-device", no_argument, nullptr, any_device},
        {"no-ioctl", no_argument, nullptr, no_ioctl},
        {"sysfs-root", required_argument, nullptr, sysfs},
        {"json", no_argument, nullptr, 'J'},
        {"verbose", no_argument, nullptr, 'v'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    std::vector<std::string> storage{std::string(tool) + " geometry"};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    const int argc = static_cast<int>(storage.size());

    Options o;
    optind = 0; // a fresh scan (0 also resets getopt's internal state)
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv.data(), ":yJvhV", longopts, nullptr)) != -1) {
        switch (c) {
        case from_flashbench: o.flashbench = optarg; break;
        case repeats: o.repeats = count_option("repeats", optarg, 1, 100); break;
        case positions: o.positions = count_option("positions", optarg, 1, 1000); break;
        case destructive: o.destructive = true; break;
        case max_open: o.max_open = count_option("max-open", optarg, 1, 64); break;
        case 'y': o.yes = true; break;
        case any_device: o.any_device = true; break;
        case no_ioctl: o.use_ioctl = false; break;
        case sysfs:
            o.roots.sysfs = optarg;
            o.roots.debugfs = o.roots.sysfs / "kernel" / "debug";
            break;
        case 'J': o.json = true; break;
        case 'v': o.verbose = true; break;
        case 'h': usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default: cli::throw_getopt_error(c, argv.data());
        }
    }
    if (o.flashbench) {
        if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}' with --from-flashbench", argv[optind]));
        if (o.destructive) throw cli::UsageError("--destructive needs a device, not --from-flashbench");
        return o;
    }
    if (optind >= argc) throw cli::UsageError("no DEVICE given (or --from-flashbench FILE)");
    o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    return o;
}

// The device: its path, its block name, and the card behind it when it is one.
struct Device {
    std::string path;
    std::string name;                     // "mmcblk0", "loop0"
    std::optional<dev::Identified> card;
    std::optional<uint64_t> preferred_erase;
    std::string not_card;                 // why it is not an MMC/SD card
};

Device find_device(const Options& o)
{
    Device d;
    d.path = bench::device_path_of(o.device, o.roots);
    struct stat st{};
    if (::stat(d.path.c_str(), &st) != 0) throw std::runtime_error(fmt::format("{}: {}", o.device, std::strerror(errno)));
    if (!S_ISBLK(st.st_mode)) throw std::runtime_error(fmt::format("{}: not a block device", d.path));
    std::error_code ec;
    const fs::path sys = fs::canonical(
        o.roots.sysfs / "dev" / "block" / fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev)), ec);
    if (ec) throw std::runtime_error(fmt::format("{}: not in sysfs ({})", d.path, ec.message()));
    d.name = sys.filename().string();
    if (fs::exists(sys / "partition", ec))
        throw cli::UsageError(fmt::format("{} is a partition; name the whole device ({}): boundaries are counted from "
                                          "its start",
                                          d.path, sys.parent_path().filename().string()));
    try {
        const auto t = dev::resolve(d.name, o.roots);
        if (t.card) {
            d.card = dev::identify(*t.card, o.roots, {o.use_ioctl});
            if (const auto v = dev::card_attr(*t.card, "preferred_erase_size")) {
                char* end = nullptr;
                const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
                if (end != v->c_str() && n) d.preferred_erase = n;
            }
        }
    } catch (const dev::ResolveError& e) {
        if (e.why != dev::ResolveError::Why::not_mmc) throw;
        d.not_card = dev::explain_non_mmc(sys);
        if (d.not_card.empty()) d.not_card = "not on an MMC host";
    }
    return d;
}

std::string us(double ns) { return fmt::format("{:.1f} us", ns / 1000); }

std::string size_or(const std::optional<uint64_t>& v, std::string_view none)
{
    return v ? cli::format_bytes(*v) : std::string(none);
}

ordered_json opt_json(const std::optional<uint64_t>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }
ordered_json opt_json(const std::optional<unsigned>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

std::optional<unsigned> open_count(const std::optional<OpenAuResult>& r)
{
    if (!r || (!r->linear && !r->random)) return std::nullopt;
    if (r->linear && r->random) return std::min(*r->linear, *r->random);
    return r->linear ? r->linear : r->random;
}

ordered_json ladder_json(const Ladder& l, const Geometry& g)
{
    ordered_json j;
    j["read_bytes"] = l.read_bytes ? ordered_json(l.read_bytes) : ordered_json(nullptr);
    j["repeats"] = l.repeats ? ordered_json(l.repeats) : ordered_json(nullptr);
    j["noise_ns"] = l.noise_ns ? ordered_json(*l.noise_ns) : ordered_json(nullptr);
    j["noise_floor_ns"] = g.noise_floor_ns;
    j["threshold_ns"] = g.threshold_ns;
    j["rows"] = ordered_json::array();
    for (const auto& r : l.rows)
        j["rows"].push_back({{"align", r.align}, {"pre_ns", r.pre_ns}, {"on_ns", r.on_ns}, {"post_ns", r.post_ns},
                             {"diff_ns", r.diff_ns()}, {"positions", r.positions}});
    return j;
}

ordered_json open_au_json(const OpenAuResult& r)
{
    ordered_json j;
    j["linear"] = opt_json(r.linear);
    j["random"] = opt_json(r.random);
    j["tried_up_to"] = r.tried_up_to;
    j["start_area_special"] = r.start_area_special ? ordered_json(*r.start_area_special) : ordered_json(nullptr);
    j["trials"] = ordered_json::array();
    for (const auto& t : r.trials)
        j["trials"].push_back({{"mode", t.mode}, {"aus", t.aus}, {"offset", t.offset}, {"ns_per_write", t.ns_per_write},
                               {"bytes_per_s", t.bytes_per_s}, {"recheck", t.recheck}});
    j["bytes_written"] = r.bytes_written;
    j["restored"] = r.restored;
    j["notes"] = r.notes;
    if (!r.restore_error.empty()) j["restore_error"] = r.restore_error;
    return j;
}

struct Outcome {
    Ladder ladder;
    Geometry geometry;
    RegisterClaims claims = no_card_claims();
    std::optional<OpenAuResult> open;
    std::optional<std::string> source_file;
    std::vector<std::string> notes;
    double seconds = 0;
    bool interrupted = false;
};

void print_text(const Options& o, const Device* d, const Outcome& r)
{
    const auto& g = r.geometry;
    if (d) {
        if (d->card) {
            const auto& id = d->card->identity;
            fmt::print("Device:      {} ({} {}, {})\n", d->path, id.type, id.product.empty() ? id.name : id.product,
                       cli::format_bytes(id.capacity_bytes));
        } else {
            fmt::print("Device:      {} (not an MMC/SD card: {})\n", d->path, d->not_card);
        }
    } else {
        fmt::print("Source:      flashbench -a output ({})\n", *r.source_file == "-" ? "standard input" : *r.source_file);
    }
    std::string page = size_or(g.page_bytes, "no step found");
    if (g.multi_plane_bytes) page += fmt::format(" ({} read at once: multi-plane)", cli::format_bytes(*g.multi_plane_bytes));
    fmt::print("Page:        {}\n", page);
    fmt::print("AU:          {}\n", size_or(g.au_bytes, g.page_bytes || g.au_bytes ? "no step found" : "no boundary"));
    if (r.open) {
        const auto& x = *r.open;
        auto count = [&](const std::optional<unsigned>& v) {
            return v ? fmt::format("{}", *v) : fmt::format("at least {}", x.tried_up_to);
        };
        fmt::print("Open AUs:    {} (in order {}, random {})\n",
                   open_count(r.open) ? fmt::format("{}", *open_count(r.open)) : count(std::nullopt), count(x.linear),
                   count(x.random));
        fmt::print("Start area:  {}\n", x.start_area_special ? (*x.start_area_special ? "special (more AUs open at the card's start)" : "not special")
                                                              : "not measured");
    } else if (!r.source_file) {
        fmt::print("Open AUs:    not measured (--destructive writes to measure them)\n");
    }
    fmt::print("Confidence:  {}\n", g.confidence);
    fmt::print("Registers:   {}\n", cross_check_text(r.claims, g.au_bytes));
    fmt::print("Evidence:\n");
    for (const auto& e : g.evidence) fmt::print("  {}\n", e);
    for (const auto& n : r.notes) fmt::print("  note: {}\n", n);
    if (r.open) {
        fmt::print("Write speed (page-sized writes, round-robin over N AUs):\n");
        for (const auto& t : r.open->trials)
            fmt::print("  {:<12} {:>2} AU{} at {:>9}: {:>9}/s, {} per write{}\n", t.mode, t.aus, t.aus == 1 ? " " : "s",
                       cli::format_bytes(t.offset), cli::format_bytes(static_cast<uint64_t>(t.bytes_per_s)),
                       us(t.ns_per_write), t.recheck ? " (recheck)" : "");
        fmt::print("Written:     {} (test and restore); {}\n", cli::format_bytes(r.open->bytes_written),
                   r.open->restored ? "every block written back as it was" : "NOT restored: " + r.open->restore_error);
        for (const auto& n : r.open->notes) fmt::print("  note: {}\n", n);
    }
    if (o.verbose) {
        fmt::print("Ladder:\n  {:>12} {:>10} {:>10} {:>10} {:>10}\n", "align", "pre", "on", "post", "diff");
        auto rows = r.ladder.rows;
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.align < b.align; });
        for (const auto& row : rows)
            fmt::print("  {:>12} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}\n", cli::format_bytes(row.align), row.pre_ns / 1e3,
                       row.on_ns / 1e3, row.post_ns / 1e3, row.diff_ns() / 1e3);
        fmt::print("  (times in us)\n");
    }
    fmt::print("Time:        {:.1f} s\n", r.seconds);
}

void print_json(const Device* d, const Outcome& r)
{
    const auto& g = r.geometry;
    ordered_json j;
    j["tool"] = tool;
    j["version"] = mmc::version;
    j["subcommand"] = "geometry";
    j["source"] = d ? "device" : "flashbench";
    j["device"] = d ? ordered_json(d->path) : ordered_json(nullptr);
    if (r.source_file) j["file"] = *r.source_file;
    if (d && d->card) j["card"] = dev::identity_json(d->card->identity);
    j["page_size"] = opt_json(g.page_bytes);
    j["multi_plane_size"] = opt_json(g.multi_plane_bytes);
    j["au_size"] = opt_json(g.au_bytes);
    j["open_aus"] = opt_json(open_count(r.open));
    j["confidence"] = g.confidence;
    auto evidence = g.evidence;
    for (const auto& n : r.notes) evidence.push_back("note: " + n);
    j["evidence"] = evidence;
    j["registers"] = cross_check_json(r.claims, g.au_bytes);
    j["ladder"] = ladder_json(r.ladder, g);
    j["open_au_test"] = r.open ? open_au_json(*r.open) : ordered_json(nullptr);
    j["seconds"] = r.seconds;
    j["interrupted"] = r.interrupted;
    cli::print_json(j, tool);
}

void install_signals()
{
    struct sigaction sa{};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
}

int from_flashbench(const Options& o)
{
    Outcome r;
    r.source_file = *o.flashbench;
    const auto start = std::chrono::steady_clock::now();
    std::string text;
    try {
        text = cli::read_input(*o.flashbench, 16u << 20, "flashbench output");
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }
    try {
        auto parsed = parse_flashbench(text);
        r.ladder = std::move(parsed.ladder);
        r.notes = std::move(parsed.notes);
    } catch (const FlashbenchParseError& e) {
        cli::error(tool, fmt::format("{}: {}", *o.flashbench == "-" ? "standard input" : *o.flashbench, e.what()));
        return cli::failure;
    }
    r.geometry = analyze(r.ladder);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.json) print_json(nullptr, r);
    else print_text(o, nullptr, r);
    return cli::ok;
}

// Before writing: the safety of mmc-erase, what will be overwritten, and
// the user's yes. Returns an exit status when the test must not run.
std::optional<int> refuse_or_confirm(const Options& o, const Device& d, const WritePlan& plan, const Geometry& g)
{
    try {
        bench::check_destructive(d.path, o.roots, o.any_device);
    } catch (const bench::WriteRefused& e) {
        cli::error(tool, e.hint.empty() ? e.what() : fmt::format("{}; {}", e.what(), e.hint));
        return cli::failure;
    }
    if (!plan.max_trial) {
        cli::error(tool, fmt::format("{}: too small for an open-AU test with {} AUs", d.path, cli::format_bytes(*g.au_bytes)));
        return cli::failure;
    }
    const std::string what = fmt::format(
        "The open-AU test writes {} in page-sized blocks to {} AUs of {}, between offset 0 and {}.\n"
        "Every block is read first and written back afterwards (also after Ctrl-C); the card's wear and\n"
        "internal layout change.",
        cli::format_bytes(plan.bytes), plan.aus, d.path, cli::format_bytes(plan.end));
    if (o.yes) {
        if (!o.json) fmt::print(stderr, "{}\n", what);
        return std::nullopt;
    }
    if (!isatty(STDIN_FILENO)) {
        cli::error(tool, fmt::format("{}: refusing to write without confirmation: stdin is not a terminal; use --yes", d.path));
        return cli::failure;
    }
    const auto answer = cli::confirm(what, "write", false);
    if (stop_requested.load()) return cli::interrupted;
    if (answer != cli::Confirmation::yes) {
        cli::error(tool, "not confirmed; nothing was written");
        return cli::failure;
    }
    return std::nullopt;
}

int on_device(const Options& o)
{
    Device d;
    try {
        d = find_device(o);
    } catch (const cli::UsageError& e) {
        return cli::usage_failure(tool, e.what());
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }
    Outcome r;
    if (d.card) r.claims = claims_of(*d.card, d.preferred_erase);
    install_signals();
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    cli::ProgressLine line;
    try {
        BlockReadTimer reader(d.path);
        SampleOptions so;
        so.repeats = o.repeats;
        so.positions = o.positions;
        so.stop = &stop_requested;
        so.progress = [&](uint64_t done, uint64_t total) {
            line.show(fmt::format("reading the ladder: {}/{} reads, {}", done, total,
                                  cli::eta_text(static_cast<double>(done), static_cast<double>(total), elapsed())));
        };
        r.ladder = sample_ladder(reader, so);
        line.clear();
    } catch (const std::exception& e) {
        line.clear();
        cli::error(tool, e.what());
        return cli::failure;
    }
    r.geometry = analyze(r.ladder);
    r.interrupted = stop_requested.load();

    if (o.destructive && !r.interrupted) {
        if (!r.geometry.page_bytes || !r.geometry.au_bytes) {
            cli::error(tool, fmt::format("{}: no open-AU test without a page and an AU from the ladder (found: page {}, AU {})",
                                         d.path, size_or(r.geometry.page_bytes, "none"), size_or(r.geometry.au_bytes, "none")));
            return cli::failure;
        }
        OpenAuOptions ao;
        ao.au_bytes = *r.geometry.au_bytes;
        ao.page_bytes = *r.geometry.page_bytes;
        ao.max_open = o.max_open;
        ao.stop = &stop_requested;
        ao.progress = [&](const std::string& what) { line.show(fmt::format("{} ({} so far)", what, cli::duration_text(elapsed()))); };
        try {
            BlockWriteDevice probe_dev(d.path);
            const auto plan = plan_open_aus(probe_dev.size(), ao);
            if (const auto refused = refuse_or_confirm(o, d, plan, r.geometry)) return *refused;
            r.open = measure_open_aus(probe_dev, ao);
            line.clear();
        } catch (const std::exception& e) {
            line.clear();
            cli::error(tool, fmt::format("{}; the blocks written were put back unless said otherwise above", e.what()));
            return cli::failure;
        }
        r.interrupted = r.interrupted || r.open->interrupted;
    }
    r.seconds = elapsed();
    if (o.json) print_json(&d, r);
    else print_text(o, &d, r);
    if (r.open && !r.open->restored) {
        cli::error(tool, fmt::format("{}: the blocks the test wrote could not all be written back: {}", d.path, r.open->restore_error));
        return cli::failure;
    }
    if (r.interrupted) {
        cli::error(tool, r.open ? "interrupted; every block written was put back" : "interrupted; the ladder is incomplete");
        return cli::interrupted;
    }
    return cli::ok;
}

} // namespace

int run_geometry(const std::vector<std::string>& args)
{
    Options o;
    try {
        o = parse(args);
    } catch (const cli::UsageError& e) {
        return cli::usage_failure(tool, e.what());
    }
    return o.flashbench ? from_flashbench(o) : on_device(o);
}

} // namespace mmc::probe
