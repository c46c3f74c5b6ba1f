// The HTML report's card boxes: each measured card's key registers, read
// from the decoded registers a bundle carries (mmc-info's JSON).
#include "report/html.h"
#include "report/html_parts.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::report {

namespace {

const nlohmann::ordered_json* decoded(const Bundle& b, const char* reg, const char* key)
{
    const auto& r = b.registers;
    if (!r.is_object() || !r.contains("registers") || !r["registers"].is_object()) return nullptr;
    const auto& regs = r["registers"];
    if (!regs.contains(reg) || !regs[reg].is_object() || !regs[reg].contains("decoded")) return nullptr;
    const auto& d = regs[reg]["decoded"];
    if (!d.is_object() || !d.contains(key) || d[key].is_null()) return nullptr;
    return &d[key];
}

std::string decoded_text(const Bundle& b, const char* reg, const char* key)
{
    const auto* v = decoded(b, reg, key);
    if (!v) return {};
    return v->is_string() ? v->get<std::string>() : v->dump();
}

std::string capacity_text(uint64_t bytes)
{
    // Decimal GB as on the label, then the binary size and the count.
    return fmt::format("{:.4g} GB ({}, {} bytes)", static_cast<double>(bytes) / 1e9, cli::format_bytes(bytes), bytes);
}

} // namespace

namespace html_parts {

std::string card_box(const Bundle& b, const std::string& title)
{
    std::vector<std::pair<std::string, std::string>> rows;
    auto add = [&](const char* k, const std::string& v) {
        if (!v.empty()) rows.emplace_back(k, v);
    };
    add("Manufacturer", b.card.manufacturer);
    std::string product = b.card.product;
    if (const auto rev = decoded_text(b, "cid", "revision"); !rev.empty() && !product.empty()) product += " rev " + rev;
    add("Product", product);
    add("Serial", b.card.serial);
    add("Made", decoded_text(b, "cid", "date"));
    if (b.card.capacity_bytes) add("Capacity", capacity_text(*b.card.capacity_bytes));
    std::string type = b.card.type.text();
    if (const auto cc = decoded_text(b, "csd", "capacity_class"); !cc.empty()) type += (type.empty() ? "" : ", ") + cc;
    add("Type", type);
    if (b.card.type != CardType::mmc) {
        const std::string classes = classes_text(b.card.classes);
        add("Classes", classes.empty() && !b.card.classes.speed_class.empty() ? "none claimed" : classes);
    }
    if (const auto sd = decoded_text(b, "scr", "spec_version"); !sd.empty()) add("SD spec", "SD " + sd);
    if (const auto mmc = decoded_text(b, "ext_csd", "mmc_version"); !mmc.empty()) add("eMMC version", "eMMC " + mmc);
    if (const auto au = decoded(b, "ssr", "au_size_bytes"); au && au->is_number() && au->get<double>() > 0)
    {
        const double bytes = au->get<double>();
        add("Allocation unit", cli::format_bytes(static_cast<uint64_t>(bytes)));
    }
    std::string bus = b.host.bus_mode;
    if (b.bus.is_object()) {
        if (b.bus.contains("ceiling_mb_s") && b.bus["ceiling_mb_s"].is_number())
            bus += fmt::format("{}ceiling {} MB/s", bus.empty() ? "" : ", ", mb_s_text(b.bus["ceiling_mb_s"].get<double>()));
        if (b.bus.contains("limit") && b.bus["limit"].is_string() && !b.bus["limit"].get<std::string>().empty())
            bus += fmt::format(", limit: {}", b.bus["limit"].get<std::string>());
    }
    add("Bus mode", bus);
    add("Controller", b.host.controller);
    add("Kernel", b.host.kernel);
    if (rows.empty()) return {};
    std::string h = fmt::format("<article class=\"card-info\"><h4>{}</h4><dl>", html_escape(title));
    for (const auto& [k, v] : rows) h += fmt::format("<dt>{}</dt><dd>{}</dd>", k, html_escape(v));
    return h + "</dl></article>";
}

} // namespace html_parts

} // namespace mmc::report
