#include "corpus.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <variant>

namespace mmc::test {

using mmc::regs::CardFamily;
using mmc::regs::DecodedRegister;
using mmc::regs::Derived;
using mmc::regs::Field;
using mmc::regs::IntList;
using mmc::regs::StringList;
using mmc::regs::Value;
using nlohmann::json;

json load_corpus()
{
#ifdef MMCKIT_TEST_DATA
    const std::string path = MMCKIT_TEST_DATA;
#else
    const std::string path = "tests/data/registers.json";
#endif
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open the register corpus " + path +
                                 " (run the tests from the repository root)");
    try {
        json corpus = json::parse(in);
        if (!corpus.is_array()) throw std::runtime_error("the register corpus " + path + " is not a JSON array");
        return corpus;
    } catch (const json::exception& e) {
        throw std::runtime_error("cannot parse the register corpus " + path + ": " + e.what());
    }
}

std::vector<json> corpus_entries(std::string_view kind)
{
    std::vector<json> out;
    for (auto& e : load_corpus())
        if (e.value("kind", "") == kind) out.push_back(std::move(e));
    return out;
}

CardFamily family_of(const json& entry)
{
    const std::string type = entry.value("card_type", "");
    if (type == "SD") return CardFamily::sd;
    if (type == "MMC") return CardFamily::mmc;
    throw std::runtime_error("corpus entry \"" + entry.value("card", "?") + "\" has card_type \"" + type +
                             "\", not SD or MMC");
}

testing::AssertionResult same_value(const Value& v, const json& want)
{
    if (want.is_boolean()) {
        if (const auto* b = std::get_if<bool>(&v); b && *b == want.get<bool>()) return testing::AssertionSuccess();
    } else if (want.is_number()) {
        if (const auto* d = std::get_if<double>(&v); d && std::abs(*d - want.get<double>()) < 1e-9)
            return testing::AssertionSuccess();
        if (want.is_number_integer()) {
            const auto w = want.get<int64_t>();
            if (const auto* i = std::get_if<int64_t>(&v); i && *i == w) return testing::AssertionSuccess();
            if (const auto* b = std::get_if<bool>(&v); b && int64_t{*b} == w) return testing::AssertionSuccess();
        }
    } else if (want.is_string()) {
        if (const auto* s = std::get_if<std::string>(&v); s && *s == want.get<std::string>())
            return testing::AssertionSuccess();
    } else if (want.is_array()) {
        if (const auto* l = std::get_if<StringList>(&v); l && want.get<StringList>() == *l)
            return testing::AssertionSuccess();
        if (const auto* l = std::get_if<IntList>(&v); l && want.get<IntList>() == *l)
            return testing::AssertionSuccess();
    }
    return testing::AssertionFailure() << "decoded " << mmc::regs::value_text(v) << ", corpus " << want.dump();
}

namespace {

testing::AssertionResult field_matches(const Field& f, const std::string& name, const json& want)
{
    if (want.is_string()) {
        if (!f.text) return testing::AssertionFailure() << "field " << name << " has no text, corpus " << want.dump();
        if (*f.text == want.get<std::string>()) return testing::AssertionSuccess();
        return testing::AssertionFailure() << "field " << name << " text \"" << *f.text << "\", corpus " << want.dump();
    }
    if (want.is_number_integer()) {
        if (f.raw == want.get<uint64_t>()) return testing::AssertionSuccess();
        return testing::AssertionFailure() << "field " << name << " = " << f.raw << ", corpus " << want.dump();
    }
    return testing::AssertionFailure() << "field " << name << " compared with " << want.dump()
                                       << ", neither an integer nor a string";
}

} // namespace

testing::AssertionResult check_corpus_key(const DecodedRegister& r, const std::string& key, const json& want,
                                          const std::map<std::string, std::string>& aliases)
{
    if (const auto a = aliases.find(key); a != aliases.end()) {
        const std::string& target = a->second;
        if (target.rfind("field:", 0) == 0) {
            const std::string name = target.substr(6);
            const Field* f = r.field(name);
            if (!f) return testing::AssertionFailure() << "corpus key " << key << " -> missing field " << name;
            return field_matches(*f, name, want);
        }
        if (target.rfind("decoded:", 0) == 0) {
            const std::string name = target.substr(8);
            const Derived* d = r.find(name);
            if (!d) return testing::AssertionFailure() << "corpus key " << key << " -> missing decoded " << name;
            return same_value(d->value, want);
        }
        return testing::AssertionFailure() << "alias of " << key << " is \"" << target
                                           << "\", not field:NAME or decoded:KEY";
    }
    if (const Field* f = r.field(key)) return field_matches(*f, key, want);
    if (const Derived* d = r.find(key)) return same_value(d->value, want);
    return testing::AssertionFailure() << "corpus key " << key << " maps to no field or decoded value";
}

void CorpusCount::print() const
{
    std::printf("[ corpus   ] %s: %d entries, %d values checked", kind.c_str(), entries, values);
    if (skipped) std::printf(", %d skipped (%s)", skipped, skipped_why.c_str());
    std::printf("\n");
    std::fflush(stdout);
}

CorpusCount check_computed_values(std::string_view kind, const EntryDecode& decode, const KeyCheck& check)
{
    std::string label(kind);
    for (auto& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CorpusCount count(label);
    for (const auto& e : corpus_entries(kind)) {
        SCOPED_TRACE(e.value("card", "?"));
        DecodedRegister r;
        decode(e, r);
        if (testing::Test::HasFatalFailure()) break;
        for (const auto& [key, want] : e.at("expected").at("computed_values").items()) {
            EXPECT_TRUE(check(r, key, want)) << key;
            ++count.values;
        }
        ++count.entries;
    }
    EXPECT_GT(count.entries, 0) << "no " << kind << " entries in the corpus";
    EXPECT_GT(count.values, 0) << "no " << kind << " computed values in the corpus";
    count.print();
    return count;
}

CorpusCount check_computed_values(std::string_view kind, const EntryDecode& decode,
                                  const std::map<std::string, std::string>& aliases)
{
    const auto check = [&aliases](const DecodedRegister& r, const std::string& key, const json& want) {
        return check_corpus_key(r, key, want, aliases);
    };
    return check_computed_values(kind, decode, check);
}

} // namespace mmc::test
