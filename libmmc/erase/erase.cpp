#include "erase/erase.h"

#include "erase/open_device.h"
#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::erase {

std::string_view to_string(ChunkKind k)
{
    switch (k) {
    case ChunkKind::chunk: return "chunk";
    case ChunkKind::head: return "head";
    case ChunkKind::tail: return "tail";
    }
    return "chunk";
}

dev::Device device_to_erase(const std::string& typed, const Options& options)
{
    // Refuses a device that is not a card (without any_device) or is in use.
    dev::ResolveOptions ro;
    ro.roots = options.roots;
    ro.proc = options.safety.proc;
    ro.any_device = options.any_device;
    try {
        dev::Device resolved = dev::resolve_device(typed, dev::Purpose::erase, ro);
        resolved.require_allowed();
        return resolved;
    } catch (const dev::DeviceError& e) {
        throw TargetError(e.why, e.reason, e.remedy);
    }
}

Prepared prepare(const std::string& device, const Range& range, Method method, const Options& options)
{
    const dev::Device resolved = device_to_erase(device, options);
    const auto card = dev::identify(resolved, options.roots, {options.use_ioctl});
    return prepare(resolved, card ? &*card : nullptr, range, method, options);
}

Prepared prepare(const dev::Device& device, const dev::Identified* card, const Range& range, Method method,
                 const Options& options)
{
    Prepared p;
    p.device = device.typed;
    p.options = options;
    p.target = erase_target(device, card);
    const auto& t = p.target;
    const auto& caps = t.caps;

    const bool whole = !t.is_partition && range.offset == 0 && (!range.length || *range.length == t.size);
    try {
        p.selection = select_method(method, caps, whole);
    } catch (const MethodRefused& e) {
        throw Refused(e.what());
    }
    const Method m = p.selection.method;
    p.unit = erase_unit(m, caps);
    // Only whole AUs come back clean (the card erases or unmaps an AU as one
    // block): a method that erases aligns to the AU, from the SD status or
    // --au, when the AU is a whole number of the method's own unit.
    std::optional<EraseUnit> au;
    if (options.au_bytes) au = EraseUnit{*options.au_bytes, options.au_source};
    else if (caps.family == regs::CardFamily::sd && caps.au_bytes) au = EraseUnit{caps.au_bytes, "SSR AU_SIZE"};
    if (options.au_bytes && caps.family == regs::CardFamily::sd && caps.au_bytes && caps.au_bytes != *options.au_bytes)
        p.warnings.push_back(fmt::format("the AU of {} ({}) overrides the SSR's AU_SIZE ({})", options.au_source,
                                         cli::format_bytes_exact(*options.au_bytes), cli::format_bytes_exact(caps.au_bytes)));
    if (au && restores_clean(m)) {
        if (au->bytes % p.unit.bytes == 0) {
            p.unit = *au;
            p.au_aligned = true;
        } else {
            p.warnings.push_back(fmt::format("the AU ({}, from {}) is not a whole number of {}'s {}-byte unit ({}): "
                                             "aligned to that unit, not to the AU",
                                             cli::format_bytes_exact(au->bytes), au->source, to_string(m), p.unit.bytes, p.unit.source));
        }
    }
    uint64_t limit = chunk_limit(m, caps);
    if (options.max_chunk) limit = limit ? std::min(limit, options.max_chunk) : options.max_chunk;
    p.plan = make_plan({t.size, t.start, range, p.unit.bytes, caps.logical_block, limit, options.zero_unaligned});
    if (p.plan.aligned.empty() && !options.zero_unaligned)
        throw Refused(fmt::format("the range {}+{} holds no whole erase unit ({} bytes, from {}); nothing would be "
                                  "erased",
                                  p.plan.range.offset, p.plan.range.length, p.unit.bytes, p.unit.source),
                      cli::Remedy::zero_unaligned);
    if (m == Method::fule && p.plan.aligned != p.plan.range)
        throw Refused("FULE erases the whole user area, which is not a whole number of erase units here");

    p.outcome = expected_outcome(m, caps);
    p.command = describe(m, caps);
    p.contents = dev::volumes_in_range(t.disk, t.start + p.plan.range.offset, p.plan.range.length, options.roots);
    if (p.au_aligned) {
        p.partial = partial_aus(p.plan, t.start);
        if (p.partial.count)
            p.warnings.push_back(fmt::format(
                "the range leaves {} partial AU{} at its edges: {} of it ({} before the first whole {} AU, {} after "
                "the last) {} {}, and those AUs are not restored to the clean state: their next write still copies "
                "their old data. Align the range's start and length to {} to clean every AU the range touches",
                p.partial.count, p.partial.count > 1 ? "s" : "", cli::format_bytes_exact(p.partial.bytes),
                cli::format_bytes_exact(p.plan.head.extent.length), cli::format_bytes_exact(p.unit.bytes),
                cli::format_bytes_exact(p.plan.tail.extent.length), p.partial.bytes == 1 ? "is" : "are",
                options.zero_unaligned ? "zeroed (written, not erased)" : "left alone", cli::format_bytes_exact(p.unit.bytes)));
    }
    for (const Edge* e : {&p.plan.head, &p.plan.tail}) {
        if (p.au_aligned || e->action != EdgeAction::left_alone) continue;
        p.warnings.push_back(fmt::format("{} {} bytes at offset {} lie outside whole {} erase units and are left alone "
                                         "(zeroing unaligned edges writes zeros there instead)",
                                         e == &p.plan.head ? "the first" : "the last", e->extent.length,
                                         e->extent.offset, cli::format_bytes_exact(p.unit.bytes)));
    }
    if (caps.family == regs::CardFamily::sd && is_raw(m) && !caps.ssr)
        p.warnings.push_back("the SD status (SSR) could not be read: busy timeouts use 250 ms per AU");
    if (caps.family == regs::CardFamily::sd && is_raw(m) && caps.ssr && caps.au_bytes == 0)
        p.warnings.push_back(fmt::format("SSR AU_SIZE is 0 (not defined): the erase unit is {} from {}",
                                         cli::format_bytes_exact(p.unit.bytes), p.unit.source));
    return p;
}

Report execute(const Prepared& p, const ProgressFn& progress, const std::atomic<bool>& stop)
{
    OpenDevice device(p);
    return run_phases(p, device, progress, stop);
}

Report erase_range(const std::string& device, const Range& range, Method method, const Options& options,
                   const ProgressFn& progress, const std::atomic<bool>& stop)
{
    return execute(prepare(device, range, method, options), progress, stop);
}

} // namespace mmc::erase
