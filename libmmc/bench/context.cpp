#include "bench/context.h"

#include "bus/doctor.h"
#include "dev/bus_evidence.h"
#include "dev/discovery.h"
#include "dev/register_sources.h"
#include "dev/system.h"
#include "regs/card_facts.h"
#include "regs/card_registers.h"
#include "regs/register_facts.h"

#include <fmt/format.h>

namespace mmc::bench {

namespace {

namespace fs = std::filesystem;

// "C10" -> 10, "U3" -> 3, "V30" -> 30, "A2" -> 2; nothing for anything else.
std::optional<int> class_number(const regs::ClassClaim& claim, char letter)
{
    const std::string& s = claim.name;
    if (s.size() < 2 || s[0] != letter) return std::nullopt;
    try {
        const int n = std::stoi(s.substr(1));
        return n > 0 ? std::optional<int>(n) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

CardClaims claims_from(const regs::CardRegisters& regs, std::string source)
{
    CardClaims c;
    const auto ssr = regs::ssr_facts(regs);
    if (!ssr) return c;
    c.known = true;
    c.source = std::move(source);
    if (ssr->speed_class_mb_s > 0) c.speed_class_mb_s = static_cast<int>(ssr->speed_class_mb_s);
    c.uhs_grade = class_number(ssr->uhs_speed_grade, 'U');
    c.video_class = class_number(ssr->video_speed_class, 'V');
    c.app_perf_class = class_number(ssr->app_perf_class, 'A');
    c.au_bytes = regs::au_bytes(regs).value_or(0); // 0: AU_SIZE not defined
    c.cache_support = ssr->cache_support;
    // The decoded depth (2-32), not the SSR's code (depth - 1).
    c.cq_depth = ssr->cq_depth;
    return c;
}

} // namespace

HostQueueing host_queueing(const dev::BlockQueue& queue, const std::string& host,
                           const std::optional<std::string>& kernel_log)
{
    HostQueueing q;
    const fs::path& wc = queue.write_cache_attr;
    if (const auto& v = queue.write_cache) {
        q.cache_enabled = *v == "write back";
        q.cache_evidence = fmt::format("{}: {}", wc.string(), *v);
    } else {
        q.cache_evidence = fmt::format("{} unreadable", wc.string());
    }
    if (!kernel_log) {
        q.cq_evidence = "kernel log unreadable (needs root or kernel.dmesg_restrict=0)";
        return q;
    }
    const std::string needle = host + ": ";
    std::size_t pos = 0;
    while ((pos = kernel_log->find(needle, pos)) != std::string::npos) {
        const auto end = kernel_log->find('\n', pos);
        const std::string line = kernel_log->substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos += needle.size();
        std::string lower = line;
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find("command queue") != std::string::npos && lower.find("enabled") != std::string::npos) {
            q.cq_enabled = true;
            q.cq_evidence = fmt::format("kernel log: \"{}\"", line);
        }
    }
    if (!q.cq_enabled) {
        q.cq_enabled = false;
        q.cq_evidence = fmt::format("no \"{}: Command Queue Engine enabled\" in the kernel log; mainline Linux "
                                    "does not queue commands to SD cards",
                                    host);
    }
    return q;
}

Context gather_context(dev_t device, const dev::SysRoots& roots, bool use_ioctl)
{
    Context ctx;
    const auto sys = dev::block_syspath(device, roots);
    if (!sys) {
        ctx.not_card_why = "not on a block device";
        return ctx;
    }
    const std::string name = sys->filename().string();
    dev::Target target;
    try {
        target = dev::resolve(name, roots);
    } catch (const dev::ResolveError& e) {
        ctx.not_card_why = e.what();
        // A card in a USB reader is named as such: "sdb is an SD card in a
        // USB 2.0 reader (...): its registers are out of reach".
        if (e.why == dev::ResolveError::Why::not_mmc) {
            const auto d = dev::resolve_device(name, dev::Purpose::read, {roots});
            if (d.is_reader_slot()) ctx.not_card_why = d.not_mmc;
        }
        return ctx;
    }
    if (!target.card) {
        ctx.not_card_why = fmt::format("{}: no card", name);
        return ctx;
    }
    const dev::Card& card = *target.card;
    const auto id = dev::identify(card, roots, {use_ioctl});
    CardInfo ci;
    ci.identity = id.identity;
    ci.type = card.type;
    ci.block = card.block;
    ci.partition = target.partition;
    ci.notes = id.gathered.notes;
    const auto& regs = id.registers;
    const auto& zeros = id.gathered.zero_copies;
    const bool zero_ssr = std::find(zeros.begin(), zeros.end(), "ssr from sysfs") != zeros.end();
    if (id.facts.family == regs::CardFamily::sd) {
        if (!id.facts.ssr_source.empty()) ci.claims = claims_from(regs, id.facts.ssr_source);
        else if (zero_ssr)
            ci.claims_missing_why = "the SD status from sysfs is all zeros (the live ACMD13 needs root)";
        else ci.claims_missing_why = "the SD status (SSR) could not be read";
    } else {
        ci.claims_missing_why = "eMMC makes no SD speed class claims";
    }
    ctx.card = ci;

    BusInfo bi;
    bi.host = card.host.name;
    bi.controller = card.host.controller.describe();
    try {
        const auto evidence = dev::gather_bus_evidence(card.host, &card, id.facts.family ? &regs : nullptr, roots);
        const auto d = bus::diagnose(evidence);
        bi.mode = d.mode ? std::string(bus::to_string(*d.mode)) : std::string();
        bi.timing = d.ios.timing;
        bi.clock_hz = d.ios.clock_hz;
        bi.actual_clock_hz = d.ios.actual_clock_hz;
        bi.bus_width_bits = d.ios.bus_width_bits;
        bi.ceiling_mb_s = d.ceiling_mb_s;
        bi.limit = bus::to_string(d.limit);
        if (!card.host.ios) bi.ceiling_why = "debugfs ios unreadable (mount debugfs; needs root)";
    } catch (const std::exception& e) {
        bi.ceiling_why = e.what();
    }
    ctx.bus = bi;
    ctx.queueing = host_queueing(dev::read_block_queue(card.block, roots), card.host.name,
                                 roots.is_live() ? dev::read_kernel_log() : std::nullopt);
    return ctx;
}

} // namespace mmc::bench
