// What mmc-bench learns about its target from sysfs: on the lab's SD card
// (a fixture tree) whose sysfs SSR is all zeros, the claims are unknown and
// the reason says why, from the register gathering's typed fact.
#include "bench/context.h"

#include "sysfs_fixture.h"

#include <gtest/gtest.h>
#include <sys/sysmacros.h>

TEST(BenchContext, AnAllZeroSysfsSsrLeavesTheClaimsUnknownAndSaysWhy)
{
    const auto ctx = mmc::bench::gather_context(makedev(179, 0), sysfs_fixture("sd-qemu"), false);
    ASSERT_TRUE(ctx.card) << ctx.not_card_why;
    EXPECT_FALSE(ctx.card->claims.known);
    EXPECT_EQ(ctx.card->claims_missing_why, "the SD status from sysfs is all zeros (the live ACMD13 needs root)");
}

TEST(BenchContext, ADeviceSysfsDoesNotKnowIsNotACard)
{
    const auto ctx = mmc::bench::gather_context(makedev(7, 99), sysfs_fixture("sd-qemu"), false);
    EXPECT_FALSE(ctx.card);
    EXPECT_EQ(ctx.not_card_why, "not on a block device");
}
