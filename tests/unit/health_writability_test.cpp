// Every reason a card cannot be written, from the facts passed in.
#include "health/writability.h"
#include "health_blocks.h"
#include "regs/hex.h"

using namespace mmc::health;
using mmc::regs::CardFamily;
using mmc::regs::RegKind;

namespace {

// The SD CSD of a QEMU card (mmc-info's own test data), with the two WP bits settable.
std::vector<uint8_t> sd_csd(bool perm, bool tmp)
{
    auto csd = mmc::regs::parse_hex("400e00325b5900001fff7f800a400000");
    if (perm) csd[14] |= 0x20; // bit 13
    if (tmp) csd[14] |= 0x10;  // bit 12
    return csd;
}

mmc::regs::CardRegisters sd_with(std::vector<mmc::regs::RawRegister> raws)
{
    return mmc::regs::decode_card(CardFamily::sd, raws);
}

bool has(const Writability& w, WpCause c)
{
    for (const auto& r : w.reasons)
        if (r.cause == c) return true;
    return false;
}

} // namespace

TEST(HealthWritability, NothingKnownIsUnknown)
{
    const auto w = assess_writability({}, {}, {});
    EXPECT_EQ(w.writable, std::nullopt);
    EXPECT_TRUE(w.reasons.empty());
}

TEST(HealthWritability, AWritableCard)
{
    HostFacts host;
    host.ro = false;
    host.force_ro = false;
    const auto w = assess_writability(sd_with({{RegKind::csd, sd_csd(false, false), "input"}}), host, {});
    EXPECT_EQ(w.writable, true);
    EXPECT_TRUE(w.reasons.empty());
}

TEST(HealthWritability, SdReadOnlyWithoutForceRoIsTheSwitch)
{
    HostFacts host;
    host.ro = true;
    host.force_ro = false;
    const auto w = assess_writability(sd_with({}), host, {});
    EXPECT_EQ(w.writable, false);
    ASSERT_EQ(w.reasons.size(), 1u);
    EXPECT_EQ(w.reasons[0].cause, WpCause::host_switch);
    EXPECT_EQ(w.reasons[0].scope, WpScope::card);
    EXPECT_FALSE(w.reasons[0].permanent);
    EXPECT_NE(w.reasons[0].remedy.find("switch"), std::string::npos);
}

TEST(HealthWritability, DisableWpMeansTheSwitchIsIgnored)
{
    HostFacts host;
    host.ro = true;
    host.disable_wp = true;
    const auto w = assess_writability(sd_with({}), host, {});
    EXPECT_TRUE(has(w, WpCause::kernel_ro));
    EXPECT_FALSE(has(w, WpCause::host_switch));
}

TEST(HealthWritability, ForceRoIsTheAdministrators)
{
    HostFacts host;
    host.ro = true;
    host.force_ro = true;
    const auto w = assess_writability(sd_with({}), host, {});
    EXPECT_EQ(w.writable, false);
    EXPECT_TRUE(has(w, WpCause::force_ro));
    EXPECT_FALSE(has(w, WpCause::host_switch));
}

TEST(HealthWritability, CsdBitsAndTheLock)
{
    auto regs = sd_with({{RegKind::csd, sd_csd(true, true), "input"}, {RegKind::status, {0x02, 0x00, 0x09, 0x00}, "input"}});
    const auto w = assess_writability(regs, {}, {});
    EXPECT_EQ(w.writable, false);
    ASSERT_TRUE(has(w, WpCause::csd_perm_write_protect));
    EXPECT_TRUE(has(w, WpCause::csd_tmp_write_protect));
    EXPECT_TRUE(has(w, WpCause::card_locked));
    for (const auto& r : w.reasons)
        if (r.cause == WpCause::csd_perm_write_protect) EXPECT_TRUE(r.permanent);
        else EXPECT_FALSE(r.permanent);
}

TEST(HealthWritability, EmmcBootAndGroupProtectionLeaveTheUserAreaWritable)
{
    std::vector<uint8_t> ext(512, 0);
    ext[192] = 8;
    ext[174] = 0x02 | (0x01 << 2); // boot0 permanent, boot1 power-on
    ext[171] = 0x01;               // US_PWR_WP_EN
    const auto regs = mmc::regs::decode_card(CardFamily::mmc, {{RegKind::ext_csd, ext, "input"}});
    const auto w = assess_writability(regs, {}, {});
    EXPECT_EQ(w.writable, true);
    ASSERT_EQ(w.reasons.size(), 2u);
    EXPECT_EQ(w.reasons[0].cause, WpCause::boot_area_protected);
    EXPECT_EQ(w.reasons[0].scope, WpScope::boot_areas);
    EXPECT_TRUE(w.reasons[0].permanent);
    EXPECT_NE(w.reasons[0].what.find("boot0 is write-protected permanently, boot1 until the next power cycle"),
              std::string::npos)
        << w.reasons[0].what;
    EXPECT_EQ(w.reasons[1].cause, WpCause::group_protection_enabled);
    EXPECT_EQ(w.reasons[1].scope, WpScope::groups);
}

TEST(HealthWritability, ProtectedGroupsAreNamedWithTheirKind)
{
    std::vector<uint8_t> ext(512, 0);
    ext[192] = 8;
    ext[171] = 0x01; // US_PWR_WP_EN: only what the next CMD28 would set
    const auto regs = mmc::regs::decode_card(CardFamily::mmc, {{RegKind::ext_csd, ext, "input"}});
    HostFacts host;
    host.user_wp_groups = std::vector<mmc::dev::ProtectedGroupRun>{{8u << 20, 16u << 20, mmc::regs::WpType::temporary},
                                                                   {1u << 30, 8u << 20, mmc::regs::WpType::permanent}};
    const auto w = assess_writability(regs, host, {});
    EXPECT_EQ(w.writable, true);
    ASSERT_TRUE(has(w, WpCause::group_protection_enabled));
    const auto& r = w.reasons.back();
    EXPECT_TRUE(r.permanent);
    EXPECT_NE(r.what.find("16 MiB at offset 8 MiB (temporary), 8 MiB at offset 1 GiB (1073741824 bytes) (permanent)"), std::string::npos)
        << r.what;
    // The card says no group is protected: USER_WP's bits alone are no reason.
    host.user_wp_groups = std::vector<mmc::dev::ProtectedGroupRun>{};
    EXPECT_FALSE(has(assess_writability(regs, host, {}), WpCause::group_protection_enabled));
}

TEST(HealthWritability, EndOfLifeIsARiskNotARefusal)
{
    Reading r;
    r.source = "ext_csd";
    r.wear.pre_eol = PreEol::urgent;
    HostFacts host;
    host.ro = false;
    const auto w = assess_writability(sd_with({}), host, {r});
    EXPECT_EQ(w.writable, true);
    ASSERT_TRUE(has(w, WpCause::end_of_life));
    EXPECT_TRUE(w.reasons.back().permanent);
}
