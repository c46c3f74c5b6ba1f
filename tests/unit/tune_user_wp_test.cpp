// User-area write protection: the group size rule (EXT_CSD with
// ERASE_GROUP_DEF, else the CSD), the CMD30/CMD31 data decoded on fixture
// bytes, the plan's alignment, refusals and dropped groups, and the steps
// carried out on a modelled device (USER_WP around CMD28, put back on an
// error, the read-back that catches a group that did not change).
#include "regs/write_protect_groups.h"
#include "tune/user_wp.h"
#include "tune/user_wp_apply.h"

#include <gtest/gtest.h>

using namespace mmc::tune;
using mmc::regs::WpType;

namespace {

// EXT_CSD of a sector-addressed 4 GiB device with 8 MiB high-capacity
// groups (HC_WP_GRP_SIZE 16 x HC_ERASE_GRP_SIZE 512 KiB) in use.
std::vector<uint8_t> hc_ext_csd()
{
    std::vector<uint8_t> b(512, 0);
    b[192] = 8;                                   // EXT_CSD_REV 8
    b[221] = 16, b[224] = 1;                      // 16 x 512 KiB
    b[175] = 1;                                   // ERASE_GROUP_DEF
    b[212] = 0x00, b[213] = 0x00, b[214] = 0x80;  // SEC_COUNT 0x800000: 4 GiB
    return b;
}

// QEMU 10's eMMC CSD for a card of 2 GiB or less (hw/sd/sd.c emmc_set_csd):
// ERASE_GRP_SIZE 23, ERASE_GRP_MULT 31, WP_GRP_SIZE 31, WP_GRP_ENABLE 1,
// WRITE_BL_LEN 9: (31 + 1) x (23 + 1) x (31 + 1) x 512 bytes = 12 MiB.
const std::vector<uint8_t> qemu_csd = {0xd0, 0x0e, 0x00, 0x0b, 0x0f, 0x5a, 0x80, 0x1f,
                                       0xff, 0xff, 0xdf, 0xff, 0x92, 0x60, 0x00, 0x01};

// Its EXT_CSD: 62 MiB user area (byte addressed), HC groups of 512 KiB
// declared but ERASE_GROUP_DEF clear.
std::vector<uint8_t> qemu_ext_csd()
{
    std::vector<uint8_t> b(512, 0);
    b[192] = 3;
    b[221] = 1, b[224] = 1;
    const uint32_t sectors = 62 * 2048;
    b[212] = sectors & 0xff, b[213] = (sectors >> 8) & 0xff, b[214] = (sectors >> 16) & 0xff;
    return b;
}

constexpr uint64_t MiB = 1024 * 1024;

UserWpListing listing_of(std::vector<WpType> types, uint64_t group, uint64_t user)
{
    UserWpListing l;
    l.group = {group, "test", std::nullopt};
    l.user_area_bytes = user;
    for (auto t : types) l.groups.push_back({t != WpType::none, t});
    l.protected_runs = protected_runs(l);
    return l;
}

// A device that keeps a type per group, protects with the kind USER_WP
// selects, and clears only temporary groups, as JESD84-B51 6.6.23 says.
struct ModelWp : WpDevice {
    std::vector<uint8_t> ext_csd;
    uint64_t group;
    bool sector;
    std::vector<WpType> types;
    bool answers_cmd31 = true;
    bool ignores_cmd28 = false;
    int fail_at = -1; // protect() fails at this address index
    std::vector<std::string> log;

