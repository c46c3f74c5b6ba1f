// The device-tree reader on hostile text the fuzzer's short inputs hint at
// but cannot reach (scripts/fuzz dt): a long node name above many nodes was
// copied into every descendant's path, so 4 MiB of text under mmc-bus's
// 8 MiB cap asked for gigabytes. The paths now have a budget.
#include "bus/device_tree.h"

#include <gtest/gtest.h>
#include <string>

using mmc::bus::parse_dts;

TEST(DeviceTreeDts, ALongNameAboveManyNodesIsRefusedNotCopiedIntoEach)
{
    std::string text = std::string(1 << 20, 'x') + " {";
    for (int i = 0; i < 40; ++i) text += " a{};";
    const auto parsed = parse_dts(text + " };");
    EXPECT_FALSE(parsed.host);
    EXPECT_NE(parsed.error.find("node paths longer than 16 MiB in all; not a device tree of one board"), std::string::npos)
        << parsed.error;
}

TEST(DeviceTreeDts, ALongNameAboveAFewNodesIsStillRead)
{
    // The budget is for the whole tree, not a cap on one name.
    const auto parsed = parse_dts(std::string(1 << 20, 'x') + " { mmc@1 { compatible = \"snps,dw-mshc\"; bus-width = <4>; }; };");
    ASSERT_TRUE(parsed.host) << parsed.error;
    EXPECT_EQ(parsed.host->bus_width, 4u);
}
