// The one size parser and byte formatter every tool and module shares, so
// that "1.5M" means the same wherever a size is typed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mmc::cli {

// "4096", "4k", "512K", "16M", "16MiB", "16MB", "1.5G", "2T", "512B".
// Units are binary (k = 1024) whatever their spelling, as in util-linux and
// fio; a fraction is allowed when the result is a whole number of bytes.
// Throws std::invalid_argument with a message that quotes the text.
uint64_t parse_size(std::string_view text);

// parse_size for a command-line option: a bad value is a UsageError that
// names the option ("--bs: '4x': unknown unit 'x' ...").
uint64_t size_option(std::string_view option, std::string_view text);

// --au as mmc-erase and mmc-format take it: "measure" (find the unit first:
// nullopt) or a size of whole 512-byte sectors. `given` holds what an earlier
// --au said; a second one is a usage error, as neither the first nor the
// last would be what was meant.
std::optional<uint64_t> au_option(std::string_view text, std::optional<std::string>& given);

// The two ways a byte count is shown, both here so that a size reads the
// same in every tool.
// Short, for tables, progress and one-line summaries, to three significant
// digits: 1536 -> "1.5 KiB", 16777216 -> "16 MiB", 512 -> "512 B".
std::string format_bytes(uint64_t bytes);

// Exact, for a register's or an operation's size, where the count matters:
// the short form to two decimals, followed by the count whenever that form
// loses it or the size is 1 GiB or more (a capacity a user compares with
// the label): "4 MiB", "3.44 KiB (3520 bytes)", "512 bytes",
// "3.69 GiB (3963617280 bytes)". ExactCount::always adds the count to
// every size of 1 KiB or more ("4 MiB (4194304 bytes)": an erase's extents).
enum class ExactCount { when_needed, always };
std::string format_bytes_exact(uint64_t bytes, ExactCount count = ExactCount::when_needed);

// A figure that is not a byte count (a clock, a rate, a voltage), rounded to
// at most `decimals` places with trailing zeros dropped: (187.5, 3) ->
// "187.5", (41.6666, 3) -> "41.667", (50, 2) -> "50".
std::string format_figure(double value, int decimals);
// A frequency in its largest decimal unit of at least one, to three places:
// 198000000 -> "198 MHz", 49152000 -> "49.152 MHz", 400000 -> "400 kHz".
std::string format_hz(double hz);

} // namespace mmc::cli
