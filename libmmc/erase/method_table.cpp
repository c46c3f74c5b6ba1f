#include "erase/method_table.h"

#include <fmt/format.h>
#include <linux/fs.h>
#include <stdexcept>

namespace mmc::erase {

namespace {

std::string sec_text(const Capabilities& c) { return fmt::format("EXT_CSD SEC_FEATURE_SUPPORT is 0x{:02x}", c.sec_feature_support); }

// ---- what each method asks of the card or the block queue -------------------

std::optional<std::string> refuse_discard(const Capabilities& c, bool)
{
    if (c.discard_max_bytes == 0 && c.usb_reader) return reader_cannot_erase(c);
    if (c.discard_max_bytes == 0)
        return fmt::format("the block layer offers no discard for {} (queue/discard_max_bytes is 0); use zeroout",
                           c.name);
    return std::nullopt;
}

std::optional<std::string> refuse_secure(const Capabilities& c, bool)
{
    if (c.family == regs::CardFamily::sd)
        return fmt::format("SD cards have no secure erase: the kernel rejects BLKSECDISCARD on {}; use erase or "
                           "discard",
                           c.name);
    if (c.family == regs::CardFamily::mmc) {
        if (!c.have_ext_csd) return "EXT_CSD could not be read, so secure erase support is unknown";
        if (!(c.sec_feature_support & sec_er_en))
            return fmt::format("{}: SECURE_ER_EN (bit 0) is clear, so the device has no secure erase or secure "
                               "trim for BLKSECDISCARD",
                               sec_text(c));
    }
    if (c.discard_max_bytes == 0 && c.family)
        return fmt::format("the block layer offers no discard for {} (queue/discard_max_bytes is 0)", c.name);
    return std::nullopt;
}

std::optional<std::string> refuse_sd_discard(const Capabilities& c, bool)
{
    if (!c.ssr) return "the SD status (SSR) could not be read, so DISCARD_SUPPORT is unknown";
    if (!c.sd_discard_support) return "SSR DISCARD_SUPPORT is 0: the card does not support the DISCARD argument";
    return std::nullopt;
}

std::optional<std::string> refuse_fule(const Capabilities& c, bool whole_device)
{
    if (!c.ssr) return "the SD status (SSR) could not be read, so FULE_SUPPORT is unknown";
    if (!c.fule_support) return "SSR FULE_SUPPORT is 0: the card does not support full user area logical erase";
    if (!whole_device)
        return "FULE erases the whole user area; name the whole card, not a range of it";
    return std::nullopt;
}

std::optional<std::string> refuse_trim(const Capabilities& c, bool)
{
    if (!c.have_ext_csd) return "EXT_CSD could not be read, so TRIM support is unknown";
    if (!(c.sec_feature_support & sec_gb_cl_en))
        return fmt::format("{}: SEC_GB_CL_EN (bit 4) is clear, so the device does not support TRIM", sec_text(c));
    return std::nullopt;
}

std::optional<std::string> refuse_emmc_discard(const Capabilities& c, bool)
{
    if (!c.have_ext_csd) return "EXT_CSD could not be read, so DISCARD support is unknown";
    if (c.ext_csd_rev < 6)
        return fmt::format("EXT_CSD_REV is {}: DISCARD needs eMMC 4.5 (EXT_CSD_REV 6) or later", c.ext_csd_rev);
    return std::nullopt;
}

std::optional<std::string> refuse_secure_erase(const Capabilities& c, bool)
{
    if (!c.have_ext_csd) return "EXT_CSD could not be read, so secure erase support is unknown";
    if (!(c.sec_feature_support & sec_er_en))
        return fmt::format("{}: SECURE_ER_EN (bit 0) is clear, so the device does not support secure erase",
                           sec_text(c));
    return std::nullopt;
}

std::optional<std::string> refuse_secure_trim(const Capabilities& c, bool)
{
    if (!c.have_ext_csd) return "EXT_CSD could not be read, so secure trim support is unknown";
    if ((c.sec_feature_support & (sec_er_en | sec_gb_cl_en)) != (sec_er_en | sec_gb_cl_en))
        return fmt::format("{}: secure trim needs SECURE_ER_EN (bit 0) and SEC_GB_CL_EN (bit 4)", sec_text(c));
    return std::nullopt;
}

std::optional<std::string> refuse_sanitize(const Capabilities& c, bool)
{
    if (!c.have_ext_csd) return "EXT_CSD could not be read, so sanitize support is unknown";
    if (!(c.sec_feature_support & sec_sanitize))
        return fmt::format("{}: SEC_SANITIZE (bit 6) is clear, so the device does not support sanitize",
                           sec_text(c));
    return std::nullopt;
}

// ---- what each method leaves behind -----------------------------------------

// The card's declared pattern, as the register says.
void card_declares(Outcome& o, const Capabilities&, const std::string& reg) { o.basis = reg; }

void zeroout_leaves(Outcome& o, const Capabilities&, const std::string&)
{
    o.declared = 0x00;
    o.zero_only = true;
    o.basis = "BLKZEROOUT writes zeros";
}

void discard_leaves(Outcome& o, const Capabilities& c, const std::string& reg)
{
    if (!c.family) {
        o.declared.reset();
        o.basis = "BLKDISCARD; the device declares no erased pattern";
    } else if (c.family == regs::CardFamily::sd && c.sd_discard_support) {
        o.undefined = true;
        o.basis = "BLKDISCARD: the kernel sends SD DISCARD, which may keep the old data";
    } else if (c.family == regs::CardFamily::mmc && c.ext_csd_rev >= 6) {
        o.undefined = true;
        o.basis = "BLKDISCARD: the kernel sends eMMC DISCARD, which may keep the old data";
    } else {
        o.basis = fmt::format("BLKDISCARD: the kernel sends {}; {}",
                              c.family == regs::CardFamily::mmc && (c.sec_feature_support & sec_gb_cl_en) ? "TRIM" : "ERASE",
                              reg);
    }
}

void secure_leaves(Outcome& o, const Capabilities& c, const std::string& reg)
{
    if (!c.family) {
        o.declared.reset();
        o.basis = "BLKSECDISCARD; the device declares no erased pattern";
    } else {
        o.basis = "BLKSECDISCARD: secure erase/trim; " + reg;
    }
}

void discard_may_keep(Outcome& o, const Capabilities&, const std::string& reg)
{
    o.undefined = true;
    o.basis = "DISCARD may keep the old data; erased blocks read as " + reg + " says";
}

// ---- the table --------------------------------------------------------------

using regs::CardFamily;

// Built on first use, so a caller during static initialisation finds it.
std::vector<MethodFacts> make_table()
{
    return {
        {.method = Method::automatic, .name = "auto", .layer = Layer::choice,
         .unit = UnitRule::logical_block, .chunk = ChunkRule::prompt, .outcome = card_declares, .restores_clean = false},
        {.method = Method::discard, .name = "discard", .layer = Layer::block,
         .ioctl = BLKDISCARD, .ioctl_name = "BLKDISCARD", .unsupported = "discard", .refuse = refuse_discard,
         .unit = UnitRule::discard_granularity, .chunk = ChunkRule::discard_max, .outcome = discard_leaves, .restores_clean = true},
        {.method = Method::secure, .name = "secure", .layer = Layer::block,
         .ioctl = BLKSECDISCARD, .ioctl_name = "BLKSECDISCARD", .unsupported = "secure discard", .refuse = refuse_secure,
         .unit = UnitRule::discard_granularity, .chunk = ChunkRule::discard_max, .outcome = secure_leaves, .restores_clean = true},
        {.method = Method::zeroout, .name = "zeroout", .layer = Layer::block,
         .ioctl = BLKZEROOUT, .ioctl_name = "BLKZEROOUT", .unsupported = "zeroout",
         .unit = UnitRule::logical_block, .chunk = ChunkRule::zeroout, .outcome = zeroout_leaves, .restores_clean = false},
        {.method = Method::erase, .name = "erase", .layer = Layer::card,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::erase}; },
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = card_declares, .restores_clean = true},
        {.method = Method::sd_discard, .name = "sd-discard", .layer = Layer::card, .family = CardFamily::sd,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::sd_discard}; },
         .refuse = refuse_sd_discard,
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = discard_may_keep, .restores_clean = true},
        {.method = Method::fule, .name = "fule", .layer = Layer::card, .family = CardFamily::sd,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::sd_fule}; },
         .refuse = refuse_fule,
         .unit = UnitRule::whole_area, .chunk = ChunkRule::whole_area, .outcome = card_declares, .restores_clean = false},
        {.method = Method::trim, .name = "trim", .layer = Layer::card, .family = CardFamily::mmc,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::trim}; },
         .refuse = refuse_trim,
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = card_declares, .restores_clean = true},
        {.method = Method::emmc_discard, .name = "emmc-discard", .layer = Layer::card, .family = CardFamily::mmc,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::emmc_discard}; },
         .refuse = refuse_emmc_discard,
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = discard_may_keep, .restores_clean = true},
        {.method = Method::secure_erase, .name = "secure-erase", .layer = Layer::card, .family = CardFamily::mmc,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::secure_erase}; },
         .refuse = refuse_secure_erase,
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = card_declares, .restores_clean = true},
        {.method = Method::secure_trim, .name = "secure-trim", .layer = Layer::card, .family = CardFamily::mmc,
         .cmd38_args = [](const Capabilities&) -> std::vector<uint32_t> { return {arg::secure_trim1, arg::secure_trim2}; },
         .refuse = refuse_secure_trim,
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = card_declares, .restores_clean = true},
        // TRIM where the card has it (SEC_GB_CL_EN), else ERASE; then SANITIZE_START.
        {.method = Method::sanitize, .name = "sanitize", .layer = Layer::card, .family = CardFamily::mmc,
         .cmd38_args = [](const Capabilities& c) -> std::vector<uint32_t> {
             return {(c.sec_feature_support & sec_gb_cl_en) ? arg::trim : arg::erase};
         },
         .sanitize_after = true, .refuse = refuse_sanitize,
         .unit = UnitRule::card, .chunk = ChunkRule::card_busy, .outcome = card_declares, .restores_clean = true},
    };
}

} // namespace

const std::vector<MethodFacts>& method_table()
{
    static const std::vector<MethodFacts> table = make_table();
    return table;
}

const MethodFacts& facts(Method m)
{
    for (const auto& row : method_table())
        if (row.method == m) return row;
    throw std::logic_error(fmt::format("erase method {} has no row in the method table", static_cast<int>(m)));
}

} // namespace mmc::erase
