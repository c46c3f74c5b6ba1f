#include "regs/register.h"

#include "regs/bitfield.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

namespace {
struct KindInfo {
    RegKind kind;
    std::string_view name;
    std::size_t size;
};
constexpr std::array<KindInfo, 8> kinds{{
    {RegKind::cid, "cid", 16},
    {RegKind::csd, "csd", 16},
    {RegKind::scr, "scr", 8},
    {RegKind::ssr, "ssr", 64},
    {RegKind::ocr, "ocr", 4},
    {RegKind::ext_csd, "ext_csd", 512},
    {RegKind::switch_status, "switch_status", 64},
    {RegKind::status, "status", 4},
}};
} // namespace

std::string_view to_string(RegKind kind)
{
    for (const auto& k : kinds)
        if (k.kind == kind) return k.name;
    return "?";
}

std::string_view to_string(CardFamily family) { return family == CardFamily::sd ? "sd" : "mmc"; }

std::optional<RegKind> reg_kind_from_string(std::string_view name)
{
    for (const auto& k : kinds)
        if (k.name == name) return k.kind;
    if (name == "extcsd") return RegKind::ext_csd;
    return std::nullopt;
}

std::optional<CardFamily> card_family_from_string(std::string_view name)
{
    if (name == "sd") return CardFamily::sd;
    if (name == "mmc" || name == "emmc") return CardFamily::mmc;
    return std::nullopt;
}

std::size_t register_size(RegKind kind)
{
    for (const auto& k : kinds)
        if (k.kind == kind) return k.size;
    return 0;
}

const Field* DecodedRegister::field(std::string_view name) const
{
    for (const auto& f : fields)
        if (f.spec->name == name) return &f;
    return nullptr;
}

const Derived* DecodedRegister::find(std::string_view key) const
{
    for (const auto& d : decoded)
        if (d.key == key) return &d;
    return nullptr;
}

void DecodedRegister::add(std::string key, Value value, std::string label, std::string text)
{
    if (text.empty()) text = value_text(value);
    decoded.push_back({std::move(key), std::move(value), std::move(label), std::move(text)});
}

std::vector<Field> read_bit_fields(std::span<const uint8_t> reg, std::span<const FieldSpec> table)
{
    std::vector<Field> out;
    out.reserve(table.size());
    for (const auto& spec : table)
        out.push_back({&spec, bits(reg, spec.hi, spec.lo), std::nullopt});
    return out;
}

std::vector<Field> read_byte_fields(std::span<const uint8_t> reg, std::span<const FieldSpec> table)
{
    std::vector<Field> out;
    out.reserve(table.size());
    for (const auto& spec : table)
        out.push_back({&spec, le_bytes(reg, spec.hi, spec.lo), std::nullopt});
    return out;
}

std::string value_text(const Value& v)
{
    struct Visitor {
        std::string operator()(bool b) const { return b ? "yes" : "no"; }
        std::string operator()(int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const { return fmt::format("{:g}", d); }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(const IntList& l) const { return fmt::format("{}", fmt::join(l, ", ")); }
        std::string operator()(const StringList& l) const { return fmt::format("{}", fmt::join(l, ", ")); }
    };
    return std::visit(Visitor{}, v);
}

} // namespace mmc::regs
