// The typed facts of one register (regs/register_facts.h) against the real
// dumps in tests/data/registers.json, each fact checked against the value the
// corpus writes down for its spec field; the CM4's EXT_CSD from the sysfs
// fixture tree; built images for what the corpus lacks (switch status, card
// status); and the wrong kind and an absent register.
#include "corpus.h"
#include "regs/card_registers.h"
#include "regs/decode.h"
#include "regs/hex.h"
#include "regs/register_facts.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>

using namespace mmc::regs;
using namespace mmc::test;

namespace {

DecodedRegister decoded(const nlohmann::json& entry, RegKind kind)
{
    return decode(kind, family_of(entry), parse_register_hex(kind, entry.at("hex").get<std::string>()));
}

const nlohmann::json& computed(const nlohmann::json& entry) { return entry.at("expected").at("computed_values"); }

std::string read_file(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(RegsRegisterFacts, CsdAgainstTheCorpus)
{
    int checked = 0;
    for (const auto& e : corpus_entries("csd")) {
        const auto& want = computed(e);
        const CsdFacts f = csd_facts(decoded(e, RegKind::csd));
        SCOPED_TRACE(e.at("card").get<std::string>());
        EXPECT_EQ(f.csd_structure, want.at("csd_structure").get<int>());
        EXPECT_EQ(f.ccc, want.at("ccc").get<int>());
        const auto classes = want.at("ccc_classes").get<std::vector<int>>();
        EXPECT_EQ(f.erase_class, std::find(classes.begin(), classes.end(), 5) != classes.end());
        EXPECT_EQ(f.r2w_factor, want.at("r2w_factor").get<int>());
        EXPECT_EQ(f.perm_write_protect, want.at("perm_write_protect").get<int>() != 0);
        EXPECT_EQ(f.tmp_write_protect, want.at("tmp_write_protect").get<int>() != 0);
        // TAAC 0x0e is 1 ms (value 1.0, unit 1 ms), which SD CSD 2.0 fixes.
        if (want.at("taac").get<int>() == 0x0e) {
            EXPECT_EQ(f.taac_ns, 1'000'000);
        }
        if (family_of(e) == CardFamily::sd) {
            ASSERT_TRUE(f.erase_sector_bytes);
            EXPECT_EQ(*f.erase_sector_bytes,
                      (want.at("sector_size").get<uint64_t>() + 1) << want.at("write_bl_len").get<int>());
            EXPECT_FALSE(f.capacity_class.empty());
            EXPECT_FALSE(f.capacity_text.empty());
        } else {
            EXPECT_FALSE(f.erase_sector_bytes);
            EXPECT_TRUE(f.capacity_class.empty());
        }
        ++checked;
    }
    EXPECT_GE(checked, 18);
}

TEST(RegsRegisterFacts, SsrAgainstTheCorpus)
{
    int checked = 0;
    for (const auto& e : corpus_entries("ssr")) {
        const auto& want = computed(e);
        const SsrFacts f = ssr_facts(decoded(e, RegKind::ssr));
        SCOPED_TRACE(e.at("card").get<std::string>());
        EXPECT_EQ(f.speed_class.code, want.at("speed_class_raw").get<int>());
        EXPECT_EQ(f.speed_class_mb_s, want.at("speed_class").get<int>());
        EXPECT_EQ(f.speed_class.name, "C" + std::to_string(want.at("speed_class").get<int>()));
        EXPECT_EQ(f.uhs_speed_grade.code, want.at("uhs_speed_grade").get<int>());
        EXPECT_EQ(f.uhs_speed_grade.name, "U" + std::to_string(want.at("uhs_speed_grade").get<int>()));
        EXPECT_EQ(f.video_speed_class.code, want.at("video_speed_class").get<int>());
        EXPECT_EQ(f.app_perf_class.code, want.at("app_perf_class").get<int>());
        EXPECT_EQ(f.app_perf_class.name, "A" + std::to_string(want.at("app_perf_class").get<int>()));
        EXPECT_EQ(f.discard_support, want.at("discard_support").get<int>() != 0);
        EXPECT_EQ(f.fule_support, want.at("fule_support").get<int>() != 0);
        EXPECT_EQ(f.cache_support, want.at("perf_enh_cache_support").get<int>() != 0);
        // The corpus gives the CQ code (depth - 1); the fact is the depth.
        const int cq = want.at("perf_enh_cq_depth").get<int>();
        EXPECT_EQ(f.cq_depth, cq ? cq + 1 : 0);
        EXPECT_FALSE(f.au_text.empty());
        ++checked;
    }
    EXPECT_EQ(checked, 3);
}

TEST(RegsRegisterFacts, VideoClassNames)
{
    // The Extreme PRO claims V30; the SanDisk Ultra claims none.
    int named = 0;
    for (const auto& e : corpus_entries("ssr")) {
        const SsrFacts f = ssr_facts(decoded(e, RegKind::ssr));
        if (f.video_speed_class.code == 30) {
            EXPECT_EQ(f.video_speed_class.name, "V30");
            ++named;
        }
        if (f.video_speed_class.code == 0) {
            EXPECT_EQ(f.video_speed_class.name, "not supported");
            ++named;
        }
    }
    EXPECT_EQ(named, 3);
}

TEST(RegsRegisterFacts, OcrAgainstTheCorpus)
{
    int checked = 0, mmc = 0;
    for (const auto& e : corpus_entries("ocr")) {
        const auto& want = computed(e);
        const OcrFacts f = ocr_facts(decoded(e, RegKind::ocr));
        SCOPED_TRACE(e.at("card").get<std::string>());
        EXPECT_EQ(f.busy, want.at("busy_or_powerup_done_bit31").get<int>() != 0);
        EXPECT_EQ(f.s18a, want.at("s18a_bit24").get<int>() != 0);
        if (family_of(e) == CardFamily::mmc) ++mmc;
        ++checked;
    }
    EXPECT_EQ(checked, 10);
    EXPECT_EQ(mmc, 1); // an MMC OCR has no S18A: false, not a lookup failure
}

TEST(RegsRegisterFacts, OcrS18aFromARawR3)
{
    // A raw R3 with busy (bit 31), CCS (30) and S18A (24) set.
    const auto f = ocr_facts(decode_ocr(parse_register_hex(RegKind::ocr, "0xc1ff8000"), CardFamily::sd));
    EXPECT_TRUE(f.busy);
    EXPECT_TRUE(f.s18a);
}

TEST(RegsRegisterFacts, CidAgainstTheCorpus)
{
    int checked = 0;
    for (const auto& e : corpus_entries("cid")) {
        const auto& want = computed(e);
        const CidFacts f = cid_facts(decoded(e, RegKind::cid));
        SCOPED_TRACE(e.at("card").get<std::string>());
        EXPECT_EQ(f.mid, want.at("mid").get<int>());
        EXPECT_EQ(f.oid, want.at("oid").get<int>());
        EXPECT_EQ(f.pnm, want.at("pnm").get<std::string>());
        std::string trimmed = f.pnm;
        while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
        EXPECT_EQ(f.product_name, trimmed);
        EXPECT_FALSE(f.manufacturer.empty());
        EXPECT_EQ(f.date.size(), 7u); // YYYY-MM
        ++checked;
    }
    EXPECT_EQ(checked, 17);
}

TEST(RegsRegisterFacts, CidDateAndSerialFromLinuxSysfs)
{
    // Kingston SD64G: Linux printed date 05/2023 and serial 0x4890060a.
    for (const auto& e : corpus_entries("cid")) {
        const auto& source = e.at("expected").value("source_values", nlohmann::json::object());
        if (!source.contains("serial") || !source.at("serial").is_string()) continue;
        if (source.at("serial").get<std::string>() != "0x4890060a") continue;
        const CidFacts f = cid_facts(decoded(e, RegKind::cid));
        EXPECT_EQ(f.date, "2023-05");
        EXPECT_EQ(f.serial_hex, "0x4890060a");
        return;
    }
    FAIL() << "the Kingston SD64G CID is gone from the corpus";
}

TEST(RegsRegisterFacts, ExtCsdAgainstTheCorpus)
{
    int checked = 0;
    for (const auto& e : corpus_entries("ext_csd")) {
        const auto& want = computed(e);
        const ExtCsdFacts f = ext_csd_facts(decoded(e, RegKind::ext_csd));
        SCOPED_TRACE(e.at("card").get<std::string>());
        EXPECT_EQ(f.ext_csd_rev, want.at("ext_csd_rev").get<int>());
        EXPECT_EQ(f.mmc_version, "5.1/5.1A (EXT_CSD rev 1.8)");
        EXPECT_EQ(f.device_type, want.at("card_type_device_type").get<int>());
        EXPECT_EQ(f.sec_feature_support, want.at("sec_feature_support").get<int>());
        EXPECT_EQ(f.erase_group_def, want.at("erase_group_def").get<int>() != 0);
        EXPECT_EQ(f.erase_timeout_mult, want.at("erase_timeout_mult").get<int>());
        EXPECT_EQ(f.trim_mult, want.at("trim_mult").get<int>());
        EXPECT_EQ(f.life.typ_a, want.at("device_life_time_est_typ_a").get<int>());
        EXPECT_EQ(f.life.typ_b, want.at("device_life_time_est_typ_b").get<int>());
        EXPECT_EQ(f.life.pre_eol, want.at("pre_eol_info").get<int>());
        EXPECT_FALSE(f.life.typ_a_text.empty());
        EXPECT_FALSE(f.life.pre_eol_text.empty());
        EXPECT_FALSE(f.capacity_text.empty());
        ++checked;
    }
    EXPECT_EQ(checked, 2);
}

TEST(RegsRegisterFacts, ExtCsdOfTheCm4FixtureByByte)
{
    // The CM4's EXT_CSD as debugfs printed it: each fact is the byte the
    // spec puts it at.
    const std::string hex =
        read_file("tests/data/sysfs/emmc-cm4/sys/kernel/debug/mmc1/mmc1:0001/ext_csd");
    ASSERT_FALSE(hex.empty());
    const auto bytes = parse_register_hex(RegKind::ext_csd, hex);
    const ExtCsdFacts f = ext_csd_facts(decode_ext_csd(bytes));
    EXPECT_EQ(f.ext_csd_rev, bytes[192]);
    EXPECT_EQ(f.sec_feature_support, bytes[231]);
    EXPECT_EQ(f.trim_mult, bytes[232]);
    EXPECT_EQ(f.sec_erase_mult, bytes[230]);
    EXPECT_EQ(f.sec_trim_mult, bytes[229]);
    EXPECT_EQ(f.erase_timeout_mult, bytes[223]);
    EXPECT_EQ(f.device_type, bytes[196]);
    EXPECT_EQ(f.strobe_support, bytes[184] != 0);
    EXPECT_EQ(f.erase_group_def, (bytes[175] & 1) != 0);
    EXPECT_EQ(f.boot_wp_status, bytes[174]);
    EXPECT_EQ(f.user_wp, bytes[171]);
    EXPECT_EQ(f.life.pre_eol, bytes[267]);
    EXPECT_EQ(f.life.typ_a, bytes[268]);
    EXPECT_EQ(f.life.typ_b, bytes[269]);
    // Sanity: a real eMMC 5.x, with the multipliers a card gives.
    EXPECT_GE(f.ext_csd_rev, 7);
    EXPECT_NE(f.erase_timeout_mult, 0);
}

TEST(RegsRegisterFacts, SwitchStatusGroupOneSupport)
{
    std::array<uint8_t, 64> image{};
    set_bits(image, 415, 400, 0x801f); // SDR12..DDR50 and the default bit 15
    const auto f = switch_facts(decode_switch_status(image));
    EXPECT_EQ(f.fun_grp1_support, 0x801f);
}

TEST(RegsRegisterFacts, CardStatusLockAndErrors)
{
    // CARD_IS_LOCKED (25) and ERASE_PARAM (27) in an R1.
    const std::array<uint8_t, 4> locked{0x0a, 0x00, 0x09, 0x00};
    const auto f = status_facts(decode_card_status(locked, CardFamily::sd));
    EXPECT_TRUE(f.card_is_locked);
    EXPECT_EQ(f.errors, (StringList{"erase_param"}));
    const std::array<uint8_t, 4> clean{0x00, 0x00, 0x09, 0x00};
    const auto g = status_facts(decode_card_status(clean, CardFamily::mmc));
    EXPECT_FALSE(g.card_is_locked);
    EXPECT_TRUE(g.errors.empty());
}

TEST(RegsRegisterFacts, WrongKindAndAbsentRegister)
{
    const auto csd = decode_csd(parse_register_hex(RegKind::csd, "400e00325b5900001fff7f800a400000"), CardFamily::sd);
    EXPECT_THROW(ext_csd_facts(csd), std::invalid_argument);
    EXPECT_THROW(ssr_facts(csd), std::invalid_argument);
    const auto card = decode_card(CardFamily::sd, {{RegKind::csd, parse_register_hex(RegKind::csd, "400e00325b5900001fff7f800a400000"), "sysfs"}});
    EXPECT_TRUE(csd_facts(card));
    EXPECT_FALSE(ssr_facts(card));
    EXPECT_FALSE(ext_csd_facts(card));
    EXPECT_FALSE(cid_facts(card));
    EXPECT_FALSE(status_facts(card));
}
