#include "regs/decode.h"

#include <fmt/format.h>
#include <stdexcept>

namespace mmc::regs {

void require_size(RegKind kind, std::span<const uint8_t> reg)
{
    if (reg.size() != register_size(kind))
        throw std::invalid_argument(
            fmt::format("{}: expected {} bytes, got {}", to_string(kind), register_size(kind), reg.size()));
}

DecodedRegister decode(RegKind kind, CardFamily card, std::span<const uint8_t> reg, const DecodeContext& ctx)
{
    switch (kind) {
    case RegKind::cid: return decode_cid(reg, card, ctx);
    case RegKind::csd: return decode_csd(reg, card);
    case RegKind::scr: return decode_scr(reg);
    case RegKind::ssr: return decode_ssr(reg);
    case RegKind::ocr: return decode_ocr(reg, card);
    case RegKind::ext_csd: return decode_ext_csd(reg);
    case RegKind::switch_status: return decode_switch_status(reg);
    case RegKind::status: return decode_card_status(reg, card);
    }
    throw std::invalid_argument("unknown register kind");
}

} // namespace mmc::regs