    ModelWp(std::vector<uint8_t> e, uint64_t g, std::size_t groups) : ext_csd(std::move(e)), group(g), types(groups, WpType::none)
    {
        sector = mmc::regs::sector_addressed(ext_csd);
    }
    std::size_t group_of(uint32_t a) const { return static_cast<std::size_t>((sector ? uint64_t{a} * 512 : a) / group); }
    std::vector<uint8_t> read_ext_csd() override { return ext_csd; }
    std::vector<std::array<uint8_t, 8>> write_prot_types(const std::vector<uint32_t>& addresses) override
    {
        if (!answers_cmd31) throw std::runtime_error("CMD31: Connection timed out");
        std::vector<std::array<uint8_t, 8>> out;
        for (auto a : addresses) {
            std::array<uint8_t, 8> d{};
            const std::size_t g = group_of(a);
            // The addressed group in the last two bits, the next in the two before.
            d[7] = static_cast<uint8_t>(static_cast<int>(types[g]) | (g + 1 < types.size() ? static_cast<int>(types[g + 1]) << 2 : 0));
            out.push_back(d);
        }
        return out;
    }
    std::vector<std::array<uint8_t, 4>> write_prot_bits(const std::vector<uint32_t>& addresses) override
    {
        std::vector<std::array<uint8_t, 4>> out;
        for (auto a : addresses) out.push_back({0, 0, 0, static_cast<uint8_t>(types[group_of(a)] != WpType::none)});
        return out;
    }
    void write_user_wp(uint8_t v) override
    {
        log.push_back("USER_WP=" + std::to_string(v));
        ext_csd[171] = v;
    }
    void protect(const std::vector<uint32_t>& addresses, bool set) override
    {
        for (std::size_t i = 0; i < addresses.size(); ++i) {
            if (static_cast<int>(i) == fail_at) throw std::runtime_error("CMD28 at address: card status 0x04000900");
            const auto a = addresses[i];
            log.push_back(std::string(set ? "CMD28 " : "CMD29 ") + std::to_string(a));
            auto& t = types[group_of(a)];
            if (!set) {
                if (t == WpType::temporary) t = WpType::none;
            } else if (!ignores_cmd28) {
                t = ext_csd[171] & 4 ? WpType::permanent : ext_csd[171] & 1 ? WpType::power_on : WpType::temporary;
            }
        }
    }
};

} // namespace

TEST(RegsWriteProtect, Cmd31DataTwoBitsPerGroupAddressedLast)
{
    // Last byte 0xe4 = 11 10 01 00: groups 0-3 none, temporary, power-on,
    // permanent; first byte 0x40: group 31 temporary.
    const std::vector<uint8_t> data = {0x40, 0, 0, 0, 0, 0, 0, 0xe4};
    const auto t = mmc::regs::wp_types_of(data);
    ASSERT_EQ(t.size(), 32u);
    EXPECT_EQ(t[0], WpType::none);
    EXPECT_EQ(t[1], WpType::temporary);
    EXPECT_EQ(t[2], WpType::power_on);
    EXPECT_EQ(t[3], WpType::permanent);
    EXPECT_EQ(t[4], WpType::none);
    EXPECT_EQ(t[31], WpType::temporary);
    EXPECT_EQ(t[30], WpType::none);
}

TEST(RegsWriteProtect, Cmd30DataOneBitPerGroup)
{
    const std::vector<uint8_t> data = {0x80, 0, 0, 0x05};
    const auto b = mmc::regs::wp_bits_of(data);
    EXPECT_TRUE(b[0]);
    EXPECT_FALSE(b[1]);
    EXPECT_TRUE(b[2]);
    EXPECT_TRUE(b[31]);
    EXPECT_FALSE(b[30]);
    EXPECT_THROW(mmc::regs::wp_bits_of(std::vector<uint8_t>(8, 0)), std::invalid_argument);
}

TEST(RegsWriteProtect, GroupByEraseGroupDef)
{
    const auto hc = mmc::regs::user_wp_group(hc_ext_csd(), {});
    ASSERT_TRUE(hc);
    EXPECT_EQ(hc->bytes, 8 * MiB);
    // ERASE_GROUP_DEF clear: the CSD's group, not the HC one it declares.
    const auto q = mmc::regs::user_wp_group(qemu_ext_csd(), qemu_csd);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->bytes, 12 * MiB);
    EXPECT_EQ(q->enabled, true);
    // No CSD known: the HC group is the only one there is.
    EXPECT_EQ(mmc::regs::user_wp_group(qemu_ext_csd(), {})->bytes, 512 * 1024u);
    // ERASE_GROUP_DEF set: the HC group even with a CSD.
    auto e = qemu_ext_csd();
    e[175] = 1;
    EXPECT_EQ(mmc::regs::user_wp_group(e, qemu_csd)->bytes, 512 * 1024u);
}

