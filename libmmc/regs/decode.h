// One entry point per register. Each decoder lives in its own file with its
// spec table (cid.cpp, csd.cpp, scr.cpp, ssr.cpp, ocr.cpp, ext_csd.cpp,
// switch_status.cpp, card_status.cpp). All are pure: bytes in, model out.
// The span must hold exactly register_size(kind) bytes (parse_register_hex
// guarantees it); decoders throw std::invalid_argument otherwise.
#pragma once

#include "regs/register.h"

#include <span>

namespace mmc::regs {

DecodedRegister decode_cid(std::span<const uint8_t> reg, CardFamily card, const DecodeContext& ctx = {});
DecodedRegister decode_csd(std::span<const uint8_t> reg, CardFamily card);
DecodedRegister decode_scr(std::span<const uint8_t> reg);
DecodedRegister decode_ssr(std::span<const uint8_t> reg);
DecodedRegister decode_ocr(std::span<const uint8_t> reg, CardFamily card);
DecodedRegister decode_ext_csd(std::span<const uint8_t> reg);
DecodedRegister decode_switch_status(std::span<const uint8_t> reg);
DecodedRegister decode_card_status(std::span<const uint8_t> reg, CardFamily card);

// Dispatch on kind. SCR, SSR and switch status exist only on SD cards and
// EXT_CSD only on MMC; they decode whatever family is asked for.
DecodedRegister decode(RegKind kind, CardFamily card, std::span<const uint8_t> reg, const DecodeContext& ctx = {});

// The spec tables, for tests and -v output. SD and MMC differ for CID/CSD;
// SD CSD has one table per CSD_STRUCTURE version (0, 1, 2).
std::span<const FieldSpec> cid_table(CardFamily card);
std::span<const FieldSpec> csd_table(CardFamily card, int csd_structure);
std::span<const FieldSpec> scr_table();
std::span<const FieldSpec> ssr_table();
std::span<const FieldSpec> ocr_table(CardFamily card);
std::span<const FieldSpec> ext_csd_table();
std::span<const FieldSpec> switch_status_table();
std::span<const FieldSpec> card_status_table(CardFamily card);

// Throws std::invalid_argument unless reg is the size the kind needs.
void require_size(RegKind kind, std::span<const uint8_t> reg);

} // namespace mmc::regs
