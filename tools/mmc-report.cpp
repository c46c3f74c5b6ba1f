// mmc-report: tables and charts of cards against hosts from result
// bundles (files, or the results database), --make-bundle, which assembles a
// bundle from the other tools' JSON, and --import, which stores bundles in
// the database. Thin: options here; the bundle in libmmc/report/bundle,
// assembly in make_bundle, grouping in tables, views in text, export and
// html, the database in store and import.
#include "cli/cli.h"
#include "cli/deprecated.h"
#include "cli/file_out.h"
#include "cli/json_out.h"
#include "report/bundle.h"
#include "report/export.h"
#include "report/html.h"
#include "report/import.h"
#include "report/load.h"
#include "report/make_bundle.h"
#include "report/store.h"
#include "report/text.h"
#include "version.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <getopt.h>
#include <iostream>

namespace {

constexpr const char* tool = "mmc-report";
namespace fs = std::filesystem;

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] FILE|DIR...
 {0} [options] --db URL [--label TEXT] [--host TEXT] [--since DATE]
 {0} --db URL --import FILE|DIR...
 {0} --make-bundle --out DIR [--info FILE] [--bus FILE] [--erase-json FILE]
            [--bench FILE]... [--probe FILE]... [--tune-json FILE]...
            [--step NAME:ok|fail:MESSAGE]...
            [--host-label TEXT] [--card-label TEXT]

Print tables of SD/MMC cards against hosts from result bundles: sequential
read and write MB/s by card, random IOPS per card@host, the verdicts with
the bus ceiling, mmc-probe's geometry and capacity, what erasing bought,
and what mmc-tune chose (the bus mode and queue, before and after).
A DIR is searched for *.json bundles (recursively, in sorted order).
With --make-bundle, assemble one bundle from the JSON of mmc-info, mmc-bus,
mmc-erase, mmc-bench, mmc-probe and mmc-tune, write it to DIR and print its
path.
With --db, the bundles come from a results database (an SQLite file, or
postgresql://... for a PostgreSQL server); --import stores bundles in it.

Report options:
 -J, --json              print the tables as JSON (see mmc-report(1))
     --csv               print the tables as one CSV document
     --html FILE         write a self-contained HTML page with charts
                         ('-' writes it to standard output)
     --title TEXT        the HTML page's title
 -v, --verbose           list the bundles read and the files ignored (stderr)

Database options:
     --db URL            the results database: an SQLite file (--import
                         creates it) or postgresql://[user@]host/dbname
     --import            store the bundles FILE|DIR... in --db and say how it
                         went (-J: as JSON); a rejected file makes exit 1
     --label TEXT        only cards whose label, product or serial has TEXT
     --card TEXT         deprecated: use --label
     --host TEXT         only hosts whose label, controller or board has TEXT
     --since DATE        only bundles created at or after DATE (YYYY-MM-DD
                         or YYYY-MM-DDTHH:MM:SSZ)

Bundle options:
     --make-bundle       assemble a bundle instead of reporting
     --out DIR           where the bundle is written (created if missing)
     --info FILE         mmc-info -J output for the card
     --bus FILE          mmc-bus -J output for its host
     --erase-json FILE   mmc-erase -J output
     --erase FILE        deprecated: use --erase-json
     --bench FILE        mmc-bench -J output (repeatable)
     --probe FILE        mmc-probe geometry -J or capacity -J output (repeatable)
     --tune-json FILE    mmc-tune bus -J or queue -J output (repeatable)
     --step NAME:ok|fail:MESSAGE
                         a pipeline step and how it went (repeatable)
     --card-label TEXT   the card's row name (default: maker, product, size)
     --host-label TEXT   the host's column name (default: machine, bus mode)

 -h, --help              display this help
 -V, --version           display version

Missing or unreadable --info/--bus/--erase-json/--bench/--probe/--tune-json files
become failed steps in the bundle, not errors.

Examples:
 {0} examples/
 {0} --html cards.html results/ examples/
 {0} --db results.sqlite --import examples/
 {0} --db results.sqlite --label sandisk --since 2026-11-01
 {0} --make-bundle --out results --info info.json --bus bus.json --bench bench.json
)",
               tool);
}

