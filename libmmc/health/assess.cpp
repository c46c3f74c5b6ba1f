#include "health/assess.h"

#include "health/cid_table.h"
#include "health/sources.h"
#include "regs/register_facts.h"

#include <fmt/format.h>

namespace mmc::health {

namespace {

struct CidIds {
    uint8_t mid;
    uint16_t oid;
};

std::optional<CidIds> cid_ids(const regs::CardRegisters& registers)
{
    const auto cid = regs::cid_facts(registers);
    if (!cid) return std::nullopt;
    return CidIds{cid->mid, cid->oid};
}

} // namespace

std::vector<const Layout*> layouts_to_read(const regs::CardRegisters& registers, std::optional<std::string_view> forced)
{
    if (forced) {
        const Layout* l = find_layout(*forced);
        return l ? std::vector<const Layout*>{l} : std::vector<const Layout*>{};
    }
    std::vector<const Layout*> out;
    const auto ids = cid_ids(registers);
    if (!ids) return out;
    for (const CidRow* row : rows_for(registers.card, ids->mid, ids->oid))
        if (row->channel == Channel::cmd56)
            if (const Layout* l = find_layout(row->layout)) out.push_back(l);
    return out;
}

HealthReport assess(const HealthInput& input)
{
    HealthReport report;
    const auto& regs_in = input.registers;

    if (const auto* ext = regs_in.get(regs::RegKind::ext_csd)) {
        report.rpmb_bytes = regs::ext_csd_facts(*ext).rpmb_bytes;
        auto r = ext_csd_health(*ext);
        if (r.reading) report.readings.push_back(std::move(*r.reading));
        else report.no_data.push_back({"ext_csd", r.none_because});
    }

    const auto ids = cid_ids(regs_in);
    bool known_card = false;
    if (ids) {
        for (const CidRow* row : rows_for(regs_in.card, ids->mid, ids->oid)) {
            known_card = true;
            if (row->channel != Channel::ssr) continue;
            const auto* ssr = regs_in.get(regs::RegKind::ssr);
            if (!ssr) {
                report.no_data.push_back({"ssr:swissbit", "the SD status was not read"});
                continue;
            }
            auto r = ssr_swissbit(ssr->bytes);
            if (r.reading) report.readings.push_back(std::move(*r.reading));
            else report.no_data.push_back({"ssr:swissbit", r.none_because});
        }
    }

    for (const auto& read : input.cmd56) {
        const std::string source = "cmd56:" + read.layout;
        const Layout* layout = find_layout(read.layout);
        if (!layout) {
            report.no_data.push_back({source, "no such layout"});
            continue;
        }
        if (!read.error.empty()) {
            report.no_data.push_back({source, read.error});
            continue;
        }
        auto r = layout->decode(read.blocks);
        if (r.reading) report.readings.push_back(std::move(*r.reading));
        else report.no_data.push_back({source, r.not_health});
    }

    // An eMMC's EXT_CSD is health data of its own; only a card with nothing
    // else is told that its vendor layout is unknown.
    if (ids && !known_card && input.cmd56.empty() && !regs_in.get(regs::RegKind::ext_csd))
        report.notes.push_back(unknown_card_text(regs_in.card, ids->mid, ids->oid));

    report.writability = assess_writability(regs_in, input.host, report.readings);
    report.judgement = judge(report.readings, report.writability);
    return report;
}

} // namespace mmc::health
