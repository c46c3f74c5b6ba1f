#include "cli/next_option.h"

#include "cli/cli.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <string>
#include <vector>

namespace mmc::cli {

namespace {

char** scanned_argv = nullptr;
bool mid_scan = false; // between a scan's first call and its -1

const option* option_of(const option* longopts, int c)
{
    for (const option* o = longopts; o && o->name; ++o)
        if (o->val == c && !o->flag) return o;
    return nullptr;
}

bool takes_value(int c, const char* optstring, const option* longopts, int longindex)
{
    if (longindex >= 0) return longopts[longindex].has_arg != no_argument;
    const char* at = c > 0 && c < 256 && c != ':' ? std::strchr(optstring, c) : nullptr;
    return at && at[1] == ':';
}

// Looks over a copy of the line (getopt permutes what it scans) with the
// tool's own tables; the real scan then starts afresh.
void scan_whole_line(int argc, char** argv, const char* optstring, const option* longopts,
                     std::initializer_list<std::string_view> gathering)
{
    std::vector<char*> copy(argv, argv + argc);
    copy.push_back(nullptr);
    const int saved_opterr = opterr;
    opterr = 0;
    optind = 0;
    struct Given {
        std::string typed, value;
    };
    std::map<int, Given> seen; // option value -> how it was first typed, with what
    std::string repeated;
    int c, longindex = -1;
    while ((c = getopt_long(argc, copy.data(), optstring, longopts, &longindex)) != -1) {
        const int index = longindex;
        longindex = -1;
        if (c == '?' || c == ':') continue;
        if (c == 'J') request_json_errors(); // -J is --json in every tool (the conventions test holds them to it)
        if (!repeated.empty() || !takes_value(c, optstring, longopts, index)) continue;
        const option* named = index >= 0 ? &longopts[index] : option_of(longopts, c);
        if (named && std::find(gathering.begin(), gathering.end(), named->name) != gathering.end()) continue;
        const std::string typed = index >= 0 ? fmt::format("--{}", longopts[index].name) : fmt::format("-{}", char(c));
        const std::string value = optarg ? optarg : "";
        const auto [first, fresh] = seen.emplace(c, Given{typed, value});
        if (fresh) continue;
        const Given& was = first->second;
        repeated = fmt::format("{}: given more than once ('{}' and '{}')", was.typed == typed ? typed : fmt::format("{} ({})", typed, was.typed),
                               was.value, value);
    }
    opterr = saved_opterr;
    optind = 0; // glibc: start the next scan afresh
    if (!repeated.empty()) throw UsageError(repeated + "; give one");
}

} // namespace

int next_option(int argc, char** argv, const char* optstring, const option* longopts,
                std::initializer_list<std::string_view> gathering)
{
    // Not optind alone: it stays 1 inside a cluster of short options (-nJ).
    if (argv != scanned_argv || !mid_scan || optind == 0) {
        scanned_argv = argv;
        mid_scan = false;
        scan_whole_line(argc, argv, optstring, longopts, gathering);
        mid_scan = true;
    }
    const int c = getopt_long(argc, argv, optstring, longopts, nullptr);
    if (c == -1) mid_scan = false;
    return c;
}

} // namespace mmc::cli
