#include "views/device_view.h"

#include "cli/printable.h"
#include "cli/size.h"
#include "cli/text_table.h"
#include "regs/register_facts.h"
#include "regs/units.h"

#include <fmt/format.h>

namespace mmc::out {

namespace {

std::string rca_text(uint16_t rca) { return fmt::format("0x{:04x}", rca); }

nlohmann::ordered_json controller_json(const dev::Controller& c)
{
    nlohmann::ordered_json j;
    j["device"] = c.device;
    j["driver"] = c.driver;
    if (!c.pci_id.empty()) j["pci_id"] = c.pci_id;
    if (!c.compatible.empty()) j["compatible"] = c.compatible;
    return j;
}

nlohmann::ordered_json partitions_json(const dev::Card& card)
{
    auto parts = nlohmann::ordered_json::array();
    for (const auto& p : card.partitions)
        parts.push_back({{"name", p.name}, {"start_sector", p.start_sector}, {"bytes", p.bytes},
                         {"boot_area", p.boot_area}, {"read_only", p.read_only}});
    return parts;
}

nlohmann::ordered_json ios_json(const dev::Host& host)
{
    if (!host.ios) return nullptr;
    const auto& i = *host.ios;
    nlohmann::ordered_json j;
    j["clock_hz"] = i.clock_hz ? nlohmann::ordered_json(*i.clock_hz) : nullptr;
    j["actual_clock_hz"] = i.actual_clock_hz ? nlohmann::ordered_json(*i.actual_clock_hz) : nullptr;
    j["bus_width_bits"] = i.bus_width_bits ? nlohmann::ordered_json(*i.bus_width_bits) : nullptr;
    j["timing"] = i.timing;
    j["signal_voltage_v"] = i.signal_voltage_v ? nlohmann::ordered_json(*i.signal_voltage_v) : nullptr;
    j["power"] = i.power_text;
    return j;
}

// What the list and the device view say around the identity: the bus state
// and the partitions.
nlohmann::ordered_json slot_json(const dev::Card& c)
{
    nlohmann::ordered_json j;
    j["ios"] = ios_json(c.host);
    j["host_controller"] = controller_json(c.host.controller);
    j["partitions"] = partitions_json(c);
    return j;
}

} // namespace

std::string bus_mode_text(const dev::Host& host)
{
    if (!host.ios) return "unknown (no debugfs)";
    const auto& i = *host.ios;
    if (i.powered_off()) return "powered off";
    const auto clock = i.actual_clock_hz ? i.actual_clock_hz : i.clock_hz;
    return fmt::format("{}, {} bits, {}", i.timing.empty() ? "?" : i.timing, i.bus_width_bits.value_or(0),
                       clock ? regs::hertz_text(static_cast<double>(*clock)) : "? Hz");
}

std::string card_list_text(const std::vector<dev::Card>& cards, const dev::SysRoots& roots)
{
    if (cards.empty()) return "No MMC/SD cards found.\n";
    cli::TextTable t;
    t.header = {"DEVICE", "CARD", "TYPE", "NAME", "CAPACITY", "BUS", "CONTROLLER"};
    t.right_aligned.assign(t.header.size(), false);
    for (const auto& c : cards)
        t.rows.push_back({c.is_storage() ? c.device_path(roots) : "-", c.name, std::string(dev::to_string(c.type)),
                          c.product.empty() ? "-" : cli::printable(c.product),
                          c.capacity_bytes ? cli::format_bytes(c.capacity_bytes) : "-",
                          bus_mode_text(c.host), c.host.controller.describe()});
    return cli::render_table(t, 0);
}

nlohmann::ordered_json card_list_json(const std::vector<dev::Card>& cards, const dev::SysRoots& roots)
{
    auto list = nlohmann::ordered_json::array();
    for (const auto& c : cards) {
        nlohmann::ordered_json j;
        j["card"] = dev::identity_json(dev::identity_of(c, nullptr, roots));
        j["bus"] = bus_mode_text(c.host);
        j.update(slot_json(c));
        list.push_back(j);
    }
    return list;
}


std::string device_text(const dev::Card& card, const dev::SysRoots& roots, const dev::RegisterGathering& gathered,
                        const regs::CardRegisters& regs, const TextStyle& style)
{
    std::string out;
    out += fmt::format("{:<16} {}\n", "Device:", card.is_storage() ? card.device_path(roots) : "(no block device)");
    out += fmt::format("{:<16} {} on {}, RCA {}, {}\n", "Slot:", card.name, card.host.name, rca_text(card.rca),
                       dev::to_string(card.type));
    out += fmt::format("{:<16} {}\n", "Controller:", card.host.controller.describe());
    out += fmt::format("{:<16} {}\n", "Bus:", bus_mode_text(card.host));
    for (const auto& p : card.partitions)
        out += fmt::format("{:<16} {} {}{}\n", p.boot_area ? "Boot area:" : "Partition:", p.name, cli::format_bytes_exact(p.bytes),
                           p.read_only ? " (read-only)" : "");
    // The RPMB is a character device, not among the block partitions above.
    if (const auto ext_csd = regs::ext_csd_facts(regs); ext_csd && ext_csd->rpmb_bytes)
        out += fmt::format("{:<16} {}rpmb {}\n", "RPMB:", card.block, cli::format_bytes_exact(ext_csd->rpmb_bytes));
    for (const auto& n : gathered.notes) out += fmt::format("{:<16} {}\n", "Note:", n);
    out += card_text(regs, style);
    return out;
}

nlohmann::ordered_json device_json(const dev::Identified& id)
{
    nlohmann::ordered_json j;
    j["card"] = dev::identity_json(id.identity);
    j.update(slot_json(id.card));
    j["notes"] = id.gathered.notes;
    j.update(card_json(id.registers));
    return j;
}

} // namespace mmc::out
