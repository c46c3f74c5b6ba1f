#include "views/reader_view.h"

#include "bench/quick_read.h"
#include "cli/size.h"

#include <fmt/format.h>
#include <system_error>

namespace mmc::out {

namespace {

nlohmann::ordered_json figure_json(const std::optional<bus::SourcedFigure>& f)
{
    if (!f) return nullptr;
    return {{"mb_s", f->mb_s}, {"source", f->source}};
}

} // namespace

std::string registers_through_reader()
{
    return "not readable through this reader: USB mass storage carries SCSI commands, not the SD commands that read "
           "CID, CSD, SCR and SSR. An SD slot on an MMC host reads them (the card appears as mmcblk); readers built on "
           "rtsx_usb (Realtek 0bda:0129, 0bda:0139, 0bda:0140) expose an MMC host and get everything.";
}

std::string reader_text(const dev::UsbStorage& u, uint64_t capacity)
{
    std::string out = dev::describe_usb(u) + "\n";
    out += fmt::format("  {:<12} {} ({}), {}\n", "Reader:", u.model(), u.usb_id(), bus::to_string(u.transport()));
    for (const auto& b : u.basis) out += fmt::format("  {:<12} {}\n", "Recognised:", b);
    out += fmt::format("  {:<12} {}\n", "Link:", u.speed_mbit ? usb_ceiling(*u.speed_mbit, u.transport()).link : "speed unknown");
    out += fmt::format("  {:<12} {}\n", "Capacity:", u.medium_present ? cli::format_bytes(capacity) : "no card in the reader");
    if (u.medium_present) out += fmt::format("  {:<12} {}\n", "Registers:", registers_through_reader());
    if (u.chip && u.chip->mmc_host)
        out += fmt::format("  {:<12} this reader ({}) is one the kernel's rtsx_usb driver serves: bound to rtsx_usb instead of "
                           "{} (modules rtsx_usb and rtsx_usb_sdmmc), the card appears as mmcblk with its registers\n", "Try:", u.usb_id(), u.driver.empty() ? "usb-storage" : u.driver);
    return out;
}

nlohmann::ordered_json reader_json(const dev::UsbStorage& u, uint64_t capacity)
{
    nlohmann::ordered_json j;
    j["disk"] = u.disk;
    j["description"] = dev::describe_usb(u);
    j["usb_id"] = u.usb_id();
    j["model"] = u.model();
    j["manufacturer"] = u.manufacturer;
    j["product"] = u.product;
    j["scsi_vendor"] = u.scsi_vendor;
    j["scsi_model"] = u.scsi_model;
    j["driver"] = u.driver;
    j["transport"] = bus::to_string(u.transport());
    j["speed_mbit"] = u.speed_mbit ? nlohmann::ordered_json(*u.speed_mbit) : nlohmann::ordered_json(nullptr);
    j["link"] = u.link();
    j["removable"] = u.removable;
    j["card_present"] = u.medium_present;
    j["capacity_bytes"] = capacity;
    j["flash_slots"] = u.flash_slots;
    j["basis"] = u.basis;
    j["registers_unreadable"] = registers_through_reader();
    return j;
}

ReaderBusReport reader_bus_report(const dev::UsbStorage& usb, const std::string& disk_path, double measure_s)
{
    ReaderBusReport r{bus::diagnose_reader({usb.disk, usb.model(), usb.speed_mbit, usb.transport(), usb.medium_present}),
                      std::nullopt, {}};
    if (measure_s <= 0) return r;
    if (!usb.medium_present) {
        r.measure_error = "no card in the reader";
        return r;
    }
    try {
        r.measured_mb_s = bench::quick_read(disk_path, measure_s).mb_s;
    } catch (const std::system_error& e) {
        r.measure_error = e.what();
    }
    return r;
}

nlohmann::ordered_json reader_record_json(const dev::UsbStorage& u)
{
    nlohmann::ordered_json j;
    j["chip"] = u.model();
    j["usb_id"] = u.usb_id();
    j["driver"] = u.driver.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(u.driver);
    j["transport"] = bus::to_string(u.transport());
    j["speed_mbit"] = u.speed_mbit ? nlohmann::ordered_json(*u.speed_mbit) : nlohmann::ordered_json(nullptr);
    j["link"] = u.link();
    const auto c = u.speed_mbit ? std::optional(bus::usb_ceiling(*u.speed_mbit, u.transport())) : std::nullopt;
    const auto& figure = c && c->practical ? c->practical : c ? c->raw : std::nullopt;
    j["ceiling_mb_s"] = figure ? nlohmann::ordered_json(figure->mb_s) : nlohmann::ordered_json(nullptr);
    j["ceiling_source"] = figure ? nlohmann::ordered_json(figure->source) : nlohmann::ordered_json(nullptr);
    return j;
}

std::string reader_bus_text(const ReaderBusReport& r)
{
    const auto& d = r.diagnosis;
    std::string out = fmt::format("{}  card in a USB reader, {}\n", d.disk, d.reader);
    out += fmt::format("  {:<12} {}, {}\n", "Link:", d.ceiling.link, bus::to_string(d.transport));
    if (d.ceiling.raw) out += fmt::format("  {:<12} {:.4g} MB/s raw ({})\n", "Ceiling:", d.ceiling.raw->mb_s, d.ceiling.raw->source);
    if (d.ceiling.practical)
        out += fmt::format("  {:<12} about {:.4g} MB/s in practice ({})\n", "", d.ceiling.practical->mb_s, d.ceiling.practical->source);
    out += fmt::format("  {:<12} {}\n", "Cause:", bus::to_string(d.limit));
    out += fmt::format("  {:<12} {}\n", "Verdict:", d.verdict);
    for (const auto& n : d.notes) out += fmt::format("  {:<12} {}\n", "Note:", n);
    if (r.measured_mb_s) {
        const auto cap = d.ceiling.ceiling_mb_s();
        const std::string share = cap && *cap > 0 ? fmt::format(" ({:.0f}% of the ceiling)", 100.0 * *r.measured_mb_s / *cap) : "";
        out += fmt::format("  {:<12} {:.4g} MB/s sequential read{}\n", "Measured:", *r.measured_mb_s, share);
    } else if (!r.measure_error.empty()) {
        out += fmt::format("  {:<12} no figure: {}\n", "Measured:", r.measure_error);
    }
    return out;
}

nlohmann::ordered_json reader_bus_json(const ReaderBusReport& r)
{
    const auto& d = r.diagnosis;
    nlohmann::ordered_json j;
    j["disk"] = d.disk;
    j["reader"] = d.reader;
    j["link"] = d.ceiling.link;
    j["transport"] = bus::to_string(d.transport);
    j["raw"] = figure_json(d.ceiling.raw);
    j["practical"] = figure_json(d.ceiling.practical);
    const auto cap = d.ceiling.ceiling_mb_s();
    j["ceiling_mb_s"] = cap ? nlohmann::ordered_json(*cap) : nlohmann::ordered_json(nullptr);
    j["limit"] = bus::to_string(d.limit);
    j["verdict"] = d.verdict;
    j["notes"] = d.notes;
    j["measured_mb_s"] = r.measured_mb_s ? nlohmann::ordered_json(*r.measured_mb_s) : nlohmann::ordered_json(nullptr);
    if (!r.measure_error.empty()) j["measure_error"] = r.measure_error;
    return j;
}

} // namespace mmc::out
