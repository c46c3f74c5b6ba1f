// The kernel's partition node names, and the wait for a node udev makes.
#include "dev/partition_node.h"

#include <gtest/gtest.h>

using mmc::dev::partition_node;

TEST(DevPartitionNode, APAfterANameEndingInADigit)
{
    EXPECT_EQ(partition_node("/dev/mmcblk0", 1), "/dev/mmcblk0p1");
    EXPECT_EQ(partition_node("/dev/loop12", 2), "/dev/loop12p2");
    EXPECT_EQ(partition_node("/dev/nvme0n1", 1), "/dev/nvme0n1p1");
    EXPECT_EQ(partition_node("/dev/sda", 1), "/dev/sda1");
    EXPECT_EQ(partition_node("/dev/sdab", 15), "/dev/sdab15");
}

TEST(DevPartitionNode, WaitingEndsAtOnceForANodeThatIsThereAndAtTheLimitForOneThatIsNot)
{
    EXPECT_TRUE(mmc::dev::wait_for_block_node("/dev/loop-control-is-not-a-block-device", std::chrono::milliseconds(0)) == false);
    EXPECT_FALSE(mmc::dev::wait_for_block_node("/dev/null", std::chrono::milliseconds(100))); // a character device
}
