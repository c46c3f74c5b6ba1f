#include "probe/capacity_view.h"

#include "cli/printable.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "probe/words_view.h"
#include "probe/measure.h"

#include <fmt/format.h>

namespace mmc::probe {

namespace {

std::string size_text(uint64_t bytes, uint32_t block_size)
{
    return fmt::format("{} ({} bytes, {} blocks)", cli::format_bytes(bytes), bytes, bytes / block_size);
}

std::string where(const CapacityTarget& t)
{
    if (t.card) {
        std::string card = t.card->product.empty() ? "(no name)" : fmt::format("\"{}\"", cli::printable(t.card->product));
        if (!t.card->manufacturer.empty()) card += ", " + cli::printable(t.card->manufacturer);
        return fmt::format("{}: {} {}", t.card->name, t.card->type, card);
    }
    if (t.in_reader) return t.not_mmc; // "sdb is an SD card in a USB 2.0 reader (...): its registers are out of reach"
    return t.not_mmc.empty() ? "not an MMC/SD card" : t.not_mmc + ", not an MMC/SD card";
}

std::string verdict_sentence(const CapacityResult& r)
{
    const auto usable = cli::format_bytes(r.usable_bytes), announced = cli::format_bytes(r.announced_bytes);
    switch (*r.verdict) {
    case Verdict::good: return fmt::format("good: all {} announced hold data", announced);
    case Verdict::limbo:
        return fmt::format("limbo: only the first {} of the announced {} hold data; writes beyond are lost", usable,
                           announced);
    case Verdict::wraparound:
        return fmt::format("wraparound: addresses wrap every {}; writes beyond the first {} overwrite it",
                           cli::format_bytes(*r.module_bytes), usable);
    case Verdict::chain:
        return fmt::format("chain: the first {} hold data, then limbo up to {}, where addresses wrap", usable,
                           cli::format_bytes(*r.module_bytes));
    case Verdict::bad: return fmt::format("bad: none of the announced {} holds data", announced);
    }
    return "";
}

} // namespace

int exit_status(Verdict v)
{
    switch (v) {
    case Verdict::good: return 0;
    case Verdict::limbo: return 10;
    case Verdict::wraparound: return 11;
    case Verdict::chain: return 12;
    case Verdict::bad: return 13;
    }
    return 1;
}

std::string shrink_command(const std::string& path, const CapacityResult& r, uint32_t block_size)
{
    if (!r.verdict || *r.verdict == Verdict::good) return "";
    const uint64_t start = MiB / block_size, usable = r.usable_bytes / block_size;
    if (usable <= start) return "";
    // sfdisk counts in the device's sectors; type c: FAT32 (LBA), what a card comes with.
    return fmt::format("printf 'label: dos\\nstart={}, size={}, type=c\\n' | sfdisk {}", start, usable - start, path);
}

std::string plan_text(const CapacityTarget& t, const CapacityPlan& p, bool destructive)
{
    std::string out;
    auto line = [&](std::string_view label, const std::string& text) { out += fmt::format("{:<12}{}\n", label, text); };
    line("Device:", fmt::format("{} ({})", t.path, where(t)));
    line("Announced:", size_text(p.block_count * p.block_size, p.block_size));
    line("Writes:", fmt::format("at most {} blocks of {} bytes ({}), typically {} on a fake without a cache",
                                p.max_blocks_written, p.block_size, cli::format_bytes(p.max_blocks_written * p.block_size),
                                p.typical_blocks_written));
    line("Where:", fmt::format("stamps on single blocks from {} (block {}) to the end; nothing below", cli::format_bytes(MiB),
                               p.anchor));
    line("", fmt::format("up to {} blocks below the last rewritten in place (their bytes unchanged)",
                         p.cache_check_blocks));
    if (destructive)
        line("Copies:", "none (--destructive): the stamped blocks keep the stamps");
    else
        line("Copies:", fmt::format("every stamped block, in memory (at most {} blocks, {}), written back at the end "
                                    "and on Ctrl-C",
                                    p.max_backup_blocks, cli::format_bytes(p.max_backup_blocks * p.block_size)));
    return out;
}

std::string result_text(const CapacityTarget& t, const CapacityResult& r, uint32_t block_size)
{
    std::string out;
    auto line = [&](std::string_view label, const std::string& text) { out += fmt::format("{:<16}{}\n", label, text); };
    if (r.verdict)
        out += fmt::format("{}: {}\n", t.path, verdict_sentence(r));
    else
        out += fmt::format("{}: interrupted: no verdict\n", t.path);
    line("verdict", r.verdict ? verdict_name(*r.verdict) : "none (interrupted)");
    line("announced", size_text(r.announced_bytes, block_size));
    if (r.verdict) {
        line("usable", size_text(r.usable_bytes, block_size) +
                           (r.usable_is_lower_bound ? " at least (the end lies within the cache's size of the last block)" : ""));
        line("module", r.module_bytes ? size_text(*r.module_bytes, block_size) : "none (addresses do not wrap)");
        line("cache", !r.cache_bytes ? "not seen (the last block holds data)"
                      : *r.cache_bytes ? fmt::format("about {} (an upper bound)", cli::format_bytes(*r.cache_bytes))
                                       : "none");
    }
    line("confidence", confidence_name(r.confidence));
    if (!r.read_cache_evidence.empty()) line("read cache", r.read_cache_evidence);
    line("blocks written", fmt::format("{} ({} stamped blocks copied{})", r.blocks_written, r.blocks_backed_up,
                                       r.restored ? " and written back" : ""));
    line("blocks read", fmt::format("{}", r.blocks_read));
    line("time", fmt::format("{:.2f} s", r.seconds));
    if (!r.restored && r.blocks_backed_up == 0 && r.blocks_written) line("restored", "no (--destructive)");
    if (const auto cmd = shrink_command(t.path, r, block_size); !cmd.empty())
        out += fmt::format("\nTo use only the storage that is there (a new partition table; then make a filesystem "
                           "on the partition):\n  {}\n",
                           cmd);
    return out;
}

nlohmann::ordered_json result_json(const CapacityTarget& t, const CapacityResult& r, uint32_t block_size, bool destructive)
{
    nlohmann::ordered_json j;
    j["device"] = t.path;
    j["card"] = t.card ? nlohmann::ordered_json(dev::identity_json(*t.card)) : nlohmann::ordered_json(nullptr);
    j["verdict"] = r.verdict ? nlohmann::ordered_json(verdict_name(*r.verdict)) : nlohmann::ordered_json(nullptr);
    j["announced_bytes"] = r.announced_bytes;
    j["usable_bytes"] = r.usable_bytes;
    j["module_bytes"] = r.module_bytes ? nlohmann::ordered_json(*r.module_bytes) : nlohmann::ordered_json(nullptr);
    j["cache_bytes"] = r.cache_bytes ? nlohmann::ordered_json(*r.cache_bytes) : nlohmann::ordered_json(nullptr);
    j["confidence"] = confidence_name(r.confidence);
    j["read_cache_bytes"] = r.read_cache_bytes ? nlohmann::ordered_json(r.read_cache_bytes) : nlohmann::ordered_json(nullptr);
    j["read_cache_evidence"] = r.read_cache_evidence.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.read_cache_evidence);
    j["blocks_written"] = r.blocks_written;
    j["seconds"] = r.seconds;
    j["block_size"] = block_size;
    j["blocks_read"] = r.blocks_read;
    j["blocks_backed_up"] = r.blocks_backed_up;
    j["restored"] = r.restored;
    j["destructive"] = destructive;
    j["usable_is_lower_bound"] = r.usable_is_lower_bound;
    const auto cmd = shrink_command(t.path, r, block_size);
    j["shrink_command"] = cmd.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(cmd);
    j["interrupted"] = r.interrupted;
    return j;
}

