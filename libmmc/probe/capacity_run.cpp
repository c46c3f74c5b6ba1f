#include "probe/capacity_run.h"

#include "cli/size.h"
#include "dev/identify.h"
#include "probe/read_cache.h"
#include "version.h"

#include <fmt/format.h>

namespace mmc::probe {

CapacityTarget capacity_target(const dev::Device& d, const dev::SysRoots& roots, bool use_ioctl)
{
    std::optional<dev::Identity> card;
    if (d.card) card = dev::identify(*d.card, roots, {use_ioctl}).identity;
    return {d.path, card, d.not_mmc, d.is_reader_slot(), d.usb.has_value()};
}

CapacityResult run_capacity_probe(const CapacityTarget& target, DeviceBlocks& io, CapacityOptions options)
{
    BlockReadTimer timer(target.path);
    return probe_past_read_cache(timer, target.behind_usb, io, std::move(options));
}

CapacityResult probe_past_read_cache(ReadTimer& timer, bool behind_usb, BlockIo& io, CapacityOptions options)
{
    const ReadCacheFinding read_cache = find_read_cache(timer, options.stop);
    // Behind USB, a cache the timing did not see is assumed, as large as the
    // largest looked for. The stamps' read-back is only right when each
    // verifying read reaches the card, and timing is not proof of absence:
    // in the USB lab, beside two other busy lanes, the bridge's re-reads
    // were not faster than its first reads, no cache was found, and a limbo
    // fake read as good. Assuming one costs only more rewriting between
    // checks; on an MMC host there is no bridge to assume.
    const bool assumed = behind_usb && !read_cache.detected;
    if (read_cache.detected || assumed) options.read_cache_bytes = read_cache.bytes.value_or(max_read_cache_bytes(timer.size()));
    CapacityResult r = probe_capacity(io, options);
    r.read_cache_evidence = read_cache.evidence;
    if (assumed)
        r.read_cache_evidence = fmt::format("no read cache showed in the timing (re-reads took {:.0f} us against {:.0f} us for "
                                            "first reads), but on USB a bridge may hold one a busy host hides: the checks "
                                            "read past {} (the largest looked for) all the same",
                                            read_cache.again_ns / 1e3, read_cache.first_ns / 1e3,
                                            cli::format_bytes(options.read_cache_bytes));
    // The cache's own confidence caps the probe's: low when it could not be
    // emptied, medium when its two sizing passes disagreed or it was only
    // assumed (the answer holds for a cache up to the size assumed).
    const Confidence cache = assumed ? Confidence::medium : read_cache.confidence();
    if (cache == Confidence::low) r.confidence = Confidence::low;
    else if (cache == Confidence::medium && r.confidence == Confidence::high) r.confidence = Confidence::medium;
    return r;
}

nlohmann::ordered_json capacity_document(const nlohmann::ordered_json& body)
{
    nlohmann::ordered_json doc;
    doc["tool"] = "mmc-probe";
    doc["version"] = mmc::version;
    doc["command"] = "capacity";
    doc.update(body);
    return doc;
}

} // namespace mmc::probe