struct Options {
    bool make = false, json = false, csv = false, verbose = false;
    std::string html, title, out_dir;
    std::vector<std::string> paths;
    std::optional<std::string> info, bus, erase;
    std::vector<std::string> bench, probe, tune;
    std::vector<mmc::report::Step> steps;
    std::string card_label, host_label;
    std::string db;
    bool import = false;
    mmc::report::StoreFilter filter;
};

Options parse_options(int argc, char** argv)
{
    enum { csv = 256, html, title, make, info, bus, erase, erase_deprecated, bench, step, card_label, host_label, out, db, import, label, card_deprecated, host, since, probe, tune };
    static const option longopts[] = {
        {"json", no_argument, nullptr, 'J'},
        {"csv", no_argument, nullptr, csv},
        {"html", required_argument, nullptr, html},
        {"title", required_argument, nullptr, title},
        {"verbose", no_argument, nullptr, 'v'},
        {"make-bundle", no_argument, nullptr, make},
        {"out", required_argument, nullptr, out},
        {"info", required_argument, nullptr, info},
        {"bus", required_argument, nullptr, bus},
        {"erase-json", required_argument, nullptr, erase},
        {"erase", required_argument, nullptr, erase_deprecated}, // deprecated spelling of --erase-json
        {"bench", required_argument, nullptr, bench},
        {"probe", required_argument, nullptr, probe},
        {"tune-json", required_argument, nullptr, tune},
        {"step", required_argument, nullptr, step},
        {"card-label", required_argument, nullptr, card_label},
        {"host-label", required_argument, nullptr, host_label},
        {"db", required_argument, nullptr, db},
        {"import", no_argument, nullptr, import},
        {"label", required_argument, nullptr, label},
        {"card", required_argument, nullptr, card_deprecated}, // deprecated spelling of --label
        {"host", required_argument, nullptr, host},
        {"since", required_argument, nullptr, since},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    Options o;
    bool bundle_option = false, report_option = false, filter_option = false;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":JvhV", longopts, {"bench", "probe", "tune-json", "step"})) != -1) {
        switch (c) {
        case 'J': o.json = true; report_option = true; break;
        case csv: o.csv = true; report_option = true; break;
        case html: o.html = optarg; report_option = true; break;
        case title: o.title = optarg; report_option = true; break;
        case 'v': o.verbose = true; break;
        case make: o.make = true; break;
        case out: o.out_dir = optarg; bundle_option = true; break;
        case info: o.info = optarg; bundle_option = true; break;
        case bus: o.bus = optarg; bundle_option = true; break;
        case erase_deprecated: mmc::cli::warn_deprecated(tool, "--erase", "--erase-json"); [[fallthrough]];
        case erase: o.erase = optarg; bundle_option = true; break;
        case bench: o.bench.push_back(optarg); bundle_option = true; break;
        case probe: o.probe.push_back(optarg); bundle_option = true; break;
        case tune: o.tune.push_back(optarg); bundle_option = true; break;
        case step:
            try {
                o.steps.push_back(mmc::report::parse_step(optarg));
            } catch (const std::invalid_argument& e) {
                throw mmc::cli::UsageError(e.what());
            }
            bundle_option = true;
            break;
        case card_label: o.card_label = optarg; bundle_option = true; break;
        case host_label: o.host_label = optarg; bundle_option = true; break;
        case db: o.db = optarg; break;
        case import: o.import = true; break;
        case card_deprecated: mmc::cli::warn_deprecated(tool, "--card", "--label"); [[fallthrough]];
        case label: o.filter.card = optarg; filter_option = true; break;
        case host: o.filter.host = optarg; filter_option = true; break;
        case since:
            if (!mmc::report::valid_since(optarg))
                throw mmc::cli::UsageError(fmt::format("--since '{}': expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ", optarg));
            o.filter.since = optarg;
            filter_option = true;
            break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default: mmc::cli::throw_getopt_error(c, argv);
        }
    }
    for (; optind < argc; ++optind) o.paths.push_back(argv[optind]);
    if (o.db.empty() && (o.import || filter_option)) throw mmc::cli::UsageError("--import, --label, --host and --since need --db URL");
    if (o.make && !o.db.empty()) throw mmc::cli::UsageError("--db is not for --make-bundle: store its bundle with --db URL --import FILE");
    if (o.import) {
        if (bundle_option) throw mmc::cli::UsageError("--out, --info, --bus, --erase-json, --bench, --probe, --tune-json, --step and the labels go with --make-bundle");
        if (o.csv || !o.html.empty() || !o.title.empty()) throw mmc::cli::UsageError("--csv, --html and --title make a report; not with --import");
        if (filter_option) throw mmc::cli::UsageError("--label, --host and --since select what a report shows; not with --import");
        if (o.paths.empty()) throw mmc::cli::UsageError("--import needs bundle files or directories");
    } else if (o.make) {
        if (report_option) throw mmc::cli::UsageError("-J, --csv, --html and --title make a report; not with --make-bundle");
        if (!o.paths.empty()) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}' with --make-bundle", o.paths.front()));
        if (o.out_dir.empty()) throw mmc::cli::UsageError("--make-bundle needs --out DIR");
    } else {
        if (bundle_option) throw mmc::cli::UsageError("--out, --info, --bus, --erase-json, --bench, --probe, --tune-json, --step and the labels go with --make-bundle");
        if (o.json && o.csv) throw mmc::cli::UsageError("choose one of -J and --csv");
        if (o.html == "-" && (o.json || o.csv)) throw mmc::cli::UsageError("--html - and -J or --csv would share standard output");
        if (!o.db.empty() && !o.paths.empty())
            throw mmc::cli::UsageError(fmt::format("unexpected argument '{}' with --db (to store bundles: --db URL --import FILE|DIR...)", o.paths.front()));
        if (o.db.empty() && o.paths.empty()) throw mmc::cli::UsageError("no bundles named: give bundle files or directories, or --db URL");
    }
    return o;
}

