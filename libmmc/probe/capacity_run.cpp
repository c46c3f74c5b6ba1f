#include "probe/capacity_run.h"

#include "dev/identify.h"
#include "probe/read_cache.h"
#include "version.h"

namespace mmc::probe {

CapacityTarget capacity_target(const dev::Device& d, const dev::SysRoots& roots, bool use_ioctl)
{
    std::optional<dev::Identity> card;
    if (d.card) card = dev::identify(*d.card, roots, {use_ioctl}).identity;
    return {d.path, card, d.not_mmc, d.is_reader_slot()};
}

CapacityResult run_capacity_probe(const CapacityTarget& target, DeviceBlocks& io, CapacityOptions options)
{
    BlockReadTimer timer(target.path);
    const ReadCacheFinding read_cache = find_read_cache(timer, options.stop);
    if (read_cache.detected) options.read_cache_bytes = read_cache.bytes.value_or(max_read_cache_bytes(timer.size()));
    CapacityResult r = probe_capacity(io, options);
    r.read_cache_evidence = read_cache.evidence;
    // The cache's own confidence caps the probe's: low when it could not be
    // emptied, medium when its two sizing passes disagreed.
    if (read_cache.confidence() == Confidence::low) r.confidence = Confidence::low;
    else if (read_cache.confidence() == Confidence::medium && r.confidence == Confidence::high) r.confidence = Confidence::medium;
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
