// libFuzzer harness over the hex parser, every decoder and both views.
// The first input byte picks the register kind and card family; the rest is
// fed once as text (through the hex parser) and once as raw bytes, and to
// the family guess of pasted registers. The text also goes to the one
// duration parser (cli/duration.h, header-only), which reads option values
// and card files.
#include "cli/duration.h"
#include "views/card_view.h"
#include "regs/card_registers.h"
#include "regs/decode.h"
#include "regs/family_guess.h"
#include "regs/hex.h"
#include "regs/write_protect_groups.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace mmc::regs;

namespace {
constexpr RegKind kinds[] = {RegKind::cid, RegKind::csd, RegKind::scr, RegKind::ssr,
                             RegKind::ocr, RegKind::ext_csd, RegKind::switch_status, RegKind::status};

void exercise(CardFamily card, RegKind kind, std::vector<uint8_t> bytes)
{
    (void)guess_family({{kind, bytes, "input"}});
    const auto regs = decode_card(card, {{kind, std::move(bytes), "input"}});
    (void)mmc::out::card_json(regs).dump();
    (void)mmc::out::card_text(regs, {true, false});
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) return 0;
    const RegKind kind = kinds[data[0] % 8];
    const CardFamily card = (data[0] & 8) ? CardFamily::mmc : CardFamily::sd;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    try {
        exercise(card, kind, parse_register_hex(kind, text));
    } catch (const HexError&) {
        // Malformed text is expected input; the parser must only reject it.
    }
    // Raw bytes of the right size, zero padded: every bit pattern must decode.
    std::vector<uint8_t> raw(register_size(kind), 0);
    for (size_t i = 0; i < raw.size() && i + 1 < size; ++i) raw[i] = data[i + 1];
    exercise(card, kind, std::move(raw));
    // The write protect queries' data and the group rule: any bytes.
    std::vector<uint8_t> ext(512, 0), csd(16, 0);
    for (size_t i = 0; i + 1 < size; ++i) (i < 512 ? ext[i] : csd[(i - 512) % 16]) = data[i + 1];
    (void)mmc::regs::user_wp_group(ext, csd);
    (void)mmc::regs::user_wp_group(ext, {});
    (void)mmc::regs::wp_types_of(std::span<const uint8_t>(ext).first(8));
    (void)mmc::regs::wp_bits_of(std::span<const uint8_t>(ext).first(4));
    try {
        (void)parse_hex(text);
    } catch (const HexError&) {
    }
    try {
        (void)mmc::cli::parse_duration(text);
    } catch (const std::invalid_argument&) {
        // Not a time: the parser must only reject it.
    }
    return 0;
}
