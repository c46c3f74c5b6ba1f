#include "out/card_view.h"

#include "out/register_json.h"
#include "regs/card_facts.h"
#include "regs/register.h"

#include <fmt/format.h>

namespace mmc::out {

namespace {

// The decoded value as plain text (no annotations), e.g. "Samsung".
std::string value_of(const regs::DecodedRegister* r, std::string_view key)
{
    if (!r) return {};
    const auto* d = r->find(key);
    return d ? regs::value_text(d->value) : std::string();
}

std::string text_of(const regs::DecodedRegister* r, std::string_view key)
{
    if (!r) return {};
    const auto* d = r->find(key);
    return d ? d->text : std::string();
}

std::string field_text(const regs::DecodedRegister* r, std::string_view name)
{
    if (!r) return {};
    const auto* f = r->field(name);
    return f && f->text ? *f->text : std::string();
}

uint64_t raw_of(const regs::DecodedRegister* r, std::string_view name) { return regs::field_value(r, name).value_or(0); }

void append(std::string& to, const std::string& part)
{
    if (part.empty()) return;
    if (!to.empty()) to += " ";
    to += part;
}

} // namespace

std::vector<SummaryLine> card_summary(const regs::CardRegisters& card)
{
    using regs::RegKind;
    std::vector<SummaryLine> out;
    const auto* cid = card.get(RegKind::cid);
    const auto* csd = card.get(RegKind::csd);
    const auto* ext = card.get(RegKind::ext_csd);
    const auto* ssr = card.get(RegKind::ssr);
    const auto* scr = card.get(RegKind::scr);

    if (cid) {
        std::string who = value_of(cid, "manufacturer");
        append(who, field_text(cid, "pnm"));
        const std::string date = value_of(cid, "date");
        const std::string serial = value_of(cid, "serial_hex");
        out.push_back({"card", "Card", fmt::format("{}{}{}", who, serial.empty() ? "" : ", serial " + serial,
                                             date.empty() ? "" : ", made " + date)});
    }
    std::string capacity = text_of(ext, "capacity_bytes");
    if (capacity.empty()) capacity = text_of(csd, "capacity_bytes");
    if (!capacity.empty()) {
        const std::string family = text_of(csd, "capacity_class");
        out.push_back({"capacity", "Capacity", family.empty() ? capacity : capacity + ", " + family});
    }
    if (ssr) {
        std::string classes;
        // Each class only when the card claims it (raw value non-zero).
        for (const char* key : {"speed_class", "uhs_speed_grade", "video_speed_class", "app_perf_class"})
            if (raw_of(ssr, key)) append(classes, regs::value_text(ssr->find(key)->value));
        out.push_back({"classes", "Classes", classes.empty() ? "none claimed" : classes});
        const std::string au = text_of(ssr, "au_size_bytes");
        if (!au.empty()) out.push_back({"allocation_unit", "Allocation unit", au});
    }
    if (scr) out.push_back({"sd_spec", "SD spec", text_of(scr, "spec_version")});
    if (ext) {
        out.push_back({"emmc_version", "eMMC", text_of(ext, "mmc_version")});
        const std::string life_a = text_of(ext, "device_life_time_est_typ_a_text");
        if (!life_a.empty())
            out.push_back({"life_used", "Life used",
                           fmt::format("A: {}, B: {}", life_a, text_of(ext, "device_life_time_est_typ_b_text"))});
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