nlohmann::ordered_json dry_run_json(const CapacityTarget& target, const CapacityPlan& plan)
{
    nlohmann::ordered_json j;
    j["device"] = target.path;
    j["card"] = target.card ? nlohmann::ordered_json(dev::identity_json(*target.card)) : nlohmann::ordered_json(nullptr);
    j["dry_run"] = true;
    j["block_size"] = plan.block_size;
    j["announced_bytes"] = plan.block_count * plan.block_size;
    j["max_blocks_written"] = plan.max_blocks_written;
    j["typical_blocks_written"] = plan.typical_blocks_written;
    j["max_backup_blocks"] = plan.max_backup_blocks;
    return j;
}

std::string CapacityProgressText::operator()(const CapacityProgress& p)
{
    if (p.phase != phase_) {
        phase_ = p.phase;
        phase_start_ = std::chrono::steady_clock::now();
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - phase_start_).count();
    auto eta = [&] { return cli::eta_text(static_cast<double>(p.done), static_cast<double>(p.total), elapsed); };
    switch (p.phase) {
    case CapacityPhase::cache: return fmt::format("cache check: {}/{} blocks rewritten in place, {}", p.done, p.total, eta());
    case CapacityPhase::wrap: return "wrap check: looking for the anchor's stamp at powers of two";
    case CapacityPhase::search:
        return fmt::format("search: round {} of about {}, {} blocks written, {}", p.done + 1, p.total, p.blocks_written, eta());
    case CapacityPhase::restore: break;
    }
    return fmt::format("restoring: {}/{} blocks written back", p.done, p.total);
}

std::string partition_refusal(const std::string& path, const std::string& disk_path)
{
    return fmt::format("{}: a partition; the capacity is the whole card's: probe {}", path, disk_path);
}

std::string interrupted_text(const CapacityTarget& target, const CapacityResult& r)
{
    return fmt::format("interrupted: {}", r.restored ? fmt::format("the {} stamped blocks were written back; {} is as it was",
                                                                  r.blocks_backed_up, target.path)
                                                     : "--destructive: the stamps written so far stay");
}

} // namespace mmc::probe
