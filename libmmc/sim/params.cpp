#include "sim/params.h"

#include "cli/duration.h"
#include "cli/size.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace mmc::sim {

namespace {

[[noreturn]] void bad(std::string_view name, std::string_view value, std::string_view why)
{
    throw std::invalid_argument(fmt::format("{}: '{}': {}", name, value, why));
}

uint64_t size_value(std::string_view name, std::string_view value)
{
    try {
        return cli::parse_size(value);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", name, e.what()));
    }
}

// "800ns", "100us", "1.5ms", "2s", "0.0001" (seconds) -> ns: the one
// duration syntax (cli/duration.h), held to whole nanoseconds and an hour.
uint64_t time_value(std::string_view name, std::string_view value)
{
    double ns = 0;
    try {
        ns = cli::parse_duration(value).count();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", name, e.what()));
    }
    if (ns > 3600e9) bad(name, value, "longer than an hour");
    const double whole = std::round(ns);
    if (std::fabs(ns - whole) > 1e-6) bad(name, value, "not a whole number of nanoseconds");
    return static_cast<uint64_t>(whole);
}

uint64_t integer_value(std::string_view name, std::string_view value)
{
    uint64_t v = 0;
    int base = 10;
    std::string_view digits = value;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    }
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
        bad(name, value, "expected a whole number (decimal or 0x hex)");
    return v;
}

double rate_value(std::string_view name, std::string_view value)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (!value.empty() && ec == std::errc() && end == value.data() + value.size()) return v;
    return static_cast<double>(size_value(name, value)); // "25M": binary, like every size
}

bool bool_value(std::string_view name, std::string_view value)
{
    if (value.empty() || value == "1" || value == "yes" || value == "true" || value == "on") return true;
    if (value == "0" || value == "no" || value == "false" || value == "off") return false;
    bad(name, value, "expected yes or no");
}

// A card's age: the duration syntax without time_value's hour, which
// holds flash times, not years.
uint64_t age_value(std::string_view name, std::string_view value)
{
    double ns = 0;
    try {
        ns = cli::parse_duration(value).count();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", name, e.what()));
    }
    if (ns > 100 * 365.25 * 86400e9) bad(name, value, "older than a hundred years");
    return static_cast<uint64_t>(std::llround(ns));
}

// OFFSET,SIZE[,LEVEL]: sizes as every size, the level a whole number.
WeakRegion weak_value(std::string_view name, std::string_view value)
{
    const auto first = value.find(',');
    if (first == std::string_view::npos) bad(name, value, "expected OFFSET,SIZE[,LEVEL]");
    const auto second = value.find(',', first + 1);
    WeakRegion w;
    w.offset = size_value(name, value.substr(0, first));
    w.size = size_value(name, value.substr(first + 1, second == std::string_view::npos ? std::string_view::npos : second - first - 1));
    w.level = default_weak_level;
    if (second != std::string_view::npos) {
        const uint64_t level = integer_value(name, value.substr(second + 1));
        if (level < 1 || level > 64) bad(name, value, "LEVEL is 1 to 64 read-retry steps");
        w.level = static_cast<unsigned>(level);
    }
    if (w.size == 0) bad(name, value, "an empty region");
    return w;
}

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

} // namespace