std::string now_utc()
{
    const auto now = std::chrono::system_clock::now();
    return mmc::report::iso8601_utc(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count());
}

// When the HTML page says it was made: now, or SOURCE_DATE_EPOCH when set
// (reproducible pages: two reports of the same bundles are the same bytes).
std::string generated_time()
{
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        char* end = nullptr;
        const long long seconds = std::strtoll(epoch, &end, 10);
        if (*end == '\0' && seconds >= 0) return mmc::report::iso8601_utc(seconds);
    }
    return now_utc();
}

int import_bundles(const Options& o)
{
    using mmc::report::Outcome;
    const auto store = mmc::report::open_store(o.db);
    const auto summary = mmc::report::import_paths(*store, o.paths);
    for (const auto& m : summary.missing) mmc::cli::error(tool, m);
    for (const auto& i : summary.items) {
        if (i.outcome == Outcome::rejected) mmc::cli::error(tool, fmt::format("{}: rejected: {}", i.path, i.reason));
        else if (o.verbose)
            fmt::print(stderr, "{}: {} {}\n", tool, i.outcome == Outcome::stored ? "stored" : "already there:", i.path);
    }
    if (o.verbose)
        for (const auto& p : summary.ignored) fmt::print(stderr, "{}: ignored {}: not a bundle\n", tool, p);
    const auto stored = summary.count(Outcome::stored), duplicates = summary.count(Outcome::duplicate),
               rejected = summary.count(Outcome::rejected);
    if (o.json) {
        mmc::report::json doc;
        doc["tool"] = tool;
        doc["version"] = mmc::version;
        doc["database"] = store->describe();
        doc["stored"] = stored;
        doc["duplicates"] = duplicates;
        doc["rejected"] = rejected;
        auto& items = doc["bundles"] = mmc::report::json::array();
        for (const auto& i : summary.items)
            items.push_back({{"path", i.path},
                             {"outcome", i.outcome == Outcome::stored ? "stored" : i.outcome == Outcome::duplicate ? "duplicate" : "rejected"},
                             {"content_hash", i.content_hash.empty() ? mmc::report::json(nullptr) : mmc::report::json(i.content_hash)},
                             {"reason", i.reason.empty() ? mmc::report::json(nullptr) : mmc::report::json(i.reason)}});
        doc["ignored"] = summary.ignored;
        doc["missing"] = summary.missing;
        mmc::cli::print_json(doc, tool);
    } else {
        fmt::print("{}: {} stored, {} already there, {} rejected\n", store->describe(), stored, duplicates, rejected);
    }
    return summary.ok() ? mmc::cli::ok : mmc::cli::failure;
}

