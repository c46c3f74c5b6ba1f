#include "simserve/card_file.h"

#include "cli/input.h"
#include "cli/size.h"
#include "sim/figures.h"
#include "version.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>
#include <unistd.h>

namespace mmc::simserve {

namespace fs = std::filesystem;

const std::vector<std::string_view>& card_option_names()
{
    static const std::vector<std::string_view> names = {
        "size",    "page",      "au",           "open-aus",    "fat-area",    "cache",   "state",    "fake",
        "real-size", "module",  "strict-cache", "bridge-cache", "erased-byte", "command", "page-read", "page-program",
        "block-erase", "au-cross", "bus-rate",  "slc-cache", "slc-rate", "native-rate", "slc-fold-rate",
        "slc-fold-after", "gc-stall", "gc-every", "gc-reserve", "endurance", "age", "spare-blocks", "end-of-life",
        "weak", "seed",
    };
    return names;
}

sim::Params load_card_file(const fs::path& file, const sim::Params& base)
{
    // Missing or unreadable: cli::InputError, a failure like every input file's.
    const std::string text = cli::read_file_capped(file, cli::json_input_cap, "card file");
    nlohmann::json doc;
    try {
        doc = cli::parse_json_capped(text);
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(fmt::format("{}: not JSON: {}", file.string(), e.what())); // run_tool words the library's marks
    } catch (const cli::InputError& e) {
        throw std::invalid_argument(fmt::format("{}: {}", file.string(), e.what()));
    }
    // A describe document carries the card under "card"; a preset is the card itself.
    if (doc.is_object() && doc.contains("tool") && doc.contains("card")) doc = doc["card"];
    try {
        return sim::params_from_json(doc, base);
    } catch (const std::exception& e) {
        throw std::invalid_argument(fmt::format("{}: {}", file.string(), e.what()));
    }
}

namespace {

// The directory of the running program (build/bin in the tree, PREFIX/bin installed).
fs::path program_dir()
{
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path{} : exe.parent_path();
}

std::vector<fs::path> preset_dirs()
{
    const auto bin = program_dir();
    if (bin.empty()) return {};
    return {bin / ".." / ".." / "sim" / "presets", bin / ".." / "share" / "mmckit" / "sim" / "presets"};
}

} // namespace

fs::path preset_file(std::string_view name)
{
    for (const auto& dir : preset_dirs()) {
        const auto file = dir / fmt::format("{}.json", name);
        if (fs::is_regular_file(file)) return file.lexically_normal();
    }
    return {};
}

std::vector<std::string> preset_names()
{
    std::set<std::string> names;
    for (const auto& dir : preset_dirs()) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(dir, ec))
            if (entry.path().extension() == ".json") names.insert(entry.path().stem().string());
    }
    return {names.begin(), names.end()};
}

fs::path plugin_file()
{
    if (const char* env = std::getenv("MMC_SIM_PLUGIN"); env && *env) return env;
    const auto bin = program_dir();
    for (const auto& file : {bin / ".." / "lib" / "nbdkit-mmcsim-plugin.so",
                             bin / ".." / "lib" / "mmckit" / "nbdkit-mmcsim-plugin.so"})
        if (!bin.empty() && fs::is_regular_file(file)) return file.lexically_normal();
    return {};
}

nlohmann::ordered_json describe_json(const sim::Params& params)
{
    nlohmann::ordered_json doc;
    doc["tool"] = "mmc-sim";
    doc["version"] = mmc::version;
    doc["card"] = sim::to_json(params);
    doc["modelled"] = sim::to_json(sim::modelled_figures(params));
    doc["modelled"]["sustained"] = sim::to_json(sim::sustained_figures(params));
    return doc;
}

