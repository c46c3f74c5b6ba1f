#include "views/register_text.h"

#include "regs/hex.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace mmc::out {

namespace {

std::string upper(std::string_view s)
{
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string range_text(const regs::FieldSpec& spec)
{
    if (spec.hi == spec.lo) return fmt::format("[{}]", spec.hi);
    return fmt::format("[{}:{}]", spec.hi, spec.lo);
}

std::string raw_text(const regs::Field& f)
{
    if (f.text) return fmt::format("\"{}\"", *f.text);
    const int width = f.spec->byte_indexed ? (f.spec->hi - f.spec->lo + 1) * 8 : f.spec->hi - f.spec->lo + 1;
    if (width == 1) return std::to_string(f.raw);
    return fmt::format("{} (0x{:0{}x})", f.raw, f.raw, (width + 3) / 4);
}

} // namespace

std::string register_text(const regs::DecodedRegister& reg, std::string_view source, const TextStyle& style)
{
    const char* bold = style.color ? "\033[1m" : "";
    const char* yellow = style.color ? "\033[33m" : "";
    const char* reset = style.color ? "\033[0m" : "";

    std::string out = fmt::format("{}{} ({}){}  {}\n", bold, upper(regs::to_string(reg.kind)),
                                  reg.card == regs::CardFamily::sd ? "SD" : "MMC", reset, reg.summary);
    out += fmt::format("  {:<30} {}\n", "Raw", regs::to_hex(reg.bytes).size() > 64 && !style.verbose
                                                     ? fmt::format("{} bytes (-v shows them)", reg.bytes.size())
                                                     : regs::to_hex(reg.bytes));
    out += fmt::format("  {:<30} {}\n", "Source", source);

    std::size_t width = 30;
    for (const auto& d : reg.decoded) width = std::max(width, d.label.size());
    for (const auto& d : reg.decoded) out += fmt::format("  {:<{}} {}\n", d.label, width, d.text);
    for (const auto& w : reg.warnings) out += fmt::format("  {}warning:{} {}\n", yellow, reset, w);

    if (style.verbose && !reg.fields.empty()) {
        out += fmt::format("  {}Fields{} ({}):\n", bold, reset, reg.fields.front().spec->byte_indexed ? "byte index" : "bits");
        std::vector<const regs::Field*> sorted;
        for (const auto& f : reg.fields) sorted.push_back(&f);
        std::stable_sort(sorted.begin(), sorted.end(), [](auto a, auto b) { return a->spec->hi > b->spec->hi; });
        for (const auto* f : sorted)
            out += fmt::format("    {:<11} {:<28} {:<24} {}\n", range_text(*f->spec), upper(f->spec->name), raw_text(*f),
                               f->spec->meaning);
    }
    return out;
}

} // namespace mmc::out
