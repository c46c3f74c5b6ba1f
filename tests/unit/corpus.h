// Shared plumbing for the tests that check decoders against the corpus of
// real register dumps, tests/data/registers.json: loading it, picking the
// entries of one kind, comparing a decoded value or a corpus key with the
// corpus value, counting what was checked, and building register images
// bit by bit.
#pragma once

#include "regs/register.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mmc::test {

// The whole corpus: a JSON array of entries. The path is MMCKIT_TEST_DATA when
// defined, else tests/data/registers.json (relative to the repository root).
// Throws std::runtime_error naming the path when it cannot be read or parsed.
nlohmann::json load_corpus();

// The entries whose "kind" is kind ("cid", "csd", "scr", ...), in corpus order.
std::vector<nlohmann::json> corpus_entries(std::string_view kind);

// The card family of an entry from its "card_type" ("SD" or "MMC"); throws
// std::runtime_error for anything else.
mmc::regs::CardFamily family_of(const nlohmann::json& entry);

// A decoded value against a corpus value of the same meaning. A JSON integer
// also matches a decoded bool (0/1); a JSON number matches a decoded double
// within 1e-9; a JSON array matches an IntList or a StringList.
testing::AssertionResult same_value(const mmc::regs::Value& v, const nlohmann::json& want);

// A corpus key against a decoded register. aliases maps a corpus key to
// "field:NAME" or "decoded:KEY" where the names differ or both exist; any
// other key is looked up as a field first, then as a decoded key. A field
// matches an integer by its raw value and a string by its text (PNM, SD OID);
// a key that maps to neither is a failure.
testing::AssertionResult check_corpus_key(const mmc::regs::DecodedRegister& r, const std::string& key,
                                          const nlohmann::json& want,
                                          const std::map<std::string, std::string>& aliases = {});

// What one corpus test went through; print() writes
// "[ corpus   ] KIND: N entries, M values checked" and, when something was
// skipped, ", K skipped (why)".
struct CorpusCount {
    explicit CorpusCount(std::string kind_name) : kind(std::move(kind_name)) {}

    std::string kind;
    int entries = 0;
    int values = 0;
    int skipped = 0;
    std::string skipped_why;

    void print() const;
};

// Checks the expected.computed_values of every corpus entry of one kind. For
// each entry (SCOPED_TRACE names the card) decode(entry, r) fills r; it may
// make its own assertions about the entry, and a fatal one ends the run. Then
// every computed key is checked with check(r, key, want), or with
// check_corpus_key and aliases. Expects at least one entry and one value;
// prints the count ("SCR: ...") and returns it.
using EntryDecode = std::function<void(const nlohmann::json& entry, mmc::regs::DecodedRegister& r)>;
using KeyCheck = std::function<testing::AssertionResult(const mmc::regs::DecodedRegister& r, const std::string& key,
                                                        const nlohmann::json& want)>;
CorpusCount check_computed_values(std::string_view kind, const EntryDecode& decode, const KeyCheck& check);
CorpusCount check_computed_values(std::string_view kind, const EntryDecode& decode,
                                  const std::map<std::string, std::string>& aliases = {});

// Set bits [hi:lo] of a register image to value (bit 0 is the least
// significant bit of the last byte, as the SD and MMC specs number them).
template <std::size_t N>
void set_bits(std::array<uint8_t, N>& reg, int hi, int lo, uint64_t value)
{
    for (int bit = lo; bit <= hi; ++bit) {
        const auto byte = N - 1 - static_cast<std::size_t>(bit / 8);
        const auto mask = static_cast<uint8_t>(1u << (bit % 8));
        if ((value >> (bit - lo)) & 1)
            reg[byte] = static_cast<uint8_t>(reg[byte] | mask);
        else
            reg[byte] = static_cast<uint8_t>(reg[byte] & ~mask);
    }
}

} // namespace mmc::test
