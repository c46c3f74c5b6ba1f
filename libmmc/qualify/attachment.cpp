#include "qualify/attachment.h"

#include "dev/contents.h"
#include "views/reader_view.h"

#include <fmt/format.h>

namespace mmc::qualify {

Attachment attachment_of(const dev::Device& d)
{
    Attachment a;
    if (d.is_reader_slot()) {
        const auto& u = *d.usb;
        a.base = fmt::format("{} reader, {}", u.link(), u.driver.empty() ? std::string(bus::to_string(u.transport())) : u.driver);
        a.reader = out::reader_record_json(u);
    } else if (d.card) {
        a.base = "slot " + d.card->host.name;
        a.mmc_slot = true;
    } else {
        a.base = "block device " + d.disk;
    }
    if (d.disk_size) a.sectors = d.disk_size / 512;
    // The node the run opens, or its disk's: the table is at the disk's start.
    a.partition_table_id = dev::partition_table_id(d.is_partition ? d.disk_path : d.path);
    return a;
}

std::string attachment_text(const Attachment& a, const nlohmann::ordered_json& bus_host)
{
    if (!a.mmc_slot || !bus_host.is_object() || !bus_host.contains("ios") || !bus_host["ios"].is_object()) return a.base;
    const auto& ios = bus_host["ios"];
    std::string text = a.base;
    if (ios.contains("mode") && ios["mode"].is_string()) text += " " + ios["mode"].get<std::string>();
    if (ios.contains("bus_width_bits") && ios["bus_width_bits"].is_number_integer())
        text += fmt::format(" {}-bit", ios["bus_width_bits"].get<int>());
    return text;
}

} // namespace mmc::qualify
