// The EXT_CSD dumps of real eMMCs the mmc-tune emmc tests plan against
// (tests/data/tune/NAME.hex, made by make-fixtures.py), as bytes.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace mmc::test {

inline std::vector<uint8_t> tune_fixture(const std::string& name)
{
    std::ifstream in("tests/data/tune/" + name + ".hex");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string hex = ss.str();
    std::vector<uint8_t> out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

} // namespace mmc::test
