#include "views/register_json.h"

#include "regs/hex.h"

namespace mmc::out {

nlohmann::ordered_json value_json(const regs::Value& value)
{
    return std::visit([](const auto& v) { return nlohmann::ordered_json(v); }, value);
}

nlohmann::ordered_json register_json(const regs::DecodedRegister& reg, std::string_view source)
{
    nlohmann::ordered_json j;
    j["hex"] = regs::to_hex(reg.bytes);
    j["source"] = source;
    j["card"] = regs::to_string(reg.card);
    auto& fields = j["fields"] = nlohmann::ordered_json::object();
    for (const auto& f : reg.fields) {
        if (f.text)
            fields[std::string(f.spec->name)] = *f.text;
        else
            fields[std::string(f.spec->name)] = f.raw;
    }
    auto& decoded = j["decoded"] = nlohmann::ordered_json::object();
    for (const auto& d : reg.decoded) decoded[d.key] = value_json(d.value);
    j["summary"] = reg.summary;
    j["warnings"] = reg.warnings;
    return j;
}

} // namespace mmc::out
