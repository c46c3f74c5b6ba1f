#include "views/card_view.h"

#include "views/register_json.h"
#include "regs/register_facts.h"
#include "regs/register.h"

#include <fmt/format.h>

namespace mmc::out {

namespace {

void append(std::string& to, const std::string& part)
{
    if (part.empty()) return;
    if (!to.empty()) to += " ";
    to += part;
}

} // namespace

std::vector<SummaryLine> card_summary(const regs::CardRegisters& card)
{
    std::vector<SummaryLine> out;
    const auto cid = regs::cid_facts(card);
    const auto csd = regs::csd_facts(card);
    const auto ext = regs::ext_csd_facts(card);
    const auto ssr = regs::ssr_facts(card);
    const auto scr = regs::scr_facts(card);

    if (cid) {
        std::string who = cid->manufacturer;
        append(who, cid->pnm);
        const std::string& date = cid->date;
        const std::string& serial = cid->serial_hex;
        out.push_back({"card", "Card", fmt::format("{}{}{}", who, serial.empty() ? "" : ", serial " + serial,
                                             date.empty() ? "" : ", made " + date)});
    }
    std::string capacity = ext ? ext->capacity_text : std::string();
    if (capacity.empty() && csd) capacity = csd->capacity_text;
    if (!capacity.empty()) {
        const std::string family = csd ? csd->capacity_class : std::string();
        out.push_back({"capacity", "Capacity", family.empty() ? capacity : capacity + ", " + family});
    }
    if (ssr) {
        std::string classes;
        // Each class only when the card claims it (raw value non-zero).
        for (const auto* claim : {&ssr->speed_class, &ssr->uhs_speed_grade, &ssr->video_speed_class, &ssr->app_perf_class})
            if (claim->code) append(classes, claim->name);
        out.push_back({"classes", "Classes", classes.empty() ? "none claimed" : classes});
        if (!ssr->au_text.empty()) out.push_back({"allocation_unit", "Allocation unit", ssr->au_text});
    }
    if (scr) out.push_back({"sd_spec", "SD spec", scr->spec_version});
    if (ext) {
        out.push_back({"emmc_version", "eMMC", ext->mmc_version});
        const std::string& life_a = ext->life.typ_a_text;
        if (!life_a.empty())
            out.push_back({"life_used", "Life used", fmt::format("A: {}, B: {}", life_a, ext->life.typ_b_text)});
    }
    return out;
}

std::string card_text(const regs::CardRegisters& card, const TextStyle& style)
{
    std::string out;
    const auto summary = card_summary(card);
    for (const auto& line : summary) out += fmt::format("{:<16} {}\n", line.label + ":", line.text);
    for (const auto& w : card.warnings) out += fmt::format("{:<16} {}\n", "Warning:", w);
    for (const auto& r : card.registers) {
        if (!out.empty()) out += "\n";
        out += register_text(r.reg, r.source, style);
    }
    return out;
}

nlohmann::ordered_json card_json(const regs::CardRegisters& card)
{
    nlohmann::ordered_json j;
    j["family"] = regs::to_string(card.card);
    auto& summary = j["summary"] = nlohmann::ordered_json::object();
    for (const auto& line : card_summary(card)) summary[line.key] = line.text;
    auto& regs_json = j["registers"] = nlohmann::ordered_json::object();
    for (const auto& r : card.registers) regs_json[std::string(regs::to_string(r.reg.kind))] = register_json(r.reg, r.source);
    j["warnings"] = card.warnings;
    return j;
}

} // namespace mmc::out
