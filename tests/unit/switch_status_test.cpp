// CMD6 switch function status (64 bytes) with hand-built images.
#include "regs/bitfield.h"
#include "regs/decode.h"
#include "regs/hex.h"

#include <array>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mmc::regs;

namespace {

// A UHS-I card answering a mode 0 query: 200 mA; groups 6/5 default only;
// group 4 power limits 0-3, group 3 driver types B/A/C/D, group 2 default,
// eC and vendor specific; group 1 SDR12-DDR50. Bit 15 (argument 0xf) is set
// in every support field, as cards do. Selected: power 3, driver A, command
// system 0, SDR104. Version 1, group 1 function 3 busy.
std::vector<uint8_t> uhs_card()
{
    std::vector<uint8_t> s(64, 0);
    s[0] = 0x00, s[1] = 0xc8;   // max current 200 mA
    s[2] = 0x80, s[3] = 0x01;   // group 6 support
    s[4] = 0x80, s[5] = 0x01;   // group 5 support
    s[6] = 0x80, s[7] = 0x0f;   // group 4 support
    s[8] = 0x80, s[9] = 0x0f;   // group 3 support
    s[10] = 0xc0, s[11] = 0x03; // group 2 support
    s[12] = 0x80, s[13] = 0x1f; // group 1 support
    s[14] = 0x00;               // group 6 | group 5 selection
    s[15] = 0x31;               // group 4 | group 3 selection
    s[16] = 0x03;               // group 2 | group 1 selection
    s[17] = 0x01;               // data structure version
    s[28] = 0x00, s[29] = 0x08; // group 1 busy: function 3
    return s;
}

template <typename T>
const T& value(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    if (!d) throw std::runtime_error(std::string("missing ") + std::string(key));
    return std::get<T>(d->value);
}

} // namespace

TEST(SwitchStatus, FieldPositionsMatchLinuxByteOffsets)
{
    const auto s = uhs_card();
    const auto r = decode_switch_status(s);
    EXPECT_EQ(r.kind, RegKind::switch_status);
    EXPECT_EQ(r.field("max_current")->raw, 200u);
    // Linux: status[13] is group 1 support (low byte), status[9] group 3,
    // status[7] | status[6] << 8 group 4, status[16] & 0xf group 1 selection,
    // status[15] & 0xf group 3 and status[15] >> 4 group 4 selection.
    EXPECT_EQ(r.field("fun_grp1_support")->raw & 0xff, s[13]);
    EXPECT_EQ(r.field("fun_grp3_support")->raw & 0xff, s[9]);
    EXPECT_EQ(r.field("fun_grp4_support")->raw, static_cast<uint64_t>(s[7] | s[6] << 8));
    EXPECT_EQ(r.field("fun_grp1_sel")->raw, s[16] & 0xfu);
    EXPECT_EQ(r.field("fun_grp2_sel")->raw, static_cast<uint64_t>(s[16] >> 4));
    EXPECT_EQ(r.field("fun_grp3_sel")->raw, s[15] & 0xfu);
    EXPECT_EQ(r.field("fun_grp4_sel")->raw, static_cast<uint64_t>(s[15] >> 4));
    EXPECT_EQ(r.field("fun_grp2_support")->raw, 0xc003u);
    EXPECT_EQ(r.field("data_structure_version")->raw, 1u);
    EXPECT_EQ(r.field("fun_grp1_busy")->raw, 0x0008u);
    EXPECT_EQ(r.field("fun_grp6_busy")->raw, 0u);
}

