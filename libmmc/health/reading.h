// The one schema every health source is read into: the figures a person
// compares across cards (normalised, null where the source has none), the
// source's own fields under its own names, and the source named. Pure data.
#pragma once

#include "regs/register.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::health {

// PRE_EOL_INFO's words (JESD84-B51 7.4.60): reserved blocks consumed.
enum class PreEol { normal, warning, urgent };
std::string_view to_string(PreEol p);

struct BadBlocks {
    std::optional<uint64_t> factory; // marked bad when the card was made
    std::optional<uint64_t> runtime; // grown bad since
};

struct EraseCount {
    std::optional<uint64_t> min, max, total;
    std::optional<double> avg; // some sources give it in fractions of a cycle
};

// Normalised wear. Units are fixed here so that two sources compare:
//  life_used_percent     share of the rated endurance used; the upper bound
//                        of the source's step (EXT_CSD 0x01 "0-10%" is 10);
//                        may exceed 100 where the source says so
//  spare_blocks_percent  share of the spare (replacement) blocks still
//                        available, 100 new, 0 exhausted
//  bytes_written         host or NAND bytes as the source counts them
struct Wear {
    std::optional<double> life_used_percent;
    std::optional<bool> life_exhausted; // the source says the rated life is used up
    std::optional<PreEol> pre_eol;
    std::optional<double> spare_blocks_percent;
    BadBlocks bad_blocks;
    EraseCount erase_count;
    std::optional<uint64_t> rated_erase_cycles; // P/E cycles the flash is rated for
    std::optional<uint64_t> power_cycles;
    std::optional<uint64_t> abnormal_power_losses;
    std::optional<uint64_t> bytes_written;
    std::optional<std::string> firmware;

    // For sources that give life remaining in percent: used is 100 minus it
    // (never below 0; some cards report more than 100% left), and a card
    // with none left is exhausted.
    void set_life_remaining(double remaining_percent);

    // True when a verdict can rest on it: life used, PRE_EOL or spare left.
    bool judgeable() const { return life_used_percent || pre_eol || spare_blocks_percent; }
};

// One source's reading.
struct Reading {
    std::string source;                // "ext_csd", "cmd56:sandisk", "ssr:swissbit"
    Wear wear;
    std::vector<regs::Derived> fields; // the source's own fields, by their own names
    std::vector<std::string> notes;    // what a reader should know (an ambiguity, a choice made)

    void add(std::string key, regs::Value value, std::string label, std::string text = {});
};

} // namespace mmc::health
