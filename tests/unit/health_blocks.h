// Test helpers for the health decoders: a 512-byte CMD56 block built at the
// documented offsets, and a field-by-field comparison of the normalised
// schema (every field, so a decoder that sets one it should not fails).
#pragma once

#include "health/layouts.h"
#include "health/reading.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string_view>
#include <vector>

namespace mmc::test {

struct BlockBuilder {
    std::vector<uint8_t> bytes = std::vector<uint8_t>(512, 0);

    BlockBuilder& text(std::size_t at, std::string_view s)
    {
        for (std::size_t i = 0; i < s.size(); ++i) bytes[at + i] = static_cast<uint8_t>(s[i]);
        return *this;
    }
    BlockBuilder& u8(std::size_t at, uint8_t v)
    {
        bytes[at] = v;
        return *this;
    }
    BlockBuilder& be(std::size_t at, std::size_t width, uint64_t v)
    {
        for (std::size_t i = 0; i < width; ++i) bytes[at + width - 1 - i] = static_cast<uint8_t>(v >> (8 * i));
        return *this;
    }
    BlockBuilder& le(std::size_t at, std::size_t width, uint64_t v)
    {
        for (std::size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
        return *this;
    }
    health::Cmd56Block block(uint32_t arg) const { return {arg, bytes}; }
};

inline health::LayoutResult decode_one(health::Cmd56Decoder decode, uint32_t arg, const std::vector<uint8_t>& bytes)
{
    const std::vector<health::Cmd56Block> blocks{{arg, bytes}};
    return decode(blocks);
}

// Every field of the schema, compared by name.
inline void expect_wear(const health::Wear& got, const health::Wear& want)
{
    EXPECT_EQ(got.life_used_percent, want.life_used_percent) << "life_used_percent";
    EXPECT_EQ(got.life_exhausted, want.life_exhausted) << "life_exhausted";
    EXPECT_EQ(got.pre_eol, want.pre_eol) << "pre_eol";
    EXPECT_EQ(got.spare_blocks_percent, want.spare_blocks_percent) << "spare_blocks_percent";
    EXPECT_EQ(got.bad_blocks.factory, want.bad_blocks.factory) << "bad_blocks.factory";
    EXPECT_EQ(got.bad_blocks.runtime, want.bad_blocks.runtime) << "bad_blocks.runtime";
    EXPECT_EQ(got.erase_count.min, want.erase_count.min) << "erase_count.min";
    EXPECT_EQ(got.erase_count.avg, want.erase_count.avg) << "erase_count.avg";
    EXPECT_EQ(got.erase_count.max, want.erase_count.max) << "erase_count.max";
    EXPECT_EQ(got.erase_count.total, want.erase_count.total) << "erase_count.total";
    EXPECT_EQ(got.rated_erase_cycles, want.rated_erase_cycles) << "rated_erase_cycles";
    EXPECT_EQ(got.power_cycles, want.power_cycles) << "power_cycles";
    EXPECT_EQ(got.abnormal_power_losses, want.abnormal_power_losses) << "abnormal_power_losses";
    EXPECT_EQ(got.bytes_written, want.bytes_written) << "bytes_written";
    EXPECT_EQ(got.firmware, want.firmware) << "firmware";
}

// A source field's value by key (fails the test when it is missing).
inline regs::Value field_of(const health::Reading& r, std::string_view key)
{
    for (const auto& f : r.fields)
        if (f.key == key) return f.value;
    ADD_FAILURE() << "no field " << key;
    return int64_t{-1};
}

// The block sdmon issue 18 shows a no-name "LD" card returning to CMD56:
// its first sector, MBR boot code.
inline std::vector<uint8_t> mbr_block_issue18()
{
    const uint8_t head[] = {0xFA, 0xB8, 0x00, 0x10, 0x8E, 0xD0, 0xBC, 0x00, 0xB0, 0xB8, 0x00, 0x00, 0x8E, 0xD8, 0x8E, 0xC0,
                            0xFB, 0xBE, 0x00, 0x7C, 0xBF, 0x00, 0x06, 0xB9, 0x00, 0x02, 0xF3, 0xA4, 0xEA, 0x21, 0x06, 0x00,
                            0x00, 0xBE, 0xBE, 0x07, 0x38, 0x04, 0x75, 0x0B, 0x83, 0xC6, 0x10, 0x81, 0xFE, 0xFE, 0x07, 0x75,
                            0xF3, 0xEB, 0x16, 0xB4, 0x02, 0xB0, 0x01, 0xBB, 0x00, 0x7C, 0xB2, 0x80, 0x8A, 0x74, 0x01, 0x8B,
                            0x4C, 0x02, 0xCD, 0x13, 0xEA, 0x00, 0x7C, 0x00, 0x00, 0xEB, 0xFE};
    std::vector<uint8_t> b(512, 0);
    std::copy(std::begin(head), std::end(head), b.begin());
    return b;
}

} // namespace mmc::test
