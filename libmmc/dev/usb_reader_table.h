// Common USB card-reader chips by USB ID: one row per ID, each checked
// against the Linux USB ID list (usb.ids, www.linux-usb.org/usb.ids, version
// 2026.06.10 as mirrored in github.com/usbids/usbids; the usbutils and hwdata
// packages ship it as /usr/share/misc/usb.ids). A row names the chip only
// where usb.ids does; `product` is usb.ids's text for the ID.
#pragma once

#include <span>
#include <string_view>

namespace mmc::dev {

struct ReaderChip {
    std::string_view vid;     // "05e3", lower-case hex as sysfs idVendor prints it
    std::string_view pid;     // "0723"
    std::string_view vendor;  // "Genesys Logic"
    std::string_view chip;    // "GL827L"; empty when usb.ids names none
    std::string_view product; // usb.ids: "GL827L SD/MMC/MS Flash Card Reader"
    bool mmc_host = false;    // bound to rtsx_usb, it exposes an MMC host: the card is mmcblk
};

std::span<const ReaderChip> reader_chips();
// The row of a USB ID (as sysfs prints it, any case); nullptr when none.
const ReaderChip* find_reader_chip(std::string_view vid, std::string_view pid);

} // namespace mmc::dev
