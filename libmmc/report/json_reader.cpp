#include "report/json_reader.h"

#include <cmath>
#include <fmt/format.h>

namespace mmc::report {

std::string JsonReader::text(const json& obj, const char* key, const std::string& where)
{
    if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return {};
    if (obj[key].is_string()) return obj[key].get<std::string>();
    if (obj[key].is_number()) return obj[key].dump();
    warn(where, key, "a string");
    return {};
}

std::optional<double> JsonReader::number(const json& obj, const char* key, const std::string& where)
{
    if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return std::nullopt;
    if (obj[key].is_number()) return obj[key].get<double>();
    warn(where, key, "a number");
    return std::nullopt;
}

std::optional<double> JsonReader::figure(const json& obj, const char* key, const std::string& where, double max, const char* unit)
{
    const auto v = number(obj, key, where);
    if (!v) return v;
    const std::string name = where.empty() ? key : where + "." + key;
    if (!std::isfinite(*v)) return drop(name, "is not a finite number");
    if (*v < 0) return drop(name, fmt::format("{} {} is negative", *v, unit));
    if (*v > max) return drop(name, fmt::format("{:g} {} is more than any SD/MMC card reaches ({:g} {})", *v, unit, max, unit));
    return v;
}

const json* JsonReader::object(const json& obj, const char* key, const std::string& where)
{
    if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return nullptr;
    if (obj[key].is_object()) return &obj[key];
    warn(where, key, "an object");
    return nullptr;
}

const json* JsonReader::array(const json& obj, const char* key, const std::string& where)
{
    if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return nullptr;
    if (obj[key].is_array()) return &obj[key];
    warn(where, key, "an array");
    return nullptr;
}

std::optional<double> JsonReader::drop(const std::string& name, const std::string& why)
{
    warnings_.push_back(fmt::format("{}: {}; ignored", name, why));
    return std::nullopt;
}

void JsonReader::warn(const std::string& where, const char* key, const char* want)
{
    warnings_.push_back(fmt::format("{}{}: not {}; ignored", where.empty() ? "" : where + ".", key, want));
}

} // namespace mmc::report
