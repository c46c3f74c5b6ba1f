#include "erase/device.h"

#include "dev/identify.h"
#include "regs/card_facts.h"
#include "regs/hex.h"
#include "regs/register_facts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace mmc::erase {

namespace fs = std::filesystem;

namespace {

// Raw card commands go through the channel the register gathering opened:
// say why they cannot, in the words a user can act on.
std::string commands_unavailable(const dev::RegisterGathering& g)
{
    if (g.commands_error == dev::commands_on_fixture) return "a fixture tree has no card to talk to";
    if (g.commands_error == dev::commands_off) return g.commands_error;
    const bool not_root = g.commands_errno == EPERM || g.commands_errno == EACCES;
    return fmt::format("CMD13 to the card failed ({}){}", g.commands_error,
                       not_root ? "; card commands need CAP_SYS_RAWIO (run as root)" : "");
}

} // namespace

void apply_registers(Capabilities& c, const regs::CardRegisters& regs, uint64_t capacity_bytes)
{
    const auto csd = regs::csd_facts(regs);
    c.erase_class = csd && csd->erase_class;
    if (c.family == regs::CardFamily::sd) {
        c.block_addressed = csd && csd->csd_structure != 0;
        c.erased_byte = regs::erased_byte(regs);
        if (const auto* ssr = regs.get(regs::RegKind::ssr)) {
            const auto facts = regs::ssr_facts(*ssr);
            c.ssr = *ssr;
            c.au_bytes = regs::au_bytes(regs).value_or(0);
            c.sd_discard_support = facts.discard_support;
            c.fule_support = facts.fule_support;
        }
        return;
    }
    // MMC: sector addressing above 2 GiB, as Linux decides it.
    c.block_addressed = regs::capacity_bytes(regs).value_or(capacity_bytes) > (uint64_t{2} << 30);
    c.csd_erase_group_bytes = regs::csd_erase_group_bytes(regs).value_or(0);
    if (csd) {
        const double ms = static_cast<double>(csd->taac_ns) * (10 << csd->r2w_factor) / 1e6;
        c.csd_write_timeout_ms = static_cast<uint32_t>(std::max(1.0, std::ceil(ms)));
    }
    const auto ext = regs::ext_csd_facts(regs);
    if (!ext) return;
    c.have_ext_csd = true;
    c.ext_csd_rev = ext->ext_csd_rev;
    c.sec_feature_support = ext->sec_feature_support;
    c.hc_erase_group_bytes = regs::hc_erase_group_bytes(regs).value_or(0);
    c.hc_erase_group_def = ext->erase_group_def;
    c.erase_timeout_mult = ext->erase_timeout_mult;
    c.trim_mult = ext->trim_mult;
    c.sec_erase_mult = ext->sec_erase_mult;
    c.sec_trim_mult = ext->sec_trim_mult;
    c.erased_byte = regs::erased_byte(regs);
}

Target erase_target(const dev::Device& d, const dev::Identified* id)
{
    Target t;
    t.name = d.name;
    t.path = d.path;
    t.is_partition = d.is_partition;
    t.disk = d.disk;
    t.disk_path = d.disk_path;
    t.size = d.size;
    t.disk_size = d.disk_size;
    t.start = d.start;
    t.siblings = d.siblings;

    auto& c = t.caps;
    c.name = d.name;
    c.logical_block = std::max<uint64_t>(512, d.queue.logical_block_size);
    c.discard_granularity = d.queue.discard_granularity;
    c.discard_max_bytes = d.queue.discard_max_bytes;
    c.discard_max_hw_bytes = d.queue.discard_max_hw_bytes;
    c.write_zeroes_max_bytes = d.queue.write_zeroes_max_bytes;

    if (!d.card && d.is_reader_slot()) {
        // A card in a USB reader: a card for safety, a SCSI disk for erase.
        c.kind = dev::reader_card_words(*d.usb);
        c.usb_reader = true;
        c.provisioning_mode = d.provisioning_mode;
        return t;
    }
    if (!d.card) {
        t.not_mmc = d.not_mmc;
        const std::string is = d.name + " is ";
        c.kind = t.not_mmc.rfind(is, 0) == 0 ? t.not_mmc.substr(is.size()) : "not on an MMC host";
        return t;
    }
    const dev::Card& card = *d.card;
    t.rca = card.rca;
    c.family = dev::family_of(card.type);
    c.kind = c.family == regs::CardFamily::sd    ? "an SD card"
             : c.family == regs::CardFamily::mmc ? "an eMMC"
                                                 : fmt::format("a {} card", dev::to_string(card.type));
    c.preferred_erase_bytes = card.preferred_erase_size;

    if (!id) {
        c.raw_unavailable = "the card was not identified";
        return t;
    }
    t.notes = id->gathered.notes;
    c.raw_channel = id->gathered.commands_work;
    if (!c.raw_channel) c.raw_unavailable = commands_unavailable(id->gathered);
    c.ssr_source = id->facts.ssr_source;
    apply_registers(c, id->registers, card.capacity_bytes);
    if (t.disk != card.block) {
        // An eMMC boot area is its own disk; raw addresses would land in the user area.
        c.raw_channel = false;
        c.raw_unavailable = fmt::format("{} is an eMMC boot area; raw erase commands would need a partition switch",
                                        t.disk);
    }
    t.card = id->identity;
    return t;
}

} // namespace mmc::erase