TEST(TuneUserWp, AddressesBySectorOrByte)
{
    EXPECT_EQ(wp_address(hc_ext_csd(), 16 * MiB), 16 * MiB / 512);
    EXPECT_EQ(wp_address(qemu_ext_csd(), 12 * MiB), 12 * MiB);
}

TEST(TuneUserWp, PlansEveryGroupOfARangeWithoutTheDevice)
{
    const auto p = plan_user_wp(hc_ext_csd(), {}, {{UserWpKind::temporary, 8 * MiB, 24 * MiB}}, false, std::nullopt);
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.steps.size(), 1u);
    EXPECT_EQ(p.steps[0].groups, (std::vector<uint64_t>{1, 2, 3}));
    EXPECT_EQ(p.steps[0].addresses, (std::vector<uint32_t>{16384, 32768, 49152}));
    EXPECT_EQ(p.steps[0].user_wp_during, 0);
    EXPECT_FALSE(p.one_time);
    EXPECT_EQ(p.notes.size(), 1u);
}

TEST(TuneUserWp, RefusesAMisalignedRangeWithTheNearest)
{
    const auto p = plan_user_wp(hc_ext_csd(), {}, {{UserWpKind::temporary, 3 * MiB, 8 * MiB}}, false, std::nullopt);
    ASSERT_EQ(p.refusals.size(), 1u);
    EXPECT_TRUE(p.steps.empty());
    EXPECT_NE(p.refusals[0].reason.find("the offset 3 MiB is not a multiple of the write protect group (8 MiB"), std::string::npos)
        << p.refusals[0].reason;
    EXPECT_NE(p.refusals[0].reason.find("the nearest are 0 bytes and 8 MiB"), std::string::npos);
    const auto s = plan_user_wp(hc_ext_csd(), {}, {{UserWpKind::temporary, 0, 12 * MiB}}, false, std::nullopt);
    ASSERT_EQ(s.refusals.size(), 1u);
    EXPECT_NE(s.refusals[0].reason.find("the size 12 MiB"), std::string::npos);
}

TEST(TuneUserWp, RefusalsOfTheRequest)
{
    // Past the end, permanent without the qualifier, a kind USER_WP disables,
    // overlapping ranges: each refused, and then nothing at all is planned.
    const auto past = plan_user_wp(hc_ext_csd(), {}, {{UserWpKind::none, 4096 * MiB, 8 * MiB}}, false, std::nullopt);
    ASSERT_EQ(past.refusals.size(), 1u);
    EXPECT_NE(past.refusals[0].reason.find("past the user area"), std::string::npos);

    const auto perm = plan_user_wp(hc_ext_csd(), {}, {{UserWpKind::permanent, 0, 8 * MiB}}, false, std::nullopt);
    ASSERT_EQ(perm.refusals.size(), 1u);
    EXPECT_NE(perm.refusals[0].reason.find(mention(Setting::permanent)), std::string::npos);
    const auto perm_ok = plan_user_wp(hc_ext_csd(), {}, {{UserWpKind::permanent, 0, 8 * MiB}}, true, std::nullopt);
    ASSERT_TRUE(perm_ok.refusals.empty());
    EXPECT_TRUE(perm_ok.one_time);
    EXPECT_EQ(perm_ok.steps[0].user_wp_during, 0x04);

    auto dis = hc_ext_csd();
    dis[171] = 0x18; // US_PERM_WP_DIS, US_PWR_WP_DIS
    EXPECT_EQ(plan_user_wp(dis, {}, {{UserWpKind::permanent, 0, 8 * MiB}}, true, std::nullopt).refusals.size(), 1u);
    EXPECT_EQ(plan_user_wp(dis, {}, {{UserWpKind::power_on, 0, 8 * MiB}}, true, std::nullopt).refusals.size(), 1u);
    // Temporary protection is not disabled by either; USER_WP keeps its disable bits.
    const auto temp = plan_user_wp(dis, {}, {{UserWpKind::temporary, 0, 8 * MiB}}, true, std::nullopt);
    ASSERT_TRUE(temp.refusals.empty());
    EXPECT_EQ(temp.steps[0].user_wp_during, 0x18);

    const auto overlap = plan_user_wp(hc_ext_csd(), {},
                                      {{UserWpKind::temporary, 0, 16 * MiB}, {UserWpKind::none, 8 * MiB, 8 * MiB}}, false,
                                      std::nullopt);
    ASSERT_EQ(overlap.refusals.size(), 1u);
    EXPECT_EQ(overlap.refusals[0].range, 1u);
    EXPECT_TRUE(overlap.steps.empty());
}