int make_bundle(const Options& o)
{
    mmc::report::MakeInputs in;
    if (o.info) in.info = mmc::report::read_tool_doc(*o.info, "mmc-info");
    if (o.bus) in.bus = mmc::report::read_tool_doc(*o.bus, "mmc-bus");
    if (o.erase) in.erase = mmc::report::read_tool_doc(*o.erase, "mmc-erase");
    for (const auto& b : o.bench) in.bench.push_back(mmc::report::read_tool_doc(b, "mmc-bench"));
    for (const auto& p : o.probe) in.probe.push_back(mmc::report::read_tool_doc(p, "mmc-probe"));
    for (const auto& t : o.tune) in.tune.push_back(mmc::report::read_tool_doc(t, "mmc-tune"));
    in.steps = o.steps;
    in.card_label = o.card_label;
    in.host_label = o.host_label;
    in.environment = mmc::report::collect_environment();
    in.created = now_utc();
    const auto bundle = mmc::report::make_bundle(in);
    for (std::size_t i = o.steps.size(); i < bundle.steps.size(); ++i)
        mmc::cli::error(tool, fmt::format("warning: {}: {}", bundle.steps[i].name, bundle.steps[i].message));

    const auto written = mmc::report::write_bundle_file(o.out_dir, bundle, mmc::report::to_json(bundle));
    if (!written.replaced_at.empty()) fmt::print(stderr, "{}\n", mmc::cli::replaced_warning(tool, written.replaced_at));
    fmt::print("{}\n", written.path);
    return mmc::cli::ok;
}

int report(const Options& o)
{
    std::unique_ptr<mmc::report::Store> store;
    if (!o.db.empty()) store = mmc::report::open_store(o.db, false);
    auto loaded = store ? mmc::report::load_stored(store->bundles(o.filter)) : mmc::report::load_paths(o.paths);
    for (const auto& w : loaded.warnings) mmc::cli::error(tool, w);
    if (o.verbose) {
        for (const auto& b : loaded.bundles) fmt::print(stderr, "{}: read {}: {} @ {}\n", tool, b.path, b.card.label, b.host.label);
        for (const auto& p : loaded.ignored) fmt::print(stderr, "{}: ignored {}: not a bundle\n", tool, p);
    }
    if (loaded.bundles.empty() && store) {
        mmc::cli::error(tool, fmt::format("no bundles in {}{}", store->describe(),
                                          o.filter.card.empty() && o.filter.host.empty() && o.filter.since.empty() ? "" : " match the filters"));
        return mmc::cli::failure;
    }
    if (loaded.bundles.empty()) {
        std::string where;
        for (const auto& p : o.paths) where += (where.empty() ? "" : ", ") + p;
        mmc::cli::error(tool, fmt::format("no bundles found in {} (looked for *.json with \"format\": \"mmckit-bundle\")", where));
        return mmc::cli::failure;
    }
    const auto warnings = loaded.warnings;
    const auto rep = mmc::report::build_report(std::move(loaded.bundles));
    if (!o.html.empty()) {
        mmc::report::HtmlOptions ho;
        if (!o.title.empty()) ho.title = o.title;
        ho.generated = generated_time();
        const std::string page = mmc::report::html_report(rep, ho);
        if (o.html == "-") std::cout << page;
        else mmc::cli::write_output_file(o.html, page);
    }
    if (o.json) mmc::cli::print_json(mmc::report::json_report(rep, warnings), tool);
    else if (o.csv) std::cout << mmc::report::csv_report(rep);
    else if (o.html.empty()) std::cout << mmc::report::text_report(rep, mmc::cli::use_color(1));
    return loaded.named_file_failed ? mmc::cli::failure : mmc::cli::ok;
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    return o.make ? make_bundle(o) : o.import ? import_bundles(o) : report(o);
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
