// The register cross-check on the fixture trees: what an SD card and an
// eMMC say about their erase unit, and which claims agree with a measured AU.
#include "dev/discovery.h"
#include "dev/identify.h"
#include "probe/register_check.h"

#include "sysfs_fixture.h"

#include <gtest/gtest.h>

using namespace mmc;
using namespace mmc::probe;

namespace {
RegisterClaims claims_from_fixture(const char* tree, const char* block, std::optional<uint64_t> preferred)
{
    const auto roots = sysfs_fixture(tree);
    return claims_of(dev::identify(*dev::resolve(block, roots).card, roots, {false}), preferred);
}
const RegisterClaim& claim(const RegisterClaims& r, const std::string& key)
{
    for (const auto& c : r.claims)
        if (c.key == key) return c;
    throw std::runtime_error("no claim " + key);
}
} // namespace

// mmc-probe(1) documents one shape, {"bytes": N|null, "agrees": ...}: a
// script reading j["registers"][k]["bytes"] must not meet a string.
TEST(ProbeRegisterCheck, NoCardHasTheDocumentedShapeWithNulls)
{
    const auto j = cross_check_json(no_card_claims(), 4u << 20);
    ASSERT_EQ(j.size(), 4u);
    for (const auto& [k, v] : j.items()) {
        ASSERT_TRUE(v.is_object()) << k << ": " << v.dump();
        EXPECT_EQ(v.size(), 2u) << k;
        EXPECT_TRUE(v.at("bytes").is_null()) << k;
        EXPECT_TRUE(v.at("agrees").is_null()) << k;
    }
    EXPECT_EQ(cross_check_text(no_card_claims(), 4u << 20), "unknown (not an MMC/SD card)");
}

TEST(ProbeRegisterCheck, SdCardClaimsAgreeOrDiffer)
{
    const auto r = claims_from_fixture("sd-qemu", "mmcblk0", 4u << 20);
    ASSERT_TRUE(r.card);
    ASSERT_TRUE(claim(r, "preferred_erase_size").bytes);
    EXPECT_EQ(*claim(r, "preferred_erase_size").bytes, 4u << 20);
    EXPECT_FALSE(claim(r, "ext_csd_erase_group").bytes); // an SD card has no EXT_CSD
    const auto j = cross_check_json(r, 4u << 20);
    EXPECT_EQ(j["preferred_erase_size"]["agrees"], true);
    EXPECT_EQ(cross_check_json(r, 8u << 20)["preferred_erase_size"]["agrees"], false);
    EXPECT_TRUE(cross_check_json(r, std::nullopt)["preferred_erase_size"]["agrees"].is_null());
    EXPECT_TRUE(j["ext_csd_erase_group"]["bytes"].is_null());
    if (const auto& csd = claim(r, "csd_sector_size"); csd.bytes) {
        EXPECT_EQ(j["csd_sector_size"]["bytes"], *csd.bytes);
    }
}

TEST(ProbeRegisterCheck, EmmcHasAnEraseGroup)
{
    const auto r = claims_from_fixture("emmc-cm4", "mmcblk1", std::nullopt);
    ASSERT_TRUE(r.card);
    EXPECT_EQ(claim(r, "csd_sector_size").label, "CSD ERASE_GRP_SIZE");
    EXPECT_FALSE(claim(r, "ssr_au_size").bytes);
    EXPECT_TRUE(claim(r, "csd_sector_size").bytes);
}