TEST(TuneUserWp, DropsGroupsAlreadySoAndRefusesLowering)
{
    const auto now = listing_of({WpType::temporary, WpType::none, WpType::power_on, WpType::permanent}, 8 * MiB, 32 * MiB);
    auto e = hc_ext_csd();
    e[212] = 0, e[213] = 0, e[214] = 0x01; // SEC_COUNT 65536: 32 MiB
    const auto p = plan_user_wp(e, {}, {{UserWpKind::temporary, 0, 16 * MiB}}, false, now);
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.steps.size(), 1u);
    EXPECT_EQ(p.steps[0].groups, (std::vector<uint64_t>{1}));
    EXPECT_EQ(p.steps[0].already, 1u);

    const auto all_so = plan_user_wp(e, {}, {{UserWpKind::temporary, 0, 8 * MiB}}, false, now);
    EXPECT_TRUE(all_so.steps.empty());
    EXPECT_TRUE(all_so.refusals.empty());

    const auto clear_pwr = plan_user_wp(e, {}, {{UserWpKind::none, 16 * MiB, 8 * MiB}}, false, now);
    ASSERT_EQ(clear_pwr.refusals.size(), 1u);
    EXPECT_NE(clear_pwr.refusals[0].reason.find("protected power-on, which lasts until the next power cycle"), std::string::npos);
    const auto clear_perm = plan_user_wp(e, {}, {{UserWpKind::temporary, 24 * MiB, 8 * MiB}}, false, now);
    ASSERT_EQ(clear_perm.refusals.size(), 1u);
    EXPECT_NE(clear_perm.refusals[0].reason.find("can never be cleared"), std::string::npos);
    // Power-on to permanent is a raise: allowed.
    EXPECT_TRUE(plan_user_wp(e, {}, {{UserWpKind::permanent, 16 * MiB, 8 * MiB}}, true, now).refusals.empty());
}

TEST(TuneUserWp, ListingMergesRunsByType)
{
    const auto l = listing_of({WpType::temporary, WpType::temporary, WpType::none, WpType::power_on, WpType::permanent}, 8 * MiB,
                              36 * MiB);
    ASSERT_EQ(l.protected_runs.size(), 3u);
    EXPECT_EQ(l.protected_runs[0].offset, 0u);
    EXPECT_EQ(l.protected_runs[0].bytes, 16 * MiB);
    EXPECT_EQ(l.protected_runs[0].groups, 2u);
    EXPECT_EQ(l.protected_runs[1].type, WpType::power_on);
    EXPECT_EQ(l.protected_runs[2].offset, 32 * MiB);
    EXPECT_EQ(l.protected_runs[2].bytes, 4 * MiB); // the last group is partial
}

TEST(TuneUserWp, ListsTypesByCmd31AndFallsBackToCmd30)
{
    ModelWp d(hc_ext_csd(), 8 * MiB, 512);
    d.types[1] = WpType::power_on;
    d.types[2] = WpType::temporary;
    auto l = list_user_wp(d, d.ext_csd, {});
    EXPECT_TRUE(l.types_known);
    EXPECT_EQ(l.groups.size(), 512u);
    ASSERT_EQ(l.protected_runs.size(), 2u);
    EXPECT_EQ(l.protected_runs[0].type, WpType::power_on);
    d.answers_cmd31 = false;
    l = list_user_wp(d, d.ext_csd, {});
    EXPECT_FALSE(l.types_known);
    EXPECT_NE(l.types_unknown_reason.find("CMD31"), std::string::npos);
    ASSERT_EQ(l.protected_runs.size(), 1u); // both protected, the kind unknown: one run
    EXPECT_EQ(l.protected_runs[0].groups, 2u);
    EXPECT_FALSE(l.protected_runs[0].type.has_value());
}