Params default_params()
{
    // A typical 2015 class-10 16 GB microSD, MLC flash, on the 25 MB/s
    // high-speed bus. Sources (copies in /work/shared/corpus/flashbench):
    // - Geometry: 16 GB cards announce 31116288 sectors; a 4 MiB AU and
    //   16 KiB read pages (8 KiB pages read two at a time) are what the
    //   flashbench README's -a ladder shows; 5 open AUs is what a Lexar
    //   16 GB class-10 microSD kept open (linear and random).
    // - command 500 us, page_read 150 us, au_cross 150 us: that ladder reads
    //   1 KiB in ~740 us inside a page (500 + 150 + the transfer), ~150 us
    //   more across a 16 KiB boundary and ~300 us more across a 4 MiB one.
    //   So 4 KiB random reads run at ~1230 IOPS and 1 MiB reads at ~20 MB/s.
    // - page_program 700 us per 16 KiB gives ~12 MB/s sequential writes
    //   (class 10 promises 10 MB/s; the README's card wrote 8.8 MB/s in
    //   4 MiB blocks over 2 open AUs). block_erase 3 ms: MLC datasheets
    //   give 1.5-5 ms per block.
    Params p;
    p.size_bytes = 31116288ull * 512;
    p.page_bytes = 16 << 10;
    p.au_bytes = 4 << 20;
    p.open_aus = 5;
    // - fat_area 16 MiB: cards handle their first AUs, where their factory
    //   format (the SD layout) keeps the FAT, in a mode for small random
    //   writes, apart from the few AUs they keep open for linear writes
    //   (Arnd Bergmann, "Optimizing Linux with cheap flash drives", LWN
    //   2011; the Linaro flash card survey). How far: flashbench's own
    //   --open-au test starts 16 MiB in "to skip FAT" (flashbench.c,
    //   try_open_au) and its --find-fat looks at the first 6 erase blocks;
    //   and the SD layout of a card up to 32 GB (4 MiB boundary unit, FATs
    //   of up to 2 x 4 MiB) ends its FATs at 16 MiB at most.
    p.fat_area_bytes = 16 << 20;
    p.cache_bytes = 0;
    p.state = StartState::clean;
    p.fake = Fake::none;
    p.erased_byte = 0x00;
    p.timing.command_ns = 500'000;
    p.timing.page_read_ns = 150'000;
    p.timing.page_program_ns = 700'000;
    p.timing.block_erase_ns = 3'000'000;
    p.timing.au_cross_ns = 150'000;
    p.timing.bus_bytes_per_s = 25e6;
    p.seed = 1;
    return p;
}

const char* to_string(StartState s)
{
    switch (s) {
    case StartState::clean: return "clean";
    case StartState::full: return "full";
    case StartState::fragmented: return "fragmented";
    }
    return "?";
}

// Published ratings, per block, for the flash types SD and eMMC cards are
// built from:
// - mlc 10000: Kingston's "Flash Memory Guide" rates MLC flash at up to
//   10,000 write cycles per physical sector (and SLC at 100,000).
// - tlc 3000: the "3K P/E cycles" high-endurance (3D TLC) microSD cards
//   are specified with (e.g. the surveillance microSD specification at
//   smd-chip.com, "Endurance and Write Cycles": 3K P/E); consumer TLC is
//   often rated lower, 1,000 or less.
// - pslc 30000: industrial cards run their flash as pseudo-SLC at ratings
//   of 30,000 P/E cycles and up (first-hk.com, "Understanding pSLC
//   Lifespan": 30,000 to 100,000); the low end, as a card sold without a
//   datasheet figure should be assumed.
uint64_t endurance_preset(std::string_view name)
{
    if (name == "tlc") return 3000;
    if (name == "mlc") return 10000;
    if (name == "pslc") return 30000;
    return 0;
}

const char* to_string(EndOfLife e)
{
    switch (e) {
    case EndOfLife::read_only: return "read-only";
    case EndOfLife::lose_writes: return "lose-writes";
    case EndOfLife::dead: return "dead";
    }
    return "?";
}

const char* to_string(Fake f)
{
    switch (f) {
    case Fake::none: return "none";
    case Fake::limbo: return "limbo";
    case Fake::wraparound: return "wraparound";
    case Fake::chain: return "chain";
    case Fake::bad: return "bad";
    }
    return "?";
}

