#include "dev/usb_storage.h"

#include "bus/parse_text.h"
#include "dev/sysfs_ancestor.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <regex>

namespace mmc::dev {

namespace {

std::string usb_trimmed(std::string_view s) { return std::string(bus::trim_space(s)); }

std::string usb_attr(const fs::path& p) { return usb_trimmed(read_attr(p).value_or("")); }

int interface_byte(const fs::path& p)
{
    const std::string s = usb_attr(p);
    int v = -1;
    if (std::from_chars(s.data(), s.data() + s.size(), v, 16).ec != std::errc()) return -1;
    return v;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// USB device directories are named BUS-PORT[.PORT...]; their interfaces
// BUS-PORT...:CONFIG.INTERFACE (Documentation/ABI/stable/sysfs-bus-usb).
const std::regex& usb_interface_name() { static const std::regex re(R"(\d+-[\d.]+:\d+\.\d+)"); return re; }

std::optional<fs::path> usb_interface_of(const fs::path& p) { return last_ancestor_named(p, usb_interface_name()); }

// The flash kinds of udev's ID_DRIVE_FLASH_<KIND>=1 (prefix "ID_DRIVE_FLASH_")
// or ID_DRIVE_MEDIA_FLASH_<KIND>=1.
std::vector<std::string> flash_kinds(const std::map<std::string, std::string>& props, std::string_view prefix)
{
    std::vector<std::string> out;
    for (const auto& [key, value] : props)
        if (key.rfind(prefix, 0) == 0 && key.size() > prefix.size() && value == "1") out.push_back(key.substr(prefix.size()));
    return out;
}

std::string joined(const std::vector<std::string>& items, std::string_view sep)
{
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : std::string(sep)) + i;
    return out;
}

void recognise(UsbStorage& u)
{
    if (u.chip)
        u.basis.push_back(fmt::format("USB ID {} is a card reader in mmckit's table (usb.ids: \"{}\")", u.usb_id(), u.chip->product));
    if (!u.flash_slots.empty()) {
        std::vector<std::string> keys;
        for (const auto& k : u.flash_slots) keys.push_back("ID_DRIVE_FLASH_" + k);
        u.basis.push_back(fmt::format("udev tags the drive a flash-media reader ({})", joined(keys, ", ")));
    }
    if (names_a_reader(u.scsi_model)) u.basis.push_back(fmt::format("its SCSI model \"{}\" names a card reader", u.scsi_model));
    else if (names_a_reader(u.product)) u.basis.push_back(fmt::format("its USB product \"{}\" names a card reader", u.product));
    u.reader = !u.basis.empty();
}

// Whether a SCSI model names SD as a word ("SD/MMC", "microSD Reader"),
// not as letters inside another ("SSD").
bool names_sd(std::string_view model)
{
    std::string word;
    const std::string m = lower(model) + " ";
    for (const char c : m) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += c;
            continue;
        }
        if (word == "sd" || word == "microsd" || word == "sdhc" || word == "sdxc") return true;
        word.clear();
    }
    return false;
}

// "SD card", when udev or the slot's own name says the slot takes SD cards
// and nothing says otherwise; else "card".
std::string card_kind(const UsbStorage& u)
{
    const auto has = [](const std::vector<std::string>& v, std::string_view k) { return std::find(v.begin(), v.end(), k) != v.end(); };
    if (!u.flash_media.empty()) return has(u.flash_media, "SD") ? "SD card" : u.flash_media.front() + " card";
    if (has(u.flash_slots, "SD") || names_sd(u.scsi_model)) return "SD card";
    return "card";
}

// "Genesys Logic GL827L, usb-storage": the reader and what drives it.
std::string reader_and_driver(const UsbStorage& u)
{
    return fmt::format("{}, {}", u.model(), u.driver.empty() ? std::string(bus::to_string(u.transport())) : u.driver);
}

} // namespace

bus::UsbTransport UsbStorage::transport() const
{
    if (driver == "uas" || interface_protocol == 0x62) return bus::UsbTransport::uas;
    if (driver == "usb-storage" || interface_protocol == 0x50) return bus::UsbTransport::bulk_only;
    return bus::UsbTransport::unknown;
}

std::string UsbStorage::link() const { return speed_mbit ? bus::usb_generation(*speed_mbit) : "USB"; }

std::string UsbStorage::usb_id() const { return vid + ":" + pid; }

