// The sdhci debug quirk options on a kernel command line. The word rules
// are kernel/params.c's (next_arg, parameq) and lib/kstrtox.c's; the bit
// names are drivers/mmc/host/sdhci.h's, the same in every kernel from 3.x
// to 6.x for quirks2 bits 0-12 (the later bits were renumbered as quirks
// came and went, so they are printed by number).
#include "bus/kernel_cmdline.h"

#include "bus/parse_text.h"

#include <array>
#include <fmt/format.h>

namespace mmc::bus {

namespace {

// kstrtouint(s, 0): an optional '+', then 0x hex, 0 octal or decimal, one
// trailing newline allowed; anything else, or a value past 32 bits, fails.
std::optional<uint32_t> kernel_uint(std::string_view s)
{
    if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    unsigned base = 10;
    if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        s.remove_prefix(1);
    }
    if (s.empty()) return std::nullopt;
    uint64_t v = 0;
    for (const char c : s) {
        unsigned d = 0;
        if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
        else return std::nullopt;
        if (d >= base) return std::nullopt;
        v = v * base + d;
        if (v > 0xffffffffu) return std::nullopt;
    }
    return static_cast<uint32_t>(v);
}

// A parameter name as parameq compares it: '-' and '_' are one character.
std::string canonical_name(std::string_view name)
{
    std::string out(name);
    for (char& c : out)
        if (c == '-') c = '_';
    return out;
}

std::string_view unquoted(std::string_view s)
{
    if (!s.empty() && s.front() == '"') s.remove_prefix(1);
    if (!s.empty() && s.back() == '"') s.remove_suffix(1);
    return s;
}

} // namespace

KernelCmdline parse_kernel_cmdline(std::string_view text)
{
    KernelCmdline out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) ++i;
        if (i >= text.size()) break;
        // A word runs to the first blank outside double quotes.
        const std::size_t start = i;
        bool quoted = false;
        while (i < text.size() && (quoted || !is_space(text[i]))) {
            if (text[i] == '"') quoted = !quoted;
            ++i;
        }
        const std::string_view word = text.substr(start, i - start);
        if (word == "--") break;
        std::string_view bare = word;
        if (!bare.empty() && bare.front() == '"') bare = unquoted(bare);
        const auto eq = bare.find('=');
        const std::string name = canonical_name(bare.substr(0, eq));
        if (name != "sdhci.debug_quirks" && name != "sdhci.debug_quirks2") continue;
        SdhciQuirkOption o;
        o.name = name;
        o.written = std::string(word);
        // "sdhci.debug_quirks2" with no value: the kernel rejects it for a uint.
        if (eq != std::string_view::npos) o.value = kernel_uint(unquoted(bare.substr(eq + 1)));
        (name == "sdhci.debug_quirks2" ? out.quirks2 : out.quirks) = std::move(o);
    }
    return out;
}

std::string_view sdhci_quirk2_name(int bit)
{
    static constexpr std::array<std::string_view, 13> names{
        "SDHCI_QUIRK2_HOST_OFF_CARD_ON",   "SDHCI_QUIRK2_HOST_NO_CMD23",        "SDHCI_QUIRK2_NO_1_8_V",
        "SDHCI_QUIRK2_PRESET_VALUE_BROKEN", "SDHCI_QUIRK2_CARD_ON_NEEDS_BUS_ON", "SDHCI_QUIRK2_BROKEN_HOST_CONTROL",
        "SDHCI_QUIRK2_BROKEN_HS200",        "SDHCI_QUIRK2_BROKEN_DDR50",         "SDHCI_QUIRK2_STOP_WITH_TC",
        "SDHCI_QUIRK2_BROKEN_64_BIT_DMA",   "SDHCI_QUIRK2_CLEAR_TRANSFERMODE_REG_BEFORE_CMD",
        "SDHCI_QUIRK2_CAPS_BIT63_FOR_HS400", "SDHCI_QUIRK2_TUNING_WORK_AROUND",
    };
    return bit >= 0 && bit < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(bit)] : std::string_view();
}

std::string_view sdhci_quirk_name(int bit) { return bit == 22 ? "SDHCI_QUIRK_FORCE_1_BIT_DATA" : std::string_view(); }

std::string sdhci_quirk2_names(uint32_t value)
{
    std::string out;
    for (int bit = 0; bit < 32; ++bit) {
        if (!(value >> bit & 1)) continue;
        const auto name = sdhci_quirk2_name(bit);
        out += (out.empty() ? "" : ", ") + (name.empty() ? fmt::format("bit {}", bit) : std::string(name));
    }
    return out;
}

} // namespace mmc::bus