void set_option(Params& p, std::string_view name, std::string_view value)
{
    if (name == "size") p.size_bytes = size_value(name, value);
    else if (name == "page") {
        const uint64_t v = size_value(name, value);
        if (v > (1u << 30)) bad(name, value, "too large for a flash page");
        p.page_bytes = static_cast<uint32_t>(v);
    } else if (name == "au") p.au_bytes = size_value(name, value);
    else if (name == "open-aus") {
        const uint64_t v = integer_value(name, value);
        if (v > 1024) bad(name, value, "more open AUs than any card keeps");
        p.open_aus = static_cast<unsigned>(v);
    } else if (name == "fat-area") p.fat_area_bytes = size_value(name, value);
    else if (name == "cache") p.cache_bytes = size_value(name, value);
    else if (name == "state") {
        if (value == "clean") p.state = StartState::clean;
        else if (value == "full") p.state = StartState::full;
        else if (value == "fragmented") p.state = StartState::fragmented;
        else bad(name, value, "expected clean, full or fragmented");
    } else if (name == "fake") {
        if (value == "none") p.fake = Fake::none;
        else if (value == "limbo") p.fake = Fake::limbo;
        else if (value == "wraparound") p.fake = Fake::wraparound;
        else if (value == "chain") p.fake = Fake::chain;
        else if (value == "bad") p.fake = Fake::bad;
        else bad(name, value, "expected none, limbo, wraparound, chain or bad");
    } else if (name == "real-size") p.real_size_bytes = size_value(name, value);
    else if (name == "module") p.module_bytes = size_value(name, value);
    else if (name == "strict-cache") p.strict_cache = bool_value(name, value);
    else if (name == "bridge-cache") p.bridge_cache_bytes = size_value(name, value);
    else if (name == "erased-byte") {
        const uint64_t v = integer_value(name, value);
        if (v != 0x00 && v != 0xff) bad(name, value, "a card erases to 0x00 or 0xff");
        p.erased_byte = static_cast<uint8_t>(v);
    } else if (name == "command") p.timing.command_ns = time_value(name, value);
    else if (name == "page-read") p.timing.page_read_ns = time_value(name, value);
    else if (name == "page-program") p.timing.page_program_ns = time_value(name, value);
    else if (name == "block-erase") p.timing.block_erase_ns = time_value(name, value);
    else if (name == "au-cross") p.timing.au_cross_ns = time_value(name, value);
    else if (name == "bus-rate") p.timing.bus_bytes_per_s = rate_value(name, value);
    else if (name == "slc-cache") p.sustained.slc_cache_bytes = size_value(name, value);
    else if (name == "slc-rate") p.sustained.slc_rate = rate_value(name, value);
    else if (name == "native-rate") p.sustained.native_rate = rate_value(name, value);
    else if (name == "slc-fold-rate") p.sustained.slc_fold_rate = rate_value(name, value);
    else if (name == "slc-fold-after") p.sustained.slc_fold_after_ns = time_value(name, value);
    else if (name == "gc-stall") p.sustained.gc_stall_ns = time_value(name, value);
    else if (name == "gc-every") {
        const uint64_t v = integer_value(name, value);
        if (v < 1 || v > 1'000'000) bad(name, value, "expected 1 (a stall for every block made free) to 1000000");
        p.sustained.gc_every = static_cast<unsigned>(v);
    } else if (name == "gc-reserve") p.sustained.gc_reserve_bytes = size_value(name, value);
    else if (name == "endurance") {
        const uint64_t preset = endurance_preset(value);
        p.wear.endurance = preset ? preset : integer_value(name, value);
        if (p.wear.endurance > 10'000'000) bad(name, value, "more P/E cycles than any flash is rated for");
    } else if (name == "age") p.wear.age_ns = age_value(name, value);
    else if (name == "spare-blocks") p.wear.spare_blocks = integer_value(name, value);
    else if (name == "end-of-life") {
        if (value == "read-only") p.wear.end_of_life = EndOfLife::read_only;
        else if (value == "lose-writes") p.wear.end_of_life = EndOfLife::lose_writes;
        else if (value == "dead") p.wear.end_of_life = EndOfLife::dead;
        else bad(name, value, "expected read-only, lose-writes or dead");
    } else if (name == "weak") p.wear.weak.push_back(weak_value(name, value));
    else if (name == "seed") p.seed = integer_value(name, value);
    else throw std::invalid_argument(fmt::format("unknown card option '{}'", name));
}

