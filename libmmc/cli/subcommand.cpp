#include "cli/subcommand.h"

#include "cli/cli.h"

#include <fmt/format.h>
#include <getopt.h>

namespace mmc::cli {

std::optional<int> subcommand_index(int argc, char** argv, std::string_view tool, void (*usage)(std::FILE*),
                                    std::string_view names)
{
    // "+": stop at the first word that is no option of the tool's own, the
    // subcommand, so that its options are left to it.
    static const option longopts[] = {
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    // optind 0: glibc starts a scan afresh (its ordering "+" read again),
    // whatever an earlier parse in this process left behind.
    optind = 0;
    opterr = 0;
    int c;
    while ((c = next_option(argc, argv, "+:hV", longopts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return std::nullopt;
        case 'V': print_version_and_exit(tool);
        default: throw_getopt_error(c, argv);
        }
    }
    if (optind >= argc) throw UsageError(fmt::format("no subcommand given ({})", names));
    return optind;
}

void throw_unknown_subcommand(std::string_view word, std::string_view names)
{
    throw UsageError(fmt::format("unknown subcommand '{}'; expected {}", word, names));
}

} // namespace mmc::cli
