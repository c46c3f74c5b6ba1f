// The model every decoder produces: a register image, its spec fields with
// raw values, and the derived values a person wants. Pure data, no I/O.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mmc::regs {

enum class CardFamily { sd, mmc };
enum class RegKind { cid, csd, scr, ssr, ocr, ext_csd, switch_status, status };

std::string_view to_string(RegKind kind);
std::string_view to_string(CardFamily family);
std::optional<RegKind> reg_kind_from_string(std::string_view name);
std::optional<CardFamily> card_family_from_string(std::string_view name);
// Size in bytes of each register image as Linux prints it.
std::size_t register_size(RegKind kind);

// One field of a spec table. For bit-addressed registers (CID, CSD, SCR, SSR,
// OCR, switch status, card status) hi/lo are bit numbers as the spec writes
// them (bit 0 is the least significant bit of the last byte). For EXT_CSD they
// are byte indexes and the value is little-endian, as JESD84 defines it.
struct FieldSpec {
    std::string_view name;     // spec name in lower case, e.g. "c_size"
    int hi;                    // most significant bit (or highest byte index)
    int lo;                    // least significant bit (or lowest byte index)
    std::string_view meaning;  // one line, for -v output
    bool byte_indexed = false; // true for EXT_CSD fields
};

struct Field {
    const FieldSpec* spec;
    uint64_t raw;
    std::optional<std::string> text; // text fields: pnm, SD oid
};

using IntList = std::vector<int64_t>;
using StringList = std::vector<std::string>;
using Value = std::variant<bool, int64_t, double, std::string, IntList, StringList>;

// A derived value: the JSON key, the value, and how a person reads it.
struct Derived {
    std::string key;   // snake_case JSON key, e.g. "capacity_bytes"
    Value value;
    std::string label; // "Capacity"
    std::string text;  // "3.69 GiB (3963617280 bytes)"
};

struct DecodedRegister {
    RegKind kind{};
    CardFamily card{};
    std::vector<uint8_t> bytes;
    std::vector<Field> fields;
    std::vector<Derived> decoded;
    std::vector<std::string> warnings;
    std::string summary; // one line: what this register says, most useful first

    const Field* field(std::string_view name) const;
    const Derived* find(std::string_view key) const;
    // Convenience for decoders: add a derived value; text defaults to the value.
    void add(std::string key, Value value, std::string label, std::string text = {});
};

// Extra knowledge a decoder may need from another register.
struct DecodeContext {
    std::optional<int> ext_csd_rev; // MMC CID year rule depends on it
};

// Join spec tables at compile time, so layouts that share runs of fields
// (the CSD versions) write each run once.
template <std::size_t... N>
constexpr std::array<FieldSpec, (N + ...)> concat(const std::array<FieldSpec, N>&... parts)
{
    std::array<FieldSpec, (N + ...)> out{};
    std::size_t i = 0;
    ((std::copy(parts.begin(), parts.end(), out.begin() + static_cast<std::ptrdiff_t>(i)), i += N), ...);
    return out;
}

// Read every field of a bit-addressed table from a register image.
std::vector<Field> read_bit_fields(std::span<const uint8_t> reg, std::span<const FieldSpec> table);
// Read every field of a byte-indexed (EXT_CSD) table, little-endian.
std::vector<Field> read_byte_fields(std::span<const uint8_t> reg, std::span<const FieldSpec> table);

// Render a Value as plain text (lists comma separated).
std::string value_text(const Value& v);

} // namespace mmc::regs
