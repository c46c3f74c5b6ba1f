#include "dev/disk_identity.h"

#include "dev/usb_storage.h"

namespace mmc::dev {

namespace {

std::string identity_trimmed(std::string s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.pop_back();
    return s;
}

} // namespace

DiskIdentity read_disk_identity(const Device& device, const SysRoots& roots)
{
    DiskIdentity id;
    if (device.card) {
        id.cid = identity_trimmed(card_attr(*device.card, "cid").value_or(""));
        id.card_name = identity_trimmed(card_attr(*device.card, "name").value_or(""));
        id.card_serial = identity_trimmed(card_attr(*device.card, "serial").value_or(""));
    }
    if (const auto devno = read_attr(device.disk_syspath / "dev")) {
        const auto props = parse_udev_properties(read_attr(roots.udev_data_dir() / ("b" + identity_trimmed(*devno))).value_or(""));
        if (const auto s = props.find("ID_SERIAL"); s != props.end()) id.id_serial = s->second;
        if (const auto w = props.find("ID_WWN"); w != props.end()) id.id_wwn = w->second;
    }
    id.loop_backing_file = identity_trimmed(read_attr(device.disk_syspath / "loop" / "backing_file").value_or(""));
    return id;
}

} // namespace mmc::dev
