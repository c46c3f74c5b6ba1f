// dev::identify on the fixture trees: one identity and one set of typed facts
// per card, whoever asks.
#include "dev/discovery.h"
#include "dev/identify.h"

#include "sysfs_fixture.h"

#include <gtest/gtest.h>

using namespace mmc::dev;

TEST(Identify, OneFamilyMapping)
{
    EXPECT_EQ(family_of(CardType::sd), mmc::regs::CardFamily::sd);
    EXPECT_EQ(family_of(CardType::sd_combo), mmc::regs::CardFamily::sd);
    EXPECT_EQ(family_of(CardType::mmc), mmc::regs::CardFamily::mmc);
    EXPECT_FALSE(family_of(CardType::sdio));
    EXPECT_FALSE(family_of(CardType::unknown));
}

TEST(Identify, SdCardFromSysfs)
{
    const auto roots = sysfs_fixture("sd-qemu");
    const auto id = identify(*resolve("mmcblk0", roots).card, roots, {false});
    EXPECT_EQ(id.identity.name, "mmc0:4567");
    EXPECT_EQ(id.identity.type, "SD");
    EXPECT_EQ(id.identity.product, "QEMU!");
    EXPECT_EQ(id.identity.serial, "0xdeadbeef");
    EXPECT_EQ(id.identity.date, "2006-02");
    EXPECT_EQ(id.identity.capacity_bytes, uint64_t{4} << 30);
    EXPECT_EQ(id.identity.host, "mmc0");
    EXPECT_EQ(id.identity.device, "/dev/mmcblk0");
    EXPECT_EQ(id.identity.rca, 0x4567);
    EXPECT_EQ(id.facts.family, mmc::regs::CardFamily::sd);
    // SCR DATA_STAT_AFTER_ERASE = 0; the zeroed sysfs SSR gives no AU.
    EXPECT_EQ(id.facts.erased_byte, std::optional<uint8_t>(0x00));
    EXPECT_FALSE(id.facts.au_bytes);
    EXPECT_EQ(id.facts.ssr_source, "");
    EXPECT_FALSE(id.gathered.commands_work);
    EXPECT_EQ(id.gathered.commands_error, "card commands turned off");
}

TEST(Identify, EmmcEraseGroupAndErasedByteFromExtCsd)
{
    const auto roots = sysfs_fixture("emmc-cm4");
    const auto id = identify(*resolve("mmcblk1", roots).card, roots, {false});
    EXPECT_EQ(id.identity.type, "MMC");
    EXPECT_EQ(id.identity.product, "M8G1GC");
    EXPECT_EQ(id.facts.family, mmc::regs::CardFamily::mmc);
    // EXT_CSD from debugfs gives HC_ERASE_GRP_SIZE 8 (4 MiB), but its
    // ERASE_GROUP_DEF is 0: the kernel left the high-capacity groups off, so
    // the card erases by its CSD's group, (31 + 1) x (15 + 1) x 512 = 256 KiB.
    EXPECT_EQ(id.facts.erase_group_bytes, std::optional<uint64_t>(256u << 10));
    ASSERT_TRUE(id.facts.erased_byte);
}

TEST(Identify, IdentityJsonUsesNullForWhatTheCardDidNotGive)
{
    Card card;
    card.name = "mmc0:0001";
    card.type = CardType::mmc;
    card.rca = 1;
    const auto j = identity_json(identity_of(card, nullptr, SysRoots{}));
    EXPECT_EQ(j["name"], "mmc0:0001");
    EXPECT_EQ(j["rca"], "0x0001");
    EXPECT_TRUE(j["product"].is_null());
    EXPECT_TRUE(j["serial"].is_null());
    EXPECT_TRUE(j["device"].is_null()); // no block device
    EXPECT_EQ(j.size(), 11u);
}
