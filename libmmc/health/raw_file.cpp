#include "health/raw_file.h"

#include "cli/input.h"
#include "regs/hex.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mmc::health {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t max_cards = 64, max_layouts = 8, max_blocks = 8;

Json bool_or_null(const std::optional<bool>& v) { return v ? Json(*v) : Json(nullptr); }

[[noreturn]] void fail(const std::string& where, const std::string& why)
{
    throw RawFileError(fmt::format("{}: {}", where, why));
}

const Json& member(const Json& obj, const char* key, const std::string& where)
{
    if (!obj.is_object()) fail(where, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(where, fmt::format("\"{}\" is missing", key));
    return *it;
}

std::string string_of(const Json& v, const std::string& where)
{
    if (!v.is_string()) fail(where, "expected a string");
    return v.get<std::string>();
}

std::optional<bool> optional_bool(const Json& host, const char* key, const std::string& where)
{
    auto it = host.find(key);
    if (it == host.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean()) fail(where + "/" + key, "expected true, false or null");
    return it->get<bool>();
}

uint32_t arg_of(const Json& v, const std::string& where)
{
    const std::string s = string_of(v, where);
    const std::vector<uint8_t> bytes = [&] {
        try {
            return regs::parse_hex(s);
        } catch (const regs::HexError& e) {
            fail(where, e.what());
        }
    }();
    if (bytes.empty() || bytes.size() > 4) fail(where, "expected a 32-bit argument such as \"0x00000001\"");
    uint32_t arg = 0;
    for (uint8_t b : bytes) arg = (arg << 8) | b;
    return arg;
}

RawCard card_of(const Json& c, const std::string& where)
{
    RawCard card;
    card.name = string_of(member(c, "name", where), where + "/name");
    const auto family = regs::card_family_from_string(string_of(member(c, "family", where), where + "/family"));
    if (!family) fail(where + "/family", "expected \"sd\" or \"mmc\"");
    card.family = *family;

    const Json& registers = member(c, "registers", where);
    if (!registers.is_object()) fail(where + "/registers", "expected an object");
    for (const auto& [key, value] : registers.items()) {
        const std::string at = where + "/registers/" + key;
        const auto kind = regs::reg_kind_from_string(key);
        if (!kind) fail(at, "not a register kind");
        try {
            card.registers.push_back({*kind, regs::parse_register_hex(*kind, string_of(value, at)), "input"});
        } catch (const regs::HexError& e) {
            fail(at, e.what());
        }
    }

    if (auto it = c.find("cmd56"); it != c.end()) {
        if (!it->is_array()) fail(where + "/cmd56", "expected an array");
        if (it->size() > max_layouts) fail(where + "/cmd56", fmt::format("more than {} layouts", max_layouts));
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& r = (*it)[i];
            const std::string at = fmt::format("{}/cmd56/{}", where, i);
            Cmd56Read read;
            read.layout = string_of(member(r, "layout", at), at + "/layout");
            if (!find_layout(read.layout)) fail(at + "/layout", fmt::format("unknown layout; expected {}", layout_names()));
            if (auto e = r.find("error"); e != r.end()) read.error = string_of(*e, at + "/error");
            const Json& blocks = member(r, "blocks", at);
            if (!blocks.is_array()) fail(at + "/blocks", "expected an array");
            if (blocks.size() > max_blocks) fail(at + "/blocks", fmt::format("more than {} blocks", max_blocks));
            for (std::size_t j = 0; j < blocks.size(); ++j) {
                const std::string bat = fmt::format("{}/blocks/{}", at, j);
                Cmd56Block block;
                block.arg = arg_of(member(blocks[j], "arg", bat), bat + "/arg");
                const std::string hex = string_of(member(blocks[j], "hex", bat), bat + "/hex");
                try {
                    block.bytes = regs::parse_hex(hex);
                } catch (const regs::HexError& e) {
                    fail(bat + "/hex", e.what());
                }
                read.blocks.push_back(std::move(block));
            }
            card.cmd56.push_back(std::move(read));
        }
    }

    if (auto h = c.find("host"); h != c.end() && !h->is_null()) {
        if (!h->is_object()) fail(where + "/host", "expected an object");
        card.host.ro = optional_bool(*h, "ro", where + "/host");
        card.host.force_ro = optional_bool(*h, "force_ro", where + "/host");
        card.host.wp_gpios = optional_bool(*h, "wp_gpios", where + "/host");
        card.host.disable_wp = optional_bool(*h, "disable_wp", where + "/host");
    }
    return card;
}

} // namespace

std::string raw_file_text(const std::vector<RawCard>& cards, std::string_view tool, std::string_view version)
{
    Json doc;
    doc["format"] = raw_format_name;
    doc["format_version"] = raw_format_version;
    doc["tool"] = tool;
    doc["version"] = version;
    Json list = Json::array();
    for (const auto& c : cards) {
        Json card;
        card["name"] = c.name;
        card["family"] = regs::to_string(c.family);
        Json registers = Json::object();
        for (const auto& r : c.registers) registers[std::string(regs::to_string(r.kind))] = regs::to_hex(r.bytes);
        card["registers"] = registers;
        Json reads = Json::array();
        for (const auto& r : c.cmd56) {
            Json blocks = Json::array();
            for (const auto& b : r.blocks) blocks.push_back({{"arg", fmt::format("0x{:08x}", b.arg)}, {"hex", regs::to_hex(b.bytes)}});
            reads.push_back({{"layout", r.layout}, {"blocks", blocks}, {"error", r.error}});
        }
        card["cmd56"] = reads;
        card["host"] = {{"ro", bool_or_null(c.host.ro)},
                        {"force_ro", bool_or_null(c.host.force_ro)},
                        {"wp_gpios", bool_or_null(c.host.wp_gpios)},
                        {"disable_wp", bool_or_null(c.host.disable_wp)}};
        list.push_back(card);
    }
    doc["cards"] = list;
    return doc.dump(2) + "\n";
}

std::vector<RawCard> parse_raw_file(const std::string& text)
{
    Json doc;
    try {
        doc = cli::parse_json_capped(text);
    } catch (const Json::parse_error& e) {
        throw RawFileError(fmt::format("not JSON ({})", e.what()));
    }
    if (!doc.is_object()) fail("/", "expected an object");
    auto format = doc.find("format");
    if (format == doc.end() || !format->is_string() || format->get<std::string>() != raw_format_name)
        fail("/format", fmt::format("not a raw health file (expected \"{}\")", raw_format_name));
    const Json& version = member(doc, "format_version", "/");
    if (!version.is_number_integer() || version.get<int64_t>() != raw_format_version)
        fail("/format_version", fmt::format("expected {}", raw_format_version));
    const Json& cards = member(doc, "cards", "/");
    if (!cards.is_array()) fail("/cards", "expected an array");
    if (cards.size() > max_cards) fail("/cards", fmt::format("more than {} cards", max_cards));
    std::vector<RawCard> out;
    for (std::size_t i = 0; i < cards.size(); ++i) out.push_back(card_of(cards[i], fmt::format("/cards/{}", i)));
    return out;
}

HealthInput input_of(const RawCard& card)
{
    HealthInput in;
    in.registers = regs::decode_card(card.family, card.registers);
    in.cmd56 = card.cmd56;
    in.host = card.host;
    return in;
}

} // namespace mmc::health
