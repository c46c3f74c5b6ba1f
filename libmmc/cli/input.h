// Reading input that a person or another program supplied: every read is
// capped, so "@/dev/zero" or a runaway file fails at once instead of
// growing memory until the kernel kills the tool, and JSON nesting is
// capped, so a hostile document cannot exhaust the stack (nlohmann's copy
// and dump recurse once per level).
#pragma once

#include "cli/errors.h"

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::cli {

// A register image in hex: an EXT_CSD as Linux prints it is 1 KiB; a
// hexdump with offsets and separators a few KiB. Nothing real approaches this.
inline constexpr std::size_t register_input_cap = 1u << 20; // 1 MiB
// A tool's -J document or a result bundle: the largest real bundle (every
// suite's histograms) is well under 1 MiB.
inline constexpr std::size_t json_input_cap = 64u << 20; // 64 MiB
// Bundles nest about 8 levels deep; tool documents fewer.
inline constexpr int json_depth_cap = 64;

// Input refused before it was parsed: missing, unreadable, too large, too
// deep. A failure (exit 1) wherever it is read, a file named on the command
// line included: as util-linux does for a file it cannot open, the command
// line was well formed and the file is what failed; usage (2) is for a line
// that is not.
struct InputError : Error {
    explicit InputError(const std::string& message) : Error(ErrorKind::failure, message) {}
};

// The file's contents; throws InputError "PATH: why" when it cannot be read
// or holds more than cap bytes ("more than 1 MiB; no register dump is that
// large"). Reads at most cap + 1 bytes, whatever the file claims to be.
std::string read_file_capped(const std::filesystem::path& path, std::size_t cap, std::string_view what);

// Throws InputError "PATH: why" for a path that errno says could not be
// opened: the one wording of a missing or unreadable input file, also for
// one opened by other means (mmc-format's image).
[[noreturn]] void throw_unreadable(const std::string& path, int error_number);

// The same for a path named on the command line, where "-" is standard
// input: `mmc-bus --ios -`.
std::string read_input(const std::string& path, std::size_t cap, std::string_view what);

// "1 MiB", "64 MiB": how the caps read in messages.
std::string cap_text(std::size_t cap);

// Parses text; throws nlohmann::json::parse_error when it is not JSON and
// InputError when it nests deeper than max_depth arrays and objects or holds
// a number out of a double's range (1e400). A key
// that appears twice in one object is legal JSON but ambiguous (nlohmann
// keeps the last silently): when duplicate_keys is given, each such key's
// JSON pointer is added to it ("/registers/registers/csd").
nlohmann::ordered_json parse_json_capped(const std::string& text, std::vector<std::string>* duplicate_keys = nullptr,
                                         int max_depth = json_depth_cap);

} // namespace mmc::cli
