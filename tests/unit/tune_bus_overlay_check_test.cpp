// The overlay check on a real board tree (Debian's RockPro64 dtb, its
// provenance in tests/data/dt/rk3399-rockpro64.dtb.source): dtc, fdtoverlay
// and fdtget as the boot loader's path would take it.
#include "tune/bus_overlay_check.h"

#include <gtest/gtest.h>

using namespace mmc::tune;

namespace {

const char* const rockpro64 = "tests/data/dt/rk3399-rockpro64.dtb";

std::string overlay_on(const std::string& path, const std::string& properties)
{
    return "/dts-v1/;\n/plugin/;\n\n/ {\n\tfragment@0 {\n\t\ttarget-path = \"" + path +
           "\";\n\t\t__overlay__ {\n" + properties + "\t\t};\n\t};\n};\n";
}

} // namespace

TEST(TuneBusOverlayCheck, TheTargetsAreTheTargetPathAndTheOverlaysOwnProperties)
{
    const auto t = overlay_targets(overlay_on("/mmc@fe320000", "\t\t\tsd-uhs-sdr104;\n\t\t\tmax-frequency = <150000000>; // the mode's\n"
                                                               "\t\t\t/delete-property/ no-1-8-v;\n\t\t\tchild { x; };\n"));
    EXPECT_EQ(t.path, "/mmc@fe320000");
    EXPECT_EQ(t.properties, (std::vector<std::string>{"sd-uhs-sdr104", "max-frequency"}));
}

TEST(TuneBusOverlayCheck, AnOverlayOnARealBoardsSdNodeAppliesAndItsPropertiesReadBack)
{
    const auto c = check_overlay(overlay_on("/mmc@fe320000", "\t\t\tsd-uhs-sdr104;\n\t\t\tmax-frequency = <100000000>;\n"), rockpro64);
    ASSERT_TRUE(c.ok) << testing::PrintToString(c.lines);
    ASSERT_EQ(c.lines.size(), 4u);
    EXPECT_EQ(c.lines[0], "dtc -@: the overlay compiles");
    EXPECT_EQ(c.lines[2], "fdtget: /mmc@fe320000 carries sd-uhs-sdr104");
}

TEST(TuneBusOverlayCheck, ANodeTheBoardDoesNotHaveFailsAtFdtoverlay)
{
    const auto c = check_overlay(overlay_on("/mmc@deadbeef", "\t\t\tsd-uhs-sdr104;\n"), rockpro64);
    EXPECT_FALSE(c.ok);
    ASSERT_EQ(c.lines.size(), 2u);
    EXPECT_EQ(c.lines[1].rfind("fdtoverlay failed", 0), 0u) << c.lines[1];
}

TEST(TuneBusOverlayCheck, AnOverlayThatDoesNotCompileOrNamesNothingIsNotOk)
{
    EXPECT_FALSE(check_overlay("/dts-v1/;\n/plugin/;\n/ { fragment@0 { target-path = \"/x\"; __overlay__ { a; }; }\n", rockpro64).ok);
    const auto none = check_overlay("/dts-v1/;\n/ { };\n", rockpro64);
    EXPECT_FALSE(none.ok);
    EXPECT_EQ(none.lines.at(0), "not checked: the overlay names no target-path or no property");
}