std::string UsbStorage::model() const
{
    if (chip) return fmt::format("{} {}", chip->vendor, chip->chip.empty() ? chip->product : chip->chip);
    const std::string usb = usb_trimmed(manufacturer + " " + product);
    if (!usb.empty()) return usb;
    const std::string scsi = usb_trimmed(scsi_vendor + " " + scsi_model);
    return scsi.empty() ? usb_id() : scsi;
}

std::map<std::string, std::string> parse_udev_properties(std::string_view text)
{
    std::map<std::string, std::string> out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (line.size() < 3 || line.substr(0, 2) != "E:") continue;
        const auto eq = line.find('=', 2);
        if (eq == std::string_view::npos || eq == 2) continue;
        out[std::string(line.substr(2, eq - 2))] = std::string(line.substr(eq + 1));
    }
    return out;
}

bool names_a_reader(std::string_view text)
{
    const std::string t = lower(text);
    for (const std::string_view word : {"sd/mmc", "card reader", "cardreader", "card-reader", "multi-card", "multicard",
                                        "multi card", "ms/ms-pro", "xd-picture", "sm/xd", "cf/sd", "sd/ms"})
        if (t.find(word) != std::string::npos) return true;
    return false;
}

std::optional<UsbStorage> read_usb_storage(const fs::path& disk_syspath, const SysRoots& roots)
{
    const auto intf = usb_interface_of(disk_syspath);
    if (!intf) return std::nullopt;
    UsbStorage u;
    u.disk = disk_syspath.filename().string();
    u.interface = *intf;
    u.usb_device = intf->parent_path();
    u.vid = lower(usb_attr(u.usb_device / "idVendor"));
    u.pid = lower(usb_attr(u.usb_device / "idProduct"));
    u.manufacturer = usb_attr(u.usb_device / "manufacturer");
    u.product = usb_attr(u.usb_device / "product");
    double speed = 0;
    const std::string speed_text = usb_attr(u.usb_device / "speed");
    if (!speed_text.empty() && std::from_chars(speed_text.data(), speed_text.data() + speed_text.size(), speed).ec == std::errc())
        u.speed_mbit = speed;
    u.interface_class = interface_byte(u.interface / "bInterfaceClass");
    u.interface_protocol = interface_byte(u.interface / "bInterfaceProtocol");
    u.driver = link_name(u.interface / "driver").value_or("");
    // The SCSI device is the block directory's grandparent: 6:0:0:0/block/sdb.
    const fs::path scsi = disk_syspath.parent_path().parent_path();
    u.scsi_vendor = usb_attr(scsi / "vendor");
    u.scsi_model = usb_attr(scsi / "model");
    u.removable = usb_attr(disk_syspath / "removable") == "1";
    u.medium_present = usb_attr(disk_syspath / "size") != "0";
    if (const auto devno = read_attr(disk_syspath / "dev")) {
        const auto props = parse_udev_properties(read_attr(roots.udev_data_dir() / ("b" + usb_trimmed(*devno))).value_or(""));
        u.flash_slots = flash_kinds(props, "ID_DRIVE_FLASH_");
        u.flash_media = flash_kinds(props, "ID_DRIVE_MEDIA_FLASH_");
    }
    u.chip = find_reader_chip(u.vid, u.pid);
    recognise(u);
    return u;
}

std::string usb_disk_words(const UsbStorage& u)
{
    const std::string what = u.interface_class == 8 || u.interface_class < 0 ? "USB disk" : "USB device";
    return fmt::format("{}, not a card reader ({}, {}, {}, {})", what, u.model(), u.usb_id(), u.link(),
                       u.driver.empty() ? "no driver" : u.driver);
}

std::string describe_usb(const UsbStorage& u)
{
    const std::string how = reader_and_driver(u);
    if (!u.reader) return fmt::format("{}: {}", u.disk, usb_disk_words(u));
    if (!u.medium_present)
        return fmt::format("{}: empty slot of a {} reader ({}): no card in the reader", u.disk, u.link(), how);
    return fmt::format("{}: {} in a {} reader ({})", u.disk, card_kind(u), u.link(), how);
}

std::string reader_words(const UsbStorage& u) { return fmt::format("a {} reader ({})", u.link(), reader_and_driver(u)); }

std::string reader_card_words(const UsbStorage& u)
{
    const std::string kind = card_kind(u);
    return fmt::format("{} {} in {}", kind.rfind("SD", 0) == 0 ? "an" : "a", kind, reader_words(u));
}

} // namespace mmc::dev
