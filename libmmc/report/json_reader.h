// A tolerant reader of outside JSON (a bundle, a tool's document inside
// one): it takes what is there and, for a value of the wrong type, notes
// "WHERE.KEY: not a string; ignored" in a list of warnings and goes on.
// `where` is the dotted path of the object read ("card.classes",
// "verdicts[2]"; "" at the top).
#pragma once

#include "report/bundle.h"

#include <optional>
#include <string>
#include <vector>

namespace mmc::report {

// What no SD or MMC card reaches, with room to spare: SD Express over PCIe
// 4.0 x2 tops out near 4 GB/s and a few hundred thousand IOPS; SDUC's
// largest capacity is 128 TB (2^47 bytes). A figure above is dropped.
inline constexpr double max_mb_s = 10'000;
inline constexpr double max_iops = 10'000'000;
inline constexpr double max_capacity_bytes = 281474976710656.0; // 2^48

class JsonReader {
public:
    explicit JsonReader(std::vector<std::string>& warnings) : warnings_(warnings) {}

    // A string; a number as JSON writes it; "" when absent or null.
    std::string text(const json& obj, const char* key, const std::string& where);
    std::optional<double> number(const json& obj, const char* key, const std::string& where);
    // A figure that can be true of an SD/MMC card: finite, not negative, at
    // most max. Anything else is dropped with a warning, never drawn.
    std::optional<double> figure(const json& obj, const char* key, const std::string& where, double max, const char* unit);
    // The member, when it is an object (an array); nullptr when absent, null or of another type.
    const json* object(const json& obj, const char* key, const std::string& where);
    const json* array(const json& obj, const char* key, const std::string& where);

    void note(std::string text) { warnings_.push_back(std::move(text)); }

private:
    std::optional<double> drop(const std::string& name, const std::string& why);
    void warn(const std::string& where, const char* key, const char* want);
    std::vector<std::string>& warnings_;
};

} // namespace mmc::report
