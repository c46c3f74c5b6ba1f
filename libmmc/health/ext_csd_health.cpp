#include "health/sources.h"

#include "regs/register_facts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

namespace {

// 0x01-0x0A: 10% steps; the upper bound of the step is the figure.
std::optional<double> band_upper(uint64_t v)
{
    if (v >= 0x01 && v <= 0x0b) return std::min<uint64_t>(v, 0x0a) * 10.0;
    return std::nullopt;
}

} // namespace

SourceResult ext_csd_health(const regs::DecodedRegister& r)
{
    SourceResult out;
    const regs::ExtCsdFacts facts = regs::ext_csd_facts(r);
    const uint64_t rev = facts.ext_csd_rev;
    if (rev < 7) {
        out.none_because = fmt::format("EXT_CSD_REV {} predates the health fields (eMMC 5.0, revision 7)", rev);
        return out;
    }
    const regs::LifeTime& life = facts.life;
    const uint64_t a = life.typ_a, b = life.typ_b, eol = life.pre_eol;
    Reading reading;
    reading.source = "ext_csd";
    reading.add("device_life_time_est_typ_a", static_cast<int64_t>(a), "Life time used, type A", life.typ_a_text);
    reading.add("device_life_time_est_typ_b", static_cast<int64_t>(b), "Life time used, type B", life.typ_b_text);
    reading.add("pre_eol_info", static_cast<int64_t>(eol), "Pre-EOL information", life.pre_eol_text);
    std::string vendor;
    for (int i = 270; i <= 301; ++i) vendor += fmt::format("{:02x}", r.bytes[static_cast<std::size_t>(i)]);
    reading.add("vendor_proprietary_health_report", vendor, "Vendor health report (bytes 270-301)");

    // The worse of the two memory types decides.
    const auto la = band_upper(a), lb = band_upper(b);
    if (la || lb) reading.wear.life_used_percent = std::max(la.value_or(0), lb.value_or(0));
    if (la || lb) reading.wear.life_exhausted = a == 0x0b || b == 0x0b;
    if (eol >= 1 && eol <= 3) reading.wear.pre_eol = static_cast<PreEol>(eol - 1);
    if (!la && !lb && !reading.wear.pre_eol)
        reading.notes.push_back("the card leaves the life time and pre-EOL fields undefined (0)");
    out.reading = std::move(reading);
    return out;
}

} // namespace mmc::health
