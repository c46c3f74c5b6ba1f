// EXT_CSD dumps printed by Linux kernels before about 2013 (debugfs
// mmc_ext_csd_read printed the buffer from ext_csd[511] down to ext_csd[0])
// are byte-reversed. Read in the modern order they decode as garbage:
// revision 0, no sectors, reserved bytes set. This recognises them by which
// order makes a plausible EXT_CSD, and decodes them reversed with a warning.
// Pure, like the decoders.
#pragma once

#include "regs/card_registers.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mmc::regs {

enum class ByteOrder { normal, reversed, automatic };

// "normal", "reversed", "auto".
std::optional<ByteOrder> byte_order_from_string(std::string_view text);

// How much bytes look like an EXT_CSD in the modern order (ext_csd[0]
// first): S_CMD_SET [504] says standard MMC, SEC_COUNT [215:212] is set,
// DEVICE_TYPE [196] names a mode, EXT_CSD_REV [192] and CSD_STRUCTURE [194]
// are defined values, the reserved bytes [14:0] are zero. Higher is more
// plausible; 0 to 8.
int ext_csd_plausibility(std::span<const uint8_t> bytes);

// True when bytes (512 of them) are plausible only when read reversed.
bool looks_reversed(std::span<const uint8_t> bytes);

// decode_card with every EXT_CSD in inputs put in the modern order first:
// reversed when order says so, or when it is automatic and the bytes look
// reversed. A reversed register carries a warning saying so.
CardRegisters decode_card_oriented(CardFamily card, std::vector<RawRegister> inputs, ByteOrder order);

} // namespace mmc::regs
