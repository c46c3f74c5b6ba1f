// The overlay check on a real board tree (Debian's RockPro64 dtb, its
// provenance in tests/data/dt/rk3399-rockpro64.dtb.source): dtc, fdtoverlay
// and fdtget as the boot loader's path would take it.
#include "tune/bus_overlay_check.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
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
    EXPECT_EQ(none.lines.at(0), "not checked: the overlay names no target or no property");
}

// By label: fdtoverlay resolves <&label> through the base tree's
// __symbols__, and the check reads the properties back at the path that
// entry names. The RockPro64's dtb has no __symbols__ (Debian builds
// without -@), so the label is added to a copy of it as dtc -@ would: the
// entry and a phandle on the node (fdtoverlay resolves the reference to it).
TEST(TuneBusOverlayCheck, ALabelTargetResolvesThroughTheBaseTreesSymbols)
{
    const std::string label_overlay = "/dts-v1/;\n/plugin/;\n\n/ {\n\tfragment@0 {\n\t\ttarget = <&sdmmc>;\n\t\t__overlay__ {\n"
                                      "\t\t\tmax-frequency = <100000000>;\n\t\t};\n\t};\n};\n";
    EXPECT_EQ(overlay_targets(label_overlay).label, "sdmmc");
    const auto without = check_overlay(label_overlay, rockpro64);
    EXPECT_FALSE(without.ok);
    ASSERT_EQ(without.lines.size(), 2u);
    EXPECT_EQ(without.lines[1].rfind("the base tree has no __symbols__ entry for sdmmc", 0), 0u) << without.lines[1];
    char tmpl[] = "/tmp/mmckit-ovl-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    const std::string with = std::string(tmpl) + "/with-symbols.dtb";
    ASSERT_EQ(std::system(("dtc -q -I dtb -O dts -o " + std::string(tmpl) + "/b.dts " + rockpro64 + " && printf '/ { __symbols__ { sdmmc = \"/mmc@fe320000\"; }; mmc@fe320000 { phandle = <0x7ffe>; }; };\\n' >>" +
                           std::string(tmpl) + "/b.dts && dtc -q -I dts -O dtb -o " + with + " " + std::string(tmpl) + "/b.dts").c_str()),
              0);
    const auto c = check_overlay(label_overlay, with);
    EXPECT_TRUE(c.ok) << testing::PrintToString(c.lines);
    EXPECT_NE(std::find(c.lines.begin(), c.lines.end(), "fdtget: label sdmmc is /mmc@fe320000"), c.lines.end()) << testing::PrintToString(c.lines);
    EXPECT_NE(std::find(c.lines.begin(), c.lines.end(), "fdtget: /mmc@fe320000 carries max-frequency"), c.lines.end());
    std::filesystem::remove_all(tmpl);
}
