// The front of a tool made of subcommands (mmc-probe geometry, mmc-tune
// emmc): the tool's own options, -h and -V, come before the subcommand; the
// subcommand's front end parses everything after it.
#pragma once

#include <cstdio>
#include <optional>
#include <string_view>

namespace mmc::cli {

// The subcommand's index in argv (optind is left there); nullopt once -h
// has printed usage (the tool then exits 0). -V prints the version and
// exits. No subcommand is a usage error naming `names` ("geometry or
// capacity").
std::optional<int> subcommand_index(int argc, char** argv, std::string_view tool, void (*usage)(std::FILE*),
                                    std::string_view names);

// The usage error for a word that names no subcommand.
[[noreturn]] void throw_unknown_subcommand(std::string_view word, std::string_view names);

} // namespace mmc::cli
