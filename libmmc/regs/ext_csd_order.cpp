#include "regs/ext_csd_order.h"

#include <algorithm>

namespace mmc::regs {

std::optional<ByteOrder> byte_order_from_string(std::string_view text)
{
    if (text == "normal") return ByteOrder::normal;
    if (text == "reversed") return ByteOrder::reversed;
    if (text == "auto") return ByteOrder::automatic;
    return std::nullopt;
}

int ext_csd_plausibility(std::span<const uint8_t> b)
{
    if (b.size() != 512) return 0;
    const uint32_t sec_count = b[212] | b[213] << 8 | b[214] << 16 | static_cast<uint32_t>(b[215]) << 24;
    int score = 0;
    if (b[504] & 1) score += 2;                       // S_CMD_SET: standard MMC
    if (sec_count != 0) score += 2;                   // every device over 2 GB, and most below, set it
    if (b[196] != 0) score += 1;                      // DEVICE_TYPE: at least one timing
    if (b[192] >= 1 && b[192] <= 8) score += 1;       // EXT_CSD_REV 1.1 ... 5.1
    if (b[194] <= 2) score += 1;                      // CSD_STRUCTURE 0-2 (3 reserved)
    if (std::all_of(b.begin(), b.begin() + 15, [](uint8_t x) { return x == 0; })) score += 1; // reserved [14:0]
    return score;
}

bool looks_reversed(std::span<const uint8_t> bytes)
{
    if (bytes.size() != 512) return false;
    std::vector<uint8_t> rev(bytes.rbegin(), bytes.rend());
    const int as_given = ext_csd_plausibility(bytes), reversed = ext_csd_plausibility(rev);
    // Reversed only when that order is clearly an EXT_CSD and the given one is not.
    return reversed >= 6 && reversed >= as_given + 3;
}

CardRegisters decode_card_oriented(CardFamily card, std::vector<RawRegister> inputs, ByteOrder order)
{
    std::vector<bool> flipped(inputs.size(), false);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        auto& in = inputs[i];
        if (in.kind != RegKind::ext_csd || in.bytes.size() != 512) continue;
        if (order == ByteOrder::reversed || (order == ByteOrder::automatic && looks_reversed(in.bytes))) {
            std::reverse(in.bytes.begin(), in.bytes.end());
            flipped[i] = true;
        }
    }
    CardRegisters out = decode_card(card, inputs);
    for (std::size_t i = 0; i < inputs.size() && i < out.registers.size(); ++i) {
        if (!flipped[i]) continue;
        out.registers[i].reg.warnings.insert(
            out.registers[i].reg.warnings.begin(),
            order == ByteOrder::reversed
                ? std::string("bytes given reversed (the byte order was forced to reversed): decoded from the last byte to the first")
                : std::string("bytes look reversed (ext_csd[511] first, as Linux printed them before about 2013): decoded "
                              "reversed; forcing the normal byte order decodes them as given"));
    }
    return out;
}

} // namespace mmc::regs
