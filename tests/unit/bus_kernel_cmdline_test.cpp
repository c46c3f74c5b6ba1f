// The sdhci debug quirk options read from a kernel command line as the
// kernel's parse_args and kstrtouint read them.
#include "bus/kernel_cmdline.h"

#include <gtest/gtest.h>

namespace {

using namespace mmc::bus;

std::optional<uint32_t> quirks2(const char* line)
{
    const auto c = parse_kernel_cmdline(line);
    return c.quirks2 ? c.quirks2->value : std::nullopt;
}

} // namespace

TEST(BusKernelCmdline, ValuesAsKstrtouintReadsThem)
{
    EXPECT_EQ(quirks2("console=tty1 sdhci.debug_quirks2=4 rootwait"), 4u);
    EXPECT_EQ(quirks2("sdhci.debug_quirks2=0x44"), 0x44u);
    EXPECT_EQ(quirks2("sdhci.debug_quirks2=010"), 8u); // octal
    EXPECT_EQ(quirks2("sdhci.debug_quirks2=+4"), 4u);
    EXPECT_FALSE(quirks2("sdhci.debug_quirks2=4x"));
    EXPECT_FALSE(quirks2("sdhci.debug_quirks2=08"));
    EXPECT_FALSE(quirks2("sdhci.debug_quirks2=0x1ffffffff"));
    EXPECT_FALSE(quirks2("sdhci.debug_quirks2="));
    EXPECT_FALSE(quirks2("sdhci.debug_quirks2"));
    const auto c = parse_kernel_cmdline("sdhci.debug_quirks2=4x");
    ASSERT_TRUE(c.quirks2);
    EXPECT_EQ(c.quirks2->written, "sdhci.debug_quirks2=4x");
}

TEST(BusKernelCmdline, WordsAsParseArgsSplitsThem)
{
    EXPECT_EQ(quirks2("sdhci.debug-quirks2=4"), 4u);                 // '-' and '_' alike
    EXPECT_EQ(quirks2("sdhci.debug_quirks2=\"4\""), 4u);             // a quoted value
    EXPECT_EQ(quirks2("\"sdhci.debug_quirks2=4\" quiet"), 4u);       // a quoted word
    EXPECT_EQ(quirks2("sdhci.debug_quirks2=4 sdhci.debug_quirks2=0x80"), 0x80u); // the last wins
    EXPECT_FALSE(quirks2("init=/bin/sh -- sdhci.debug_quirks2=4"));  // init's arguments
    EXPECT_FALSE(quirks2("xsdhci.debug_quirks2=4 sdhci.debug_quirks22=4"));
    EXPECT_FALSE(quirks2("a=\"b sdhci.debug_quirks2=4\""));           // inside another word's quotes
    const auto c = parse_kernel_cmdline("sdhci.debug_quirks=0x400000\tsdhci.debug_quirks2=4\n");
    ASSERT_TRUE(c.quirks);
    EXPECT_EQ(c.quirks->value, quirk_force_1_bit_data);
    EXPECT_EQ(c.quirks2->value, quirk2_no_1_8_v);
}

TEST(BusKernelCmdline, BitNamesFromSdhciH)
{
    EXPECT_EQ(sdhci_quirk2_names(4), "SDHCI_QUIRK2_NO_1_8_V");
    EXPECT_EQ(sdhci_quirk2_names(0xc0), "SDHCI_QUIRK2_BROKEN_HS200, SDHCI_QUIRK2_BROKEN_DDR50");
    EXPECT_EQ(sdhci_quirk2_names(1u << 20 | 1), "SDHCI_QUIRK2_HOST_OFF_CARD_ON, bit 20");
    EXPECT_EQ(sdhci_quirk_name(22), "SDHCI_QUIRK_FORCE_1_BIT_DATA");
}