uint64_t real_size(const Params& p)
{
    if (p.fake == Fake::bad) return 0;
    return p.real_size_bytes ? p.real_size_bytes : p.size_bytes;
}

uint64_t wrap_module(const Params& p) { return p.module_bytes ? p.module_bytes : real_size(p); }

namespace {
double page_program_rate(const Params& p)
{
    return p.timing.page_program_ns ? p.page_bytes * 1e9 / static_cast<double>(p.timing.page_program_ns) : 0;
}
} // namespace

double slc_rate(const Params& p) { return p.sustained.slc_rate ? p.sustained.slc_rate : page_program_rate(p); }
double native_rate(const Params& p) { return p.sustained.native_rate ? p.sustained.native_rate : page_program_rate(p); }
double slc_fold_rate(const Params& p) { return p.sustained.slc_fold_rate ? p.sustained.slc_fold_rate : native_rate(p); }

void validate(const Params& p)
{
    auto fail = [](std::string what) { throw std::invalid_argument(std::move(what)); };
    if (p.page_bytes < 4096 || p.page_bytes > 65536 || !is_pow2(p.page_bytes))
        fail(fmt::format("page: {} bytes: a flash page is a power of two from 4 KiB to 64 KiB", p.page_bytes));
    const uint64_t au = p.au_bytes;
    if (!(is_pow2(au) || (au % 3 == 0 && is_pow2(au / 3))))
        fail(fmt::format("au: {} bytes: an AU is a power of two or 3*2^n (e.g. 12 MiB)", au));
    if (au < p.page_bytes) fail(fmt::format("au: {} bytes is smaller than the {}-byte page", au, p.page_bytes));
    if (au % p.page_bytes) fail(fmt::format("au: {} bytes is not a whole number of {}-byte pages", au, p.page_bytes));
    if (p.size_bytes == 0 || p.size_bytes % p.page_bytes)
        fail(fmt::format("size: {} bytes is not a whole number of {}-byte pages", p.size_bytes, p.page_bytes));
    if (p.size_bytes < au) fail(fmt::format("size: {} bytes is smaller than one {}-byte AU", p.size_bytes, au));
    if (p.size_bytes > (uint64_t{1} << 44)) fail("size: larger than 16 TiB");
    if (p.open_aus < 1) fail("open-aus: a card keeps at least one AU open to write into");
    if (p.fat_area_bytes > p.size_bytes)
        fail(fmt::format("fat-area: {} bytes is larger than the card's {} bytes", p.fat_area_bytes, p.size_bytes));
    if (p.cache_bytes % 512) fail(fmt::format("cache: {} bytes is not a whole number of sectors", p.cache_bytes));
    if (p.cache_bytes > (uint64_t{1} << 30)) fail("cache: larger than 1 GiB");
    if (p.bridge_cache_bytes % 512) fail(fmt::format("bridge-cache: {} bytes is not a whole number of sectors", p.bridge_cache_bytes));
    if (p.bridge_cache_bytes > (uint64_t{1} << 30)) fail("bridge-cache: larger than 1 GiB");
    if (p.erased_byte != 0x00 && p.erased_byte != 0xff) fail("erased-byte: a card erases to 0x00 or 0xff");
    const Timing& t = p.timing;
    if (!(t.bus_bytes_per_s >= 1e3 && t.bus_bytes_per_s <= 1e11) || !std::isfinite(t.bus_bytes_per_s))
        fail(fmt::format("bus-rate: {} bytes/s is not a bus", t.bus_bytes_per_s));
    const uint64_t hour = 3600'000'000'000ull;
    for (uint64_t ns : {t.command_ns, t.page_read_ns, t.page_program_ns, t.block_erase_ns, t.au_cross_ns})
        if (ns > hour) fail("a flash time longer than an hour");
    const uint64_t real = real_size(p);
    const Sustained& s = p.sustained;
    for (const auto& [name, rate] : {std::pair{"slc-rate", s.slc_rate}, {"native-rate", s.native_rate}, {"slc-fold-rate", s.slc_fold_rate}})
        if (rate != 0 && !(rate >= 1e3 && rate <= 1e11 && std::isfinite(rate)))
            fail(fmt::format("{}: {} bytes/s is not a flash's rate (1e3 to 1e11, or 0 for page-program's)", name, rate));
    if (s.slc_cache_bytes % 512) fail(fmt::format("slc-cache: {} bytes is not a whole number of sectors", s.slc_cache_bytes));
    if (s.slc_cache_bytes > real) fail(fmt::format("slc-cache: {} bytes is larger than the card's {} bytes of flash", s.slc_cache_bytes, real));
    // A reserve as large as the card or larger: every AU opened makes a block free (presets keep it at small --size).
    if (s.gc_reserve_bytes > (uint64_t{1} << 44)) fail("gc-reserve: larger than 16 TiB");
    if (s.gc_stall_ns > hour) fail("gc-stall: longer than an hour");
    if (s.gc_every < 1) fail("gc-every: at least 1");
    for (const WeakRegion& w : p.wear.weak)
        if (w.size == 0 || w.offset >= real || w.size > real - w.offset)
            fail(fmt::format("weak: {} bytes at {}: outside the card's {} bytes of flash", w.size, w.offset, real));
    if (p.fake == Fake::none) {
        if (p.real_size_bytes && p.real_size_bytes != p.size_bytes)
            fail("real-size: only a fake card has less storage than it announces");
        if (p.module_bytes) fail("module: only wraparound and chain fakes wrap addresses");
        if (p.strict_cache) fail("strict-cache: only limbo, chain and bad fakes have a limbo cache");
        return;
    }
    if (p.fake == Fake::bad) {
        // F3's "bad": no storage at all.
        if (p.real_size_bytes) fail("real-size: a bad fake stores nothing (leave real-size out)");
        if (p.module_bytes) fail("module: only wraparound and chain fakes wrap addresses");
        // A strict cache is allowed: F3's "devil drive I" is bad with one.
        return;
    }
    if (p.real_size_bytes == 0) fail(fmt::format("real-size: a {} fake needs the size it really has", to_string(p.fake)));
    if (real >= p.size_bytes) fail(fmt::format("real-size: a {} fake has less than the {} bytes it announces", to_string(p.fake), p.size_bytes));
    if (real % p.page_bytes) fail(fmt::format("real-size: {} bytes is not a whole number of {}-byte pages", real, p.page_bytes));
    if (p.module_bytes && p.fake != Fake::wraparound && p.fake != Fake::chain)
        fail("module: only wraparound and chain fakes wrap addresses");
    if (p.strict_cache && p.fake != Fake::limbo && p.fake != Fake::chain)
        fail("strict-cache: only limbo, chain and bad fakes have a limbo cache");
    const uint64_t module = wrap_module(p);
    if (module % p.page_bytes) fail(fmt::format("module: {} bytes is not a whole number of {}-byte pages", module, p.page_bytes));
    // F3's classification: a module at or below the real size is a
    // wraparound, one between the real and the announced size a chain.
    if (p.fake == Fake::wraparound && module > real)
        fail("module: a wraparound fake wraps at or below its real size (above it, it is a chain)");
    if (p.fake == Fake::chain && (module <= real || module >= p.size_bytes))
        fail("module: a chain fake wraps at a module between its real and its announced size");
}

