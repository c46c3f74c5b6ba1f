#include "dev/identify.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::dev {

namespace {

const regs::Derived* derived(const regs::DecodedRegister* r, std::string_view key)
{
    return r ? r->find(key) : nullptr;
}

std::string derived_text(const regs::DecodedRegister* r, std::string_view key)
{
    const auto* d = derived(r, key);
    if (!d) return {};
    if (const auto* s = std::get_if<std::string>(&d->value)) return *s;
    return regs::value_text(d->value);
}

std::optional<uint64_t> derived_bytes(const regs::DecodedRegister* r, std::string_view key)
{
    const auto* d = derived(r, key);
    if (!d) return std::nullopt;
    if (const auto* i = std::get_if<int64_t>(&d->value); i && *i > 0) return static_cast<uint64_t>(*i);
    return std::nullopt;
}

std::optional<uint64_t> field(const regs::DecodedRegister* r, std::string_view name)
{
    if (!r) return std::nullopt;
    const auto* f = r->field(name);
    return f ? std::optional<uint64_t>(f->raw) : std::nullopt;
}

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
    const auto* cid = registers ? registers->get(regs::RegKind::cid) : nullptr;
    id.product = derived_text(cid, "product_name");
    if (id.product.empty()) id.product = card.product;
    id.manufacturer = derived_text(cid, "manufacturer");
    id.serial = derived_text(cid, "serial_hex");
    id.date = derived_text(cid, "date");
    return id;
}

CardFacts facts_of(const Card& card, const RegisterGathering& gathered, const regs::CardRegisters& registers)
{
    CardFacts f;
    f.family = family_of(card.type);
    for (const auto& r : gathered.registers)
        if (r.kind == regs::RegKind::ssr) f.ssr_source = r.source;
    if (f.family == regs::CardFamily::sd) {
        if (const auto dse = field(registers.get(regs::RegKind::scr), "data_stat_after_erase"))
            f.erased_byte = *dse ? 0xff : 0x00;
        f.au_bytes = derived_bytes(registers.get(regs::RegKind::ssr), "au_size_bytes");
    } else if (f.family == regs::CardFamily::mmc) {
        const auto* ext = registers.get(regs::RegKind::ext_csd);
        if (const auto emc = field(ext, "erased_mem_cont")) f.erased_byte = *emc ? 0xff : 0x00;
        // JESD84-B51 7.4.72: HC_ERASE_GRP_SIZE counts 512 KiB units; it
        // applies when ERASE_GROUP_DEF is set (Linux sets it on every eMMC).
        if (const auto hc = field(ext, "hc_erase_grp_size"); hc && *hc) f.erase_group_bytes = *hc * 512 * 1024;
        if (!f.erase_group_bytes) {
            const auto* csd = registers.get(regs::RegKind::csd);
            const auto blocks = derived_bytes(csd, "erase_group_size_blocks");
            const auto block = derived_bytes(csd, "write_block_bytes");
            if (blocks) f.erase_group_bytes = *blocks * block.value_or(512);
        }
    }
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
