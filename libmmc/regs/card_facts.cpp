#include "regs/card_facts.h"

#include <variant>

namespace mmc::regs {

std::optional<uint64_t> field_value(const DecodedRegister* r, std::string_view name)
{
    const auto* f = r ? r->field(name) : nullptr;
    return f ? std::optional<uint64_t>(f->raw) : std::nullopt;
}

std::optional<int64_t> derived_int(const DecodedRegister* r, std::string_view key)
{
    const auto* d = r ? r->find(key) : nullptr;
    if (!d) return std::nullopt;
    if (const auto* i = std::get_if<int64_t>(&d->value)) return *i;
    if (const auto* b = std::get_if<bool>(&d->value)) return *b ? 1 : 0;
    return std::nullopt;
}

std::optional<uint64_t> derived_positive(const DecodedRegister* r, std::string_view key)
{
    const auto* d = r ? r->find(key) : nullptr;
    if (!d) return std::nullopt;
    if (const auto* i = std::get_if<int64_t>(&d->value); i && *i > 0) return static_cast<uint64_t>(*i);
    return std::nullopt;
}

std::optional<uint64_t> au_bytes(const CardRegisters& regs)
{
    return derived_positive(regs.get(RegKind::ssr), "au_size_bytes");
}

std::optional<uint8_t> erased_byte(const CardRegisters& regs)
{
    const auto bit = regs.card == CardFamily::sd ? field_value(regs.get(RegKind::scr), "data_stat_after_erase")
                                                 : field_value(regs.get(RegKind::ext_csd), "erased_mem_cont");
    if (!bit) return std::nullopt;
    return *bit ? uint8_t{0xff} : uint8_t{0x00};
}

std::optional<uint64_t> csd_erase_group_bytes(const CardRegisters& regs)
{
    const auto* csd = regs.get(RegKind::csd);
    const auto blocks = derived_positive(csd, "erase_group_size_blocks");
    if (!blocks) return std::nullopt;
    return *blocks * derived_positive(csd, "write_block_bytes").value_or(512);
}

std::optional<uint64_t> hc_erase_group_bytes(const CardRegisters& regs)
{
    const auto units = field_value(regs.get(RegKind::ext_csd), "hc_erase_grp_size");
    if (!units || !*units) return std::nullopt;
    return *units * 512 * 1024;
}

std::optional<EraseGroup> erase_group_in_use(const EraseGroupRegisters& r)
{
    constexpr std::string_view hc = "EXT_CSD HC_ERASE_GRP_SIZE", csd = "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT";
    if (r.hc_bytes && (r.hc_in_use || !r.csd_bytes)) return EraseGroup{r.hc_bytes, hc};
    if (r.csd_bytes) return EraseGroup{r.csd_bytes, csd};
    return std::nullopt;
}

std::optional<EraseGroup> erase_group(const CardRegisters& regs)
{
    const auto def = field_value(regs.get(RegKind::ext_csd), "erase_group_def");
    return erase_group_in_use({hc_erase_group_bytes(regs).value_or(0), def && (*def & 1),
                               csd_erase_group_bytes(regs).value_or(0)});
}

std::optional<uint64_t> erase_group_bytes(const CardRegisters& regs)
{
    const auto group = erase_group(regs);
    return group ? std::optional<uint64_t>(group->bytes) : std::nullopt;
}

std::optional<uint64_t> capacity_bytes(const CardRegisters& regs)
{
    if (const auto ext = derived_positive(regs.get(RegKind::ext_csd), "capacity_bytes")) return ext;
    return derived_positive(regs.get(RegKind::csd), "capacity_bytes");
}

} // namespace mmc::regs