nlohmann::json to_json(const Params& p)
{
    nlohmann::json j;
    j["size"] = p.size_bytes;
    j["page"] = p.page_bytes;
    j["au"] = p.au_bytes;
    j["open_aus"] = p.open_aus;
    j["fat_area"] = p.fat_area_bytes;
    j["cache"] = p.cache_bytes;
    j["state"] = to_string(p.state);
    j["fake"] = to_string(p.fake);
    j["real_size"] = real_size(p);
    j["module"] = (p.fake == Fake::wraparound || p.fake == Fake::chain) ? wrap_module(p) : 0;
    j["strict_cache"] = p.strict_cache;
    j["bridge_cache"] = p.bridge_cache_bytes;
    j["erased_byte"] = p.erased_byte;
    j["command"] = p.timing.command_ns;
    j["page_read"] = p.timing.page_read_ns;
    j["page_program"] = p.timing.page_program_ns;
    j["block_erase"] = p.timing.block_erase_ns;
    j["au_cross"] = p.timing.au_cross_ns;
    j["bus_rate"] = p.timing.bus_bytes_per_s;
    j["slc_cache"] = p.sustained.slc_cache_bytes;
    j["slc_rate"] = p.sustained.slc_rate;
    j["native_rate"] = p.sustained.native_rate;
    j["slc_fold_rate"] = p.sustained.slc_fold_rate;
    j["slc_fold_after"] = p.sustained.slc_fold_after_ns;
    j["gc_stall"] = p.sustained.gc_stall_ns;
    j["gc_every"] = p.sustained.gc_every;
    j["gc_reserve"] = p.sustained.gc_reserve_bytes;
    j["endurance"] = p.wear.endurance;
    j["age"] = p.wear.age_ns;
    j["spare_blocks"] = p.wear.spare_blocks;
    j["end_of_life"] = to_string(p.wear.end_of_life);
    nlohmann::json weak = nlohmann::json::array();
    for (const WeakRegion& w : p.wear.weak) weak.push_back(fmt::format("{},{},{}", w.offset, w.size, w.level));
    j["weak"] = std::move(weak);
    j["seed"] = p.seed;
    return j;
}