TEST(SwitchStatus, DecodesSupportedAndSelectedFunctions)
{
    const auto r = decode_switch_status(uhs_card());
    EXPECT_EQ(value<int64_t>(r, "max_current_ma"), 200);
    EXPECT_EQ(value<StringList>(r, "bus_speed_modes_supported"),
              (StringList{"SDR12/default", "SDR25/high speed", "SDR50", "SDR104", "DDR50"}));
    EXPECT_EQ(value<std::string>(r, "bus_speed_mode_selected"), "SDR104");
    EXPECT_EQ(value<StringList>(r, "driver_types_supported"), (StringList{"B", "A", "C", "D"}));
    EXPECT_EQ(value<std::string>(r, "driver_type_selected"), "A");
    EXPECT_EQ(value<IntList>(r, "current_limits_supported"), (IntList{200, 400, 600, 800}));
    EXPECT_EQ(value<std::string>(r, "power_limit_selected"), "2.88 W (800 mA)");
    EXPECT_EQ(value<StringList>(r, "command_system_supported"), (StringList{"default", "eC", "vendor specific"}));
    EXPECT_EQ(value<std::string>(r, "command_system_selected"), "default");
    EXPECT_EQ(value<int64_t>(r, "data_structure_version"), 1);
    EXPECT_EQ(value<StringList>(r, "busy_functions"), (StringList{"group 1 function 3"}));
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    EXPECT_EQ(r.summary, "supports SDR12, SDR25, SDR50, SDR104, DDR50; selected SDR104");
}

TEST(SwitchStatus, HighSpeedOnlyCard)
{
    auto s = uhs_card();
    s[13] = 0x03; // SDR12 and SDR25 (high speed)
    s[16] = 0x01; // selected high speed
    s[17] = 0x00; // version 0: no busy status
    s[29] = 0x00;
    const auto r = decode_switch_status(s);
    EXPECT_EQ(value<StringList>(r, "bus_speed_modes_supported"), (StringList{"SDR12/default", "SDR25/high speed"}));
    EXPECT_EQ(value<std::string>(r, "bus_speed_mode_selected"), "SDR25/high speed");
    EXPECT_EQ(r.find("busy_functions"), nullptr);
    EXPECT_EQ(r.summary, "supports SDR12, SDR25; selected SDR25");
}

TEST(SwitchStatus, UnsupportedSelectionWarns)
{
    auto s = uhs_card();
    s[16] = 0x0f; // group 1: 0xf
    s[0] = s[1] = 0; // max current 0: error
    const auto r = decode_switch_status(s);
    EXPECT_EQ(value<std::string>(r, "bus_speed_mode_selected"), "none (0xf: not supported)");
    EXPECT_EQ(value<int64_t>(r, "max_current_ma"), 0);
    ASSERT_EQ(r.warnings.size(), 2u);
    EXPECT_NE(r.warnings[0].find("maximum current is 0"), std::string::npos);
    EXPECT_NE(r.warnings[1].find("function group 1"), std::string::npos);
    EXPECT_EQ(r.summary, "supports SDR12, SDR25, SDR50, SDR104, DDR50; selected none (0xf: not supported)");
}

TEST(SwitchStatus, ParsesFromHex)
{
    const auto bytes = parse_register_hex(RegKind::switch_status,
                                          "00c880018001800f800fc003801f0031030100000000000000000000000800000000"
                                          "000000000000000000000000000000000000000000000000000000000000");
    EXPECT_EQ(decode_switch_status(bytes).summary, decode_switch_status(uhs_card()).summary);
}

TEST(SwitchStatus, TableCoversBits511To272)
{
    const auto table = switch_status_table();
    ASSERT_EQ(table.size(), 20u);
    std::set<int> used;
    for (const auto& f : table)
        for (int b = f.lo; b <= f.hi; ++b) EXPECT_TRUE(used.insert(b).second) << f.name;
    EXPECT_EQ(used.size(), 511u - 272u + 1u);
    EXPECT_EQ(*used.begin(), 272);
    EXPECT_EQ(*used.rbegin(), 511);
}

TEST(SwitchStatus, WrongSizeThrows)
{
    const std::vector<uint8_t> reg(63);
    EXPECT_THROW(decode_switch_status(reg), std::invalid_argument);
    EXPECT_THROW(decode(RegKind::switch_status, CardFamily::sd, std::vector<uint8_t>(65)), std::invalid_argument);
}
