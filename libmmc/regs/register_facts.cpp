#include "regs/register_facts.h"

#include <fmt/format.h>
#include <stdexcept>
#include <variant>

namespace mmc::regs {

namespace {

void expect_kind(const DecodedRegister& r, RegKind kind)
{
    if (r.kind != kind)
        throw std::invalid_argument(fmt::format("{} facts asked of a {} register", to_string(kind), to_string(r.kind)));
}

// A field every layout of the register has: its absence is a bug in the
// table (or in the name here), never a card's doing.
uint64_t required(const DecodedRegister& r, std::string_view name)
{
    const Field* f = r.field(name);
    if (!f) throw std::logic_error(fmt::format("{} has no field {}", to_string(r.kind), name));
    return f->raw;
}

// A field only some layouts have (SD but not MMC): 0 where it is absent.
uint64_t layout_field(const DecodedRegister& r, std::string_view name)
{
    const Field* f = r.field(name);
    return f ? f->raw : 0;
}

// A decoded value as plain text, empty when the decoder gave none.
std::string value_of(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    return d ? value_text(d->value) : std::string();
}

// A decoded value as the decoder words it for a person, empty when absent.
std::string text_of(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    return d ? d->text : std::string();
}

int64_t int_of(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    if (!d) return 0;
    if (const auto* i = std::get_if<int64_t>(&d->value)) return *i;
    if (const auto* b = std::get_if<bool>(&d->value)) return *b ? 1 : 0;
    return 0;
}

ClassClaim class_claim(const DecodedRegister& ssr, std::string_view name)
{
    return {static_cast<uint8_t>(required(ssr, name)), value_of(ssr, name)};
}

template <class Facts>
std::optional<Facts> of(const CardRegisters& regs, RegKind kind, Facts (*read)(const DecodedRegister&))
{
    const DecodedRegister* r = regs.get(kind);
    return r ? std::optional<Facts>(read(*r)) : std::nullopt;
}

} // namespace

CidFacts cid_facts(const DecodedRegister& cid)
{
    expect_kind(cid, RegKind::cid);
    CidFacts f;
    f.mid = static_cast<uint8_t>(required(cid, "mid"));
    f.oid = static_cast<uint16_t>(required(cid, "oid"));
    const Field* pnm = cid.field("pnm");
    if (pnm && pnm->text) f.pnm = *pnm->text;
    f.product_name = value_of(cid, "product_name");
    f.manufacturer = value_of(cid, "manufacturer");
    f.serial_hex = value_of(cid, "serial_hex");
    f.date = value_of(cid, "date");
    return f;
}

CsdFacts csd_facts(const DecodedRegister& csd)
{
    expect_kind(csd, RegKind::csd);
    CsdFacts f;
    f.csd_structure = static_cast<uint8_t>(required(csd, "csd_structure"));
    f.ccc = static_cast<uint16_t>(required(csd, "ccc"));
    f.erase_class = (f.ccc >> 5) & 1;
    f.taac_ns = int_of(csd, "taac_ns");
    f.r2w_factor = static_cast<uint8_t>(required(csd, "r2w_factor"));
    f.perm_write_protect = required(csd, "perm_write_protect") != 0;
    f.tmp_write_protect = required(csd, "tmp_write_protect") != 0;
    if (const int64_t bytes = int_of(csd, "erase_sector_bytes"); bytes > 0) f.erase_sector_bytes = static_cast<uint64_t>(bytes);
    f.capacity_text = text_of(csd, "capacity_bytes");
    f.capacity_class = text_of(csd, "capacity_class");
    return f;
}

ScrFacts scr_facts(const DecodedRegister& scr)
{
    expect_kind(scr, RegKind::scr);
    return {text_of(scr, "spec_version")};
}

OcrFacts ocr_facts(const DecodedRegister& ocr)
{
    expect_kind(ocr, RegKind::ocr);
    return {required(ocr, "busy") != 0, layout_field(ocr, "s18a") != 0};
}

SsrFacts ssr_facts(const DecodedRegister& ssr)
{
    expect_kind(ssr, RegKind::ssr);
    SsrFacts f;
    f.speed_class = class_claim(ssr, "speed_class");
    f.uhs_speed_grade = class_claim(ssr, "uhs_speed_grade");
    f.video_speed_class = class_claim(ssr, "video_speed_class");
    f.app_perf_class = class_claim(ssr, "app_perf_class");
    f.speed_class_mb_s = int_of(ssr, "speed_class_mb_s");
    f.au_text = text_of(ssr, "au_size_bytes");
    f.discard_support = required(ssr, "discard_support") != 0;
    f.fule_support = required(ssr, "fule_support") != 0;
    f.cache_support = int_of(ssr, "perf_enh_cache_support") != 0;
    f.cq_depth = static_cast<int>(int_of(ssr, "perf_enh_cq_depth"));
    return f;
}

SwitchFacts switch_facts(const DecodedRegister& switch_status)
{
    expect_kind(switch_status, RegKind::switch_status);
    return {static_cast<uint16_t>(required(switch_status, "fun_grp1_support"))};
}

StatusFacts status_facts(const DecodedRegister& status)
{
    expect_kind(status, RegKind::status);
    StatusFacts f;
    f.card_is_locked = required(status, "card_is_locked") != 0;
    if (const Derived* d = status.find("errors"))
        if (const auto* list = std::get_if<StringList>(&d->value)) f.errors = *list;
    return f;
}

ExtCsdFacts ext_csd_facts(const DecodedRegister& ext_csd)
{
    expect_kind(ext_csd, RegKind::ext_csd);
    const DecodedRegister& r = ext_csd;
    auto byte = [&r](std::string_view name) { return static_cast<uint8_t>(required(r, name)); };
    ExtCsdFacts f;
    f.ext_csd_rev = byte("ext_csd_rev");
    f.mmc_version = text_of(r, "mmc_version");
    f.capacity_text = text_of(r, "capacity_bytes");
    f.sec_feature_support = byte("sec_feature_support");
    f.erase_group_def = byte("erase_group_def") & 1;
    f.erase_timeout_mult = byte("erase_timeout_mult");
    f.trim_mult = byte("trim_mult");
    f.sec_erase_mult = byte("sec_erase_mult");
    f.sec_trim_mult = byte("sec_trim_mult");
    f.device_type = byte("device_type");
    f.strobe_support = byte("strobe_support") != 0;
    f.boot_wp_status = byte("boot_wp_status");
    f.user_wp = byte("user_wp");
    f.rpmb_bytes = uint64_t{byte("rpmb_size_mult")} * 128 * 1024;
    f.life.typ_a = byte("device_life_time_est_typ_a");
    f.life.typ_b = byte("device_life_time_est_typ_b");
    f.life.pre_eol = byte("pre_eol_info");
    f.life.typ_a_text = text_of(r, "device_life_time_est_typ_a_text");
    f.life.typ_b_text = text_of(r, "device_life_time_est_typ_b_text");
    f.life.pre_eol_text = text_of(r, "pre_eol_text");
    return f;
}

std::optional<CidFacts> cid_facts(const CardRegisters& regs) { return of<CidFacts>(regs, RegKind::cid, cid_facts); }
std::optional<CsdFacts> csd_facts(const CardRegisters& regs) { return of<CsdFacts>(regs, RegKind::csd, csd_facts); }
std::optional<ScrFacts> scr_facts(const CardRegisters& regs) { return of<ScrFacts>(regs, RegKind::scr, scr_facts); }
std::optional<OcrFacts> ocr_facts(const CardRegisters& regs) { return of<OcrFacts>(regs, RegKind::ocr, ocr_facts); }
std::optional<SsrFacts> ssr_facts(const CardRegisters& regs) { return of<SsrFacts>(regs, RegKind::ssr, ssr_facts); }
std::optional<SwitchFacts> switch_facts(const CardRegisters& regs)
{
    return of<SwitchFacts>(regs, RegKind::switch_status, switch_facts);
}
std::optional<StatusFacts> status_facts(const CardRegisters& regs)
{
    return of<StatusFacts>(regs, RegKind::status, status_facts);
}
std::optional<ExtCsdFacts> ext_csd_facts(const CardRegisters& regs)
{
    return of<ExtCsdFacts>(regs, RegKind::ext_csd, ext_csd_facts);
}

} // namespace mmc::regs