namespace {

std::string format_ns(uint64_t ns)
{
    if (ns >= 1'000'000 && ns % 1000 == 0) return fmt::format("{:g} ms", ns / 1e6);
    if (ns >= 1000) return fmt::format("{:g} us", ns / 1e3);
    return fmt::format("{} ns", ns);
}

std::string format_value(std::string_view key, const nlohmann::json& v)
{
    static const std::set<std::string_view> sizes = {"size", "page", "au", "fat_area", "cache", "real_size", "module", "slc_cache", "gc_reserve"};
    static const std::set<std::string_view> times = {"command", "page_read", "page_program", "block_erase", "au_cross", "gc_stall", "slc_fold_after"};
    static const std::set<std::string_view> rates = {"slc_rate", "native_rate", "slc_fold_rate"};
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
    if (v.is_number_unsigned() && sizes.count(key)) return cli::format_bytes(v.get<uint64_t>());
    if (v.is_number_unsigned() && times.count(key)) return format_ns(v.get<uint64_t>());
    if (v.is_number() && key == "bus_rate") return fmt::format("{:g} MB/s", v.get<double>() / 1e6);
    if (v.is_number() && rates.count(key)) {
        if (v.get<double>() == 0) return key == "slc_fold_rate" ? "0 (native_rate's)" : "0 (page_program's)";
        return fmt::format("{:g} MB/s", v.get<double>() / 1e6);
    }
    if (key == "age" && v.is_number_unsigned()) return fmt::format("{:g} h", v.get<uint64_t>() / 3600e9);
    if (key == "endurance" && v.is_number_unsigned() && v.get<uint64_t>() == 0) return "0 (never wears out)";
    if (key == "erased_byte" && v.is_number_unsigned()) return fmt::format("0x{:02x}", v.get<unsigned>());
    return v.dump();
}

std::string stalls_text(const sim::SustainedFigures::Stalls& s)
{
    if (s.count == 0) return "none";
    std::string out = fmt::format("{} stalls, the longest {}, the first after {}", s.count, format_ns(s.longest_ns),
                                  cli::format_bytes(s.first_at_bytes));
    if (s.every_bytes) out += fmt::format(", then one every {}", cli::format_bytes(s.every_bytes));
    return out;
}

// What a sustained sequential write should show (sim/figures.h sustained_figures).
std::string sustained_text(const sim::SustainedFigures& f)
{
    std::string out = fmt::format("\nSustained (sequential {} writes back to back):\n", cli::format_bytes(sim::host_request_bytes));
    if (f.knee_bytes)
        out += fmt::format(" SLC cache knee                 {} written\n"
                           " burst                          {:8.2f} MB/s\n"
                           " after the cache                {:8.2f} MB/s\n"
                           " recovery                       {:8.2f} MB freed per second idle\n",
                           cli::format_bytes(f.knee_bytes), f.burst_mb_s, f.post_cache_mb_s, f.recovery_bytes_per_s / 1e6);
    else
        out += fmt::format(" SLC cache                      none (no knee)\n"
                           " sustained                      {:8.2f} MB/s\n",
                           f.post_cache_mb_s);
    out += fmt::format(" slowest AU, clean              {:8.2f} MB/s at {}\n", f.worst_au_mb_s, cli::format_bytes(f.worst_au_offset));
    out += fmt::format(" GC stalls over the whole card, clean       {}\n"
                       "                                full        {}\n"
                       "                                fragmented  {}\n",
                       stalls_text(f.clean), stalls_text(f.full), stalls_text(f.fragmented));
    return out;
}

} // namespace

std::string describe_text(const sim::Params& params)
{
    // In the order --help lists the options, then anything the model adds.
    const auto card = sim::to_json(params);
    std::vector<std::string> keys;
    for (auto name : card_option_names()) {
        std::string key(name);
        std::replace(key.begin(), key.end(), '-', '_');
        if (card.contains(key)) keys.push_back(key);
    }
    for (const auto& [key, value] : card.items())
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    std::size_t width = 0;
    for (const auto& key : keys) width = std::max(width, key.size());
    std::string out;
    for (const auto& key : keys) out += fmt::format("{:<{}}  {}\n", key, width, format_value(key, card[key]));
    // What fio or dd at QD1 on the served card should measure.
    const auto f = sim::modelled_figures(params);
    out += fmt::format("\nModelled (QD1, MB/s = 10^6 B/s):\n"
                       " sequential read 1 MiB          {:8.2f} MB/s\n"
                       " sequential write 1 MiB, clean  {:8.2f} MB/s\n"
                       "                         full   {:8.2f} MB/s\n"
                       "                   fragmented   {:8.2f} MB/s\n"
                       " random read 4 KiB              {:8.0f} IOPS\n"
                       " random write 4 KiB, open AUs   {:8.0f} IOPS\n"
                       "              whole card        {:8.0f} IOPS\n",
                       f.seq_read_mb_s, f.seq_write_mb_s_clean, f.seq_write_mb_s_full, f.seq_write_mb_s_fragmented,
                       f.rand_read_iops, f.rand_write_iops_open_aus, f.rand_write_iops_card);
    out += sustained_text(sim::sustained_figures(params));
    return out;
}

} // namespace mmc::simserve