Params params_from_json(const nlohmann::json& j, Params base)
{
    if (!j.is_object()) throw std::invalid_argument("card parameters: expected a JSON object");
    Params p = base;
    // Resolved values from to_json of a plain card come back as given.
    bool real_given = false;
    for (const auto& [key, value] : j.items()) {
        if (key == "comment") continue;
        std::string name = key;
        for (auto& c : name) if (c == '_') c = '-';
        if (name == "weak") { // a list of regions, each as the option takes it; it replaces the base's
            if (!value.is_array()) throw std::invalid_argument(fmt::format("{}: expected a list of \"OFFSET,SIZE,LEVEL\"", key));
            p.wear.weak.clear();
            for (const auto& region : value) {
                if (!region.is_string()) throw std::invalid_argument(fmt::format("{}: {} is not \"OFFSET,SIZE,LEVEL\"", key, region.dump()));
                set_option(p, name, region.get<std::string>());
            }
            continue;
        }
        std::string text;
        if (value.is_string()) text = value.get<std::string>();
        else if (value.is_boolean()) text = value.get<bool>() ? "yes" : "no";
        else if (value.is_number_unsigned() || value.is_number_integer()) {
            if (value.is_number_integer() && value.get<int64_t>() < 0)
                throw std::invalid_argument(fmt::format("{}: {} is negative", key, value.dump()));
            text = std::to_string(value.get<uint64_t>());
            // Numbers are ns for times: give the option its unit.
            if (name == "command" || name == "page-read" || name == "page-program" || name == "block-erase" ||
                name == "au-cross" || name == "gc-stall" || name == "slc-fold-after" || name == "age")
                text += "ns";
        } else if (value.is_number_float() && name.ends_with("rate")) text = fmt::format("{}", value.get<double>());
        else throw std::invalid_argument(fmt::format("{}: {} is not a value this key takes", key, value.dump()));
        set_option(p, name, text);
        if (name == "real-size") real_given = true;
    }
    // to_json resolves real_size = size and module = 0 for a genuine card; accept that back.
    if (p.fake == Fake::none && real_given && p.real_size_bytes == p.size_bytes) p.real_size_bytes = 0;
    validate(p);
    return p;
}

} // namespace mmc::sim
