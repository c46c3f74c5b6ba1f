// The parameters of a simulated card: its geometry, flash timing, starting
// state and fake type. One place for every name a card option, a preset file
// and the model's JSON use, so "--open-aus 4" and {"open_aus": 4} mean the
// same thing everywhere.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace mmc::sim {

// clean: every page discarded (a new card); full: every page valid, written
// in order (after one sequential fill); fragmented: every page valid and each
// AU's data scattered so the next write into it needs a full merge (a used card).
enum class StartState { clean, full, fragmented };

// After F3's taxonomy of fake cards (see fakes.h).
enum class Fake { none, limbo, wraparound, chain, bad };

// Flash timing. Defaults: see default_params() for where each figure comes from.
struct Timing {
    uint64_t command_ns = 0;      // per request overhead (command, response, controller firmware)
    uint64_t page_read_ns = 0;    // per flash page touched by a read (array read, ECC)
    uint64_t page_program_ns = 0; // per page programmed (a partial page costs a whole one)
    uint64_t block_erase_ns = 0;  // per erase block erased
    uint64_t au_cross_ns = 0;     // extra for each AU boundary one read crosses
    double bus_bytes_per_s = 0;   // the data's transfer time on the bus (25e6 for SD high speed)
};

// What makes sustained writing different from a short benchmark:
// an SLC cache (part of the flash run as SLC: writes land there fast until
// it is full, then go at the native TLC/QLC rate; idle time folds it back
// into the native flash) and garbage-collection stalls driven by the FTL's
// state. All zero: none of it, and the card times exactly as without.
// Rates are bytes/s; 0 for slc_rate or native_rate: the rate page_program
// gives (pages * page_program), so a card without these times as before.
struct Sustained {
    uint64_t slc_cache_bytes = 0;   // the SLC cache (0 = none)
    double slc_rate = 0;            // the cache's program rate: writes while it has room
    double native_rate = 0;         // the native flash's sequential write rate: writes once it is full
    double slc_fold_rate = 0;       // how fast idle time empties the cache (0 = native_rate's)
    uint64_t slc_fold_after_ns = 0; // idle time before folding starts: controllers wait for the
                                    // host to go quiet, so a host's own gap between requests
                                    // (0.1-1 ms through mmc-sim's chain) does not move the knee
    uint64_t gc_stall_ns = 0;       // one garbage-collection stall (0 = none)
    unsigned gc_every = 1;          // blocks the FTL makes free per stall (a stall every n-th)
    uint64_t gc_reserve_bytes = 0;  // erased flash the controller keeps: opening an AU that
                                    // leaves fewer erased AUs than this is a block made free
                                    // (as large as the card or larger: every opening is)
};

// What a worn card does once a block wears out with no spare left to take
// its place: write-protect itself (as many SD cards do at the end), go on
// acknowledging writes it no longer stores, or answer nothing at all.
enum class EndOfLife { read_only, lose_writes, dead };

// Flash that reads badly from the start (a weak die or plane): every page
// overlapping [offset, offset + size) of the storage needs `level` more
// read-retry steps (wear.h).
struct WeakRegion {
    uint64_t offset = 0;
    uint64_t size = 0;
    unsigned level = 0;
};

// How the flash wears (wear.h has the model). All zero: a card that never
// wears, timing exactly as without.
struct Wear {
    uint64_t endurance = 0;    // P/E cycles a block is rated for (0 = never wears out)
    uint64_t age_ns = 0;       // the card's age when served; virtual time adds to it
    uint64_t spare_blocks = 0; // blocks that take a worn-out block's place
    EndOfLife end_of_life = EndOfLife::read_only;
    std::vector<WeakRegion> weak;
};

