#include "erase/device.h"

#include "dev/discovery.h"
#include "dev/identify.h"
#include "regs/card_facts.h"
#include "regs/hex.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace mmc::erase {

namespace fs = std::filesystem;

namespace {

uint64_t number(const std::optional<std::string>& text)
{
    uint64_t v = 0;
    if (text) std::from_chars(text->data(), text->data() + text->size(), v);
    return v;
}

// A field's raw value, 0 when the register or field is absent.
uint64_t field(const regs::DecodedRegister* r, std::string_view name) { return regs::field_value(r, name).value_or(0); }

// "/dev/mmcblk0" -> "mmcblk0"; other names unchanged.
std::string strip_dev(const std::string& name, const dev::SysRoots& roots)
{
    const std::string prefix = roots.dev.string() + "/";
    if (name.rfind(prefix, 0) == 0) return name.substr(prefix.size());
    if (name.rfind("/dev/", 0) == 0) return name.substr(5);
    return name;
}

// dev::resolve's messages start with the name; the tool prefixes the device.
std::string without_name(const std::string& message, const std::string& name)
{
    const std::string prefix = name + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

// Raw card commands go through the channel the register gathering opened:
// say why they cannot, in the words a user can act on.
std::string commands_unavailable(const dev::RegisterGathering& g)
{
    if (g.commands_error == "fixture tree") return "a fixture tree has no card to talk to";
    if (g.commands_error == dev::commands_off) return g.commands_error;
    const bool not_root = g.commands_errno == EPERM || g.commands_errno == EACCES;
    return fmt::format("CMD13 to the card failed ({}){}", g.commands_error,
                       not_root ? "; card commands need CAP_SYS_RAWIO (run as root)" : "");
}

} // namespace

void apply_registers(Capabilities& c, const regs::CardRegisters& regs, uint64_t capacity_bytes)
{
    const auto* csd = regs.get(regs::RegKind::csd);
    c.erase_class = (field(csd, "ccc") >> 5) & 1;
    if (c.family == regs::CardFamily::sd) {
        c.block_addressed = field(csd, "csd_structure") != 0;
        c.erased_byte = regs::erased_byte(regs);
        if (const auto* ssr = regs.get(regs::RegKind::ssr)) {
            c.ssr = *ssr;
            c.au_bytes = regs::au_bytes(regs).value_or(0);
            c.sd_discard_support = field(ssr, "discard_support") != 0;
            c.fule_support = field(ssr, "fule_support") != 0;
        }
        return;
    }
    // MMC: sector addressing above 2 GiB, as Linux decides it.
    const auto* ext = regs.get(regs::RegKind::ext_csd);
    c.block_addressed = regs::capacity_bytes(regs).value_or(capacity_bytes) > (uint64_t{2} << 30);
    c.csd_erase_group_bytes = regs::csd_erase_group_bytes(regs).value_or(0);
    if (csd) {
        const double ms = static_cast<double>(regs::derived_int(csd, "taac_ns").value_or(0)) * (10 << field(csd, "r2w_factor")) / 1e6;
        c.csd_write_timeout_ms = static_cast<uint32_t>(std::max(1.0, std::ceil(ms)));
    }
    if (!ext) return;
    c.have_ext_csd = true;
    c.ext_csd_rev = static_cast<int>(field(ext, "ext_csd_rev"));
    c.sec_feature_support = static_cast<uint8_t>(field(ext, "sec_feature_support"));
    c.hc_erase_group_bytes = regs::hc_erase_group_bytes(regs).value_or(0);
    c.hc_erase_group_def = field(ext, "erase_group_def") & 1;
    c.erase_timeout_mult = static_cast<uint32_t>(field(ext, "erase_timeout_mult"));
    c.trim_mult = static_cast<uint32_t>(field(ext, "trim_mult"));
    c.sec_erase_mult = static_cast<uint32_t>(field(ext, "sec_erase_mult"));
    c.sec_trim_mult = static_cast<uint32_t>(field(ext, "sec_trim_mult"));
    c.erased_byte = regs::erased_byte(regs);
}

Target find_target(const std::string& device, const TargetOptions& o)
{
    const auto& roots = o.roots;
    Target t;
    std::string name = strip_dev(device, roots);
    std::optional<dev::Target> mmc;
    std::error_code ec;

    // A name that is no block device (mmc0, mmc0:4567, a sysfs path) must be
    // an MMC host or card; its block device is the card's.
    if (name.find('/') != std::string::npos || !fs::exists(roots.sysfs / "class" / "block" / name, ec)) {
        try {
            mmc = dev::resolve(device, roots);
        } catch (const dev::ResolveError& e) {
            throw TargetError(e.why == dev::ResolveError::Why::not_mmc ? TargetError::Why::not_mmc
                                                                       : TargetError::Why::not_found,
                              without_name(e.what(), name));
        }
        if (!mmc->card || mmc->card->block.empty())
            throw TargetError(TargetError::Why::no_block, fmt::format("{}: the card has no block device", device));
        name = mmc->partition.empty() ? mmc->card->block : mmc->partition;
    }

    const fs::path dir = dev::resolve_path(roots.sysfs / "class" / "block" / name);
    t.name = name;
    t.path = (roots.dev / name).string();
    t.is_partition = fs::exists(dir / "partition", ec);
    const fs::path disk_dir = t.is_partition ? dir.parent_path() : dir;
    t.disk = disk_dir.filename().string();
    t.disk_path = (roots.dev / t.disk).string();
    t.size = number(dev::read_attr(dir / "size")) * 512;
    t.disk_size = number(dev::read_attr(disk_dir / "size")) * 512;
    t.start = t.is_partition ? number(dev::read_attr(dir / "start")) * 512 : 0;
    if (t.disk != t.name) t.siblings.push_back(t.disk);
    for (const auto& e : fs::directory_iterator(disk_dir, ec))
        if (fs::exists(e.path() / "partition", ec) && e.path().filename() != t.name)
            t.siblings.push_back(e.path().filename().string());

    auto& c = t.caps;
    c.name = name;
    const fs::path q = disk_dir / "queue";
    c.logical_block = std::max<uint64_t>(512, number(dev::read_attr(q / "logical_block_size")));
    c.discard_granularity = number(dev::read_attr(q / "discard_granularity"));
    c.discard_max_bytes = number(dev::read_attr(q / "discard_max_bytes"));
    c.discard_max_hw_bytes = number(dev::read_attr(q / "discard_max_hw_bytes"));
    c.write_zeroes_max_bytes = number(dev::read_attr(q / "write_zeroes_max_bytes"));

    if (!mmc) {
        try {
            mmc = dev::resolve(name, roots);
        } catch (const dev::ResolveError& e) {
            if (e.why != dev::ResolveError::Why::not_mmc)
                throw TargetError(TargetError::Why::not_found, without_name(e.what(), name));
            t.not_mmc = dev::explain_non_mmc(dir);
            const std::string is = name + " is ";
            c.kind = t.not_mmc.rfind(is, 0) == 0 ? t.not_mmc.substr(is.size()) : "not on an MMC host";
            if (!o.any_device) throw TargetError(TargetError::Why::not_mmc, "not an MMC/SD device: " + t.not_mmc);
            return t;
        }
    }
    const dev::Card& card = *mmc->card;
    t.rca = card.rca;
    c.family = dev::family_of(card.type);
    c.kind = c.family == regs::CardFamily::sd    ? "an SD card"
             : c.family == regs::CardFamily::mmc ? "an eMMC"
                                                 : fmt::format("a {} card", dev::to_string(card.type));
    c.preferred_erase_bytes = number(dev::card_attr(card, "preferred_erase_size"));

    const auto id = dev::identify(card, roots, {o.use_ioctl});
    t.notes = id.gathered.notes;
    c.raw_channel = id.gathered.commands_work;
    if (!c.raw_channel) c.raw_unavailable = commands_unavailable(id.gathered);
    c.ssr_source = id.facts.ssr_source;
    apply_registers(c, id.registers, card.capacity_bytes);
    if (t.disk != card.block) {
        // An eMMC boot area is its own disk; raw addresses would land in the user area.
        c.raw_channel = false;
        c.raw_unavailable = fmt::format("{} is an eMMC boot area; raw erase commands would need a partition switch",
                                        t.disk);
    }
    t.card = id.identity;
    return t;
}

} // namespace mmc::erase
