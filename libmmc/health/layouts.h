// The vendor health layouts: how each is read (CMD56 arguments; the one
// layout that needs a CMD56 write first) and its decoder. One decoder per
// layout, each in its own file (cmd56_*.cpp, ssr_swissbit.cpp), written from
// the offsets the published readers use; where two readers disagree the
// decoder's comment says which it follows and why. Pure: blocks in, reading out.
#pragma once

#include "dev/gen_cmd.h"
#include "health/reading.h"
#include "regs/register.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::health {

// A block a card returned to CMD56 with this argument (dev/gen_cmd reads them).
using Cmd56Block = dev::GenCmdBlock;

// A decoder's answer: the reading, or why the blocks are not this layout's
// health data (signature missing, block empty, ...).
struct LayoutResult {
    std::optional<Reading> reading;
    std::string not_health; // set when reading is empty
};

using Cmd56Decoder = LayoutResult (*)(std::span<const Cmd56Block> blocks);

struct Layout {
    std::string_view name;         // "sandisk", "two_step", "micron_emmc": the --layout word
    regs::CardFamily family;
    std::vector<uint32_t> read_args; // CMD56 read arguments, in order; one block each
    std::optional<uint32_t> write_arg; // a CMD56 write (one block of zeros) sent before the reads
    std::string_view signature;    // what the block's first bytes say, for people
    std::string_view source;       // where the layout is published
    Cmd56Decoder decode;
};

// Every CMD56 layout, in --layout order.
std::span<const Layout> cmd56_layouts();
const Layout* find_layout(std::string_view name);
// "sandisk, longsys, ...": for messages and --help.
std::string layout_names();

// The decoders, one per layout file.
LayoutResult decode_sandisk(std::span<const Cmd56Block> blocks);
LayoutResult decode_longsys(std::span<const Cmd56Block> blocks);
LayoutResult decode_innodisk(std::span<const Cmd56Block> blocks);
LayoutResult decode_adata(std::span<const Cmd56Block> blocks);
LayoutResult decode_transcend(std::span<const Cmd56Block> blocks);
LayoutResult decode_micron_sd(std::span<const Cmd56Block> blocks);
LayoutResult decode_swissbit(std::span<const Cmd56Block> blocks);
LayoutResult decode_two_step(std::span<const Cmd56Block> blocks);
LayoutResult decode_micron_emmc(std::span<const Cmd56Block> blocks);

// Shared by the decoders: the block of the given argument, checked by
// not_health_data() and for the signature at offset 0. Sets result.not_health
// and returns nullptr when it fails.
const Cmd56Block* checked_block(std::span<const Cmd56Block> blocks, uint32_t arg, std::string_view signature,
                                LayoutResult& result);

} // namespace mmc::health
