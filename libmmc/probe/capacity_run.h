// `mmc-probe capacity` on a device, for any tool: the target described, the
// device opened and the probe planned, then the probe run past a reader's
// read cache. No options, prompts or printing: the caller resolves the
// device (Purpose::probe), approves the writes and shows the result
// (capacity_view.h). mmc-probe and mmc-qualify call it.
#pragma once

#include "dev/resolver.h"
#include "probe/capacity.h"
#include "probe/capacity_device.h"
#include "probe/capacity_view.h"
#include "probe/read_timer.h"

namespace mmc::probe {

// The whole device the resolver gave, with its card's identity when it is one.
CapacityTarget capacity_target(const dev::Device& resolved, const dev::SysRoots& roots, bool use_ioctl);

// A read cache in front of the card (a USB reader's bridge) is found by
// timing first, so that the probe's checks read past it (read_cache.h);
// then probe_capacity on `io`, the target's device. options.stop stops it
// and puts every block back. Throws as probe_capacity does, or when the
// device cannot be read.
CapacityResult run_capacity_probe(const CapacityTarget& target, DeviceBlocks& io, CapacityOptions options);
// The same on any ReadTimer (the simulator's, in tests). Behind USB
// (`behind_usb`) a cache the timing does not show is assumed, as large as
// the largest looked for (max_read_cache_bytes), and the confidence is at
// most medium.
CapacityResult probe_past_read_cache(ReadTimer& timer, bool behind_usb, BlockIo& io, CapacityOptions options);

// The document mmc-probe capacity -J prints: "tool", "version" and
// "command" first, then `body` (result_json, or the dry run's).
nlohmann::ordered_json capacity_document(const nlohmann::ordered_json& body);

} // namespace mmc::probe
