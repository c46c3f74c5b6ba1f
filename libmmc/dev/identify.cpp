#include "dev/identify.h"

#include "regs/card_facts.h"
#include "regs/register_facts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::dev {

namespace {

nlohmann::ordered_json text_or_null(const std::string& s)
{
    return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

} // namespace

Identity identity_of(const Card& card, const regs::CardRegisters* registers, const SysRoots& roots)
{
    Identity id;
    id.name = card.name;
    id.type = std::string(to_string(card.type));
    id.capacity_bytes = card.capacity_bytes;
    id.host = card.host.name;
    id.controller = card.host.controller.describe();
    id.device = card.is_storage() ? card.device_path(roots) : "";
    id.rca = card.rca;
    const auto cid = registers ? regs::cid_facts(*registers) : std::nullopt;
    if (cid) {
        id.product = cid->product_name;
        id.manufacturer = cid->manufacturer;
        id.serial = cid->serial_hex;
        id.date = cid->date;
    }
    if (id.product.empty()) id.product = card.product;
    return id;
}

CardFacts facts_of(const Card& card, const RegisterGathering& gathered, const regs::CardRegisters& registers)
{
    CardFacts f;
    f.family = family_of(card.type);
    for (const auto& r : gathered.registers)
        if (r.kind == regs::RegKind::ssr) f.ssr_source = r.source;
    f.erased_byte = regs::erased_byte(registers);
    if (f.family == regs::CardFamily::sd) f.au_bytes = regs::au_bytes(registers);
    if (f.family == regs::CardFamily::mmc) f.erase_group_bytes = regs::erase_group_bytes(registers);
    return f;
}

Identified identify(const Card& card, const SysRoots& roots, const SourceOptions& options)
{
    Identified id{card, gather_registers(card, roots, options), {}, {}, {}};
    if (const auto family = family_of(card.type)) {
        try {
            id.registers = regs::decode_card(*family, id.gathered.registers);
        } catch (const std::exception& e) {
            id.gathered.notes.push_back(std::string("registers: ") + e.what());
        }
    }
    id.identity = identity_of(card, &id.registers, roots);
    id.facts = facts_of(card, id.gathered, id.registers);
    return id;
}

std::optional<Identified> identify(const Device& device, const SysRoots& roots, const SourceOptions& options)
{
    if (!device.card) return std::nullopt;
    return identify(*device.card, roots, options);
}

nlohmann::ordered_json identity_json(const dev::Identity& id)
{
    nlohmann::ordered_json j;
    j["name"] = id.name;
    j["type"] = id.type;
    j["product"] = text_or_null(id.product);
    j["manufacturer"] = text_or_null(id.manufacturer);
    j["serial"] = text_or_null(id.serial);
    j["date"] = text_or_null(id.date);
    j["capacity_bytes"] = id.capacity_bytes;
    j["host"] = id.host;
    j["controller"] = text_or_null(id.controller);
    j["device"] = text_or_null(id.device);
    j["rca"] = fmt::format("0x{:04x}", id.rca);
    return j;
}

} // namespace mmc::dev