struct Params {
    uint64_t size_bytes = 0;  // announced capacity
    uint32_t page_bytes = 0;  // flash page, 4-64 KiB, a power of two
    uint64_t au_bytes = 0;    // allocation unit = erase block: 2^n or 3*2^n (TLC: 12 MiB)
    unsigned open_aus = 0;    // AUs the controller keeps open for writing
    uint64_t fat_area_bytes = 0; // the card's start handled for small random writes (the FAT
                                 // area, ftl.h): the AUs that begin below it keep a page-mapped
                                 // log each, outside open_aus (0 = none)
    uint64_t cache_bytes = 0; // the controller's RAM write-back buffer in front of the flash (0 =
                              // none; not the SLC cache below); with a limbo or chain fake it also
                              // sizes the cache that catches writes beyond real_size
    StartState state = StartState::clean;
    Fake fake = Fake::none;
    uint64_t real_size_bytes = 0; // fakes: the storage really there (0 with fake none = size_bytes)
    uint64_t module_bytes = 0;    // wraparound/chain: addresses wrap at this (0 = real_size_bytes)
    bool strict_cache = false;    // limbo cache: only exact re-reads of cached blocks return data
    uint64_t bridge_cache_bytes = 0; // a USB reader's read cache in front of the card (0 = none; bridge_cache.h)
    uint8_t erased_byte = 0;      // what reads of discarded ranges return (0x00 or 0xff)
    Timing timing;
    Sustained sustained;
    Wear wear;
    uint64_t seed = 0;
};

// The P/E cycles a flash type is rated for, by name ("tlc", "mlc",
// "pslc"); 0 for a name it does not know.
uint64_t endurance_preset(std::string_view name);
inline constexpr unsigned default_weak_level = 4;

// A typical 2015 class-10 microSD (16 GB, 4 MiB AU, 16 KiB pages).
Params default_params();

const char* to_string(StartState);
const char* to_string(Fake);
const char* to_string(EndOfLife);

// One card option by its long name without dashes: "size", "page", "au",
// "open-aus", "fat-area", "cache", "state", "fake", "real-size", "module", "strict-cache",
// "bridge-cache", "erased-byte", "command", "page-read", "page-program", "block-erase",
// "au-cross", "bus-rate", "slc-cache", "slc-rate", "native-rate",
// "slc-fold-rate", "slc-fold-after", "gc-stall", "gc-every", "gc-reserve", "endurance",
// "age", "spare-blocks", "end-of-life", "weak", "seed". Sizes take
// cli::parse_size ("4k", "12M"); times take cli::parse_duration ("800ns",
// "100us", "1.5ms", "2s"; a bare number is seconds); bus-rate and the other
// rates take bytes per second as a number ("25e6") or a size ("25M" = 25
// MiB/s); strict-cache takes "" (the bare flag), yes/no, true/false, 1/0.
// endurance takes a number of P/E cycles or a flash type's rating (tlc,
// mlc, pslc: endurance_preset); age a time without the hour's limit
// ("17520h": two years); weak takes OFFSET,SIZE[,LEVEL] and adds a region
// each time (LEVEL defaults to default_weak_level).
// Throws std::invalid_argument naming the option.
void set_option(Params&, std::string_view name, std::string_view value);

// Throws std::invalid_argument on a card that cannot exist (AU not 2^n or
// 3*2^n, page larger than the AU, size not a whole number of pages, real size
// beyond the announced size, ...). Does not touch the parameters.
void validate(const Params&);

// Every parameter, resolved (real_size and module filled in), under the
// option names with '_' for '-'. Sizes in bytes, times in ns, bus_rate in
// bytes/s, enums as their names.
nlohmann::json to_json(const Params&);

// Any subset of to_json's keys over `base`. A value may be a number (bytes,
// ns, bytes/s) or a string as the option takes it. "comment" is ignored (for
// presets); any other unknown key is an error. The result is validated.
Params params_from_json(const nlohmann::json&, Params base = default_params());

// Resolved values: what the model actually uses.
uint64_t real_size(const Params&);   // fake none: size_bytes
uint64_t wrap_module(const Params&); // module_bytes or real_size
// The sustained rates, 0 resolved: the bytes/s writes land at in the SLC
// cache and in the native flash (page_program's rate when not set), and
// idle time folds the cache at (native_rate's when not set).
double slc_rate(const Params&);
double native_rate(const Params&);
double slc_fold_rate(const Params&);

} // namespace mmc::sim