TEST(TuneUserWp, PowerOnSetsUserWpAroundCmd28AndPutsItBack)
{
    ModelWp d(hc_ext_csd(), 8 * MiB, 512);
    const auto now = list_user_wp(d, d.ext_csd, {});
    const auto p = plan_user_wp(d.ext_csd, {}, {{UserWpKind::power_on, 8 * MiB, 16 * MiB}}, false, now);
    ASSERT_TRUE(p.applicable());
    const auto before = d.ext_csd;
    const auto r = apply_user_wp(d, p, before, {});
    EXPECT_EQ(d.log, (std::vector<std::string>{"USER_WP=1", "CMD28 16384", "CMD28 32768", "USER_WP=0"}));
    EXPECT_EQ(d.types[1], WpType::power_on);
    EXPECT_EQ(d.types[2], WpType::power_on);
    EXPECT_EQ(d.types[3], WpType::none);
    EXPECT_EQ(r.ext_csd_after, before);
    ASSERT_EQ(r.after.protected_runs.size(), 1u);
    EXPECT_EQ(r.after.protected_runs[0].offset, 8 * MiB);
}

TEST(TuneUserWp, TemporaryNeedsNoUserWpWrite)
{
    ModelWp d(hc_ext_csd(), 8 * MiB, 512);
    const auto p = plan_user_wp(d.ext_csd, {}, {{UserWpKind::temporary, 0, 8 * MiB}}, false, list_user_wp(d, d.ext_csd, {}));
    apply_user_wp(d, p, d.ext_csd, {});
    EXPECT_EQ(d.log, (std::vector<std::string>{"CMD28 0"}));
}

TEST(TuneUserWp, AFailedCommandPutsUserWpBack)
{
    ModelWp d(hc_ext_csd(), 8 * MiB, 512);
    d.fail_at = 1;
    const auto p = plan_user_wp(d.ext_csd, {}, {{UserWpKind::power_on, 0, 16 * MiB}}, false, list_user_wp(d, d.ext_csd, {}));
    try {
        apply_user_wp(d, p, d.ext_csd, {});
        FAIL() << "no error";
    } catch (const ApplyError& e) {
        EXPECT_NE(std::string(e.what()).find("USER_WP put back to 0x00"), std::string::npos) << e.what();
    }
    EXPECT_EQ(d.ext_csd[171], 0);
    EXPECT_EQ(d.log.back(), "USER_WP=0");
}

TEST(TuneUserWp, ReadBackCatchesAGroupThatDidNotChange)
{
    ModelWp d(hc_ext_csd(), 8 * MiB, 512);
    d.ignores_cmd28 = true;
    const auto p = plan_user_wp(d.ext_csd, {}, {{UserWpKind::temporary, 0, 8 * MiB}}, false, list_user_wp(d, d.ext_csd, {}));
    try {
        apply_user_wp(d, p, d.ext_csd, {});
        FAIL() << "no error";
    } catch (const ApplyError& e) {
        EXPECT_NE(std::string(e.what()).find("group 0 reads none, planned temporary"), std::string::npos) << e.what();
    }
}

TEST(TuneUserWp, ChangedUserWpStopsTheWrite)
{
    ModelWp d(hc_ext_csd(), 8 * MiB, 512);
    const auto p = plan_user_wp(d.ext_csd, {}, {{UserWpKind::temporary, 0, 8 * MiB}}, false, list_user_wp(d, d.ext_csd, {}));
    d.ext_csd[171] = 0x01;
    EXPECT_THROW(apply_user_wp(d, p, hc_ext_csd(), {}), ApplyError);
    EXPECT_TRUE(d.log.empty());
}

TEST(TuneUserWp, KindsByTheirWords)
{
    for (auto k : {UserWpKind::temporary, UserWpKind::power_on, UserWpKind::permanent, UserWpKind::none})
        EXPECT_EQ(user_wp_kind(to_string(k)), k);
    EXPECT_FALSE(user_wp_kind("temp"));
    EXPECT_FALSE(user_wp_kind(""));
}
