#include "qualify/device_check.h"

namespace mmc::qualify {

dev::Device check_device(const Settings& s, const std::filesystem::path& proc)
{
    dev::ResolveOptions o;
    o.roots = s.roots;
    o.proc = proc;
    o.any_device = s.any_device;
    // No file_alternative: mmc-qualify has no --file to offer for a directory.
    // --destructive erases and writes, so it is judged as an erase (the card
    // or --any-device, nothing mounted); a read-only run may read a mounted
    // card, but it still measures only a card unless --any-device says so.
    const auto purpose = s.destructive ? dev::Purpose::erase : dev::Purpose::read;
    dev::Device d = dev::resolve_device(s.device, purpose, o);
    d.require_allowed();
    // A USB card reader's slot is a card, as the resolver judges it.
    if (!d.card && !d.is_reader_slot() && !s.any_device)
        throw dev::DeviceError(dev::DeviceError::Why::not_mmc, d.typed, "not an MMC/SD device: " + d.not_mmc,
                               cli::Remedy::any_device_measure);
    return d;
}

} // namespace mmc::qualify
