// The raw health file (--save-raw, --from): a round trip keeps every byte,
// and hostile input is refused with where and why, never a crash.
#include "cli/input.h"
#include "health/raw_file.h"
#include "health_blocks.h"
#include "regs/hex.h"

#include <random>

using namespace mmc::health;

namespace {

RawCard sample()
{
    RawCard c;
    c.name = "mmc0:aaaa";
    c.family = mmc::regs::CardFamily::sd;
    c.registers.push_back({mmc::regs::RegKind::cid, mmc::regs::parse_hex("035344534336344780ffffffff0172a3"), "sysfs"});
    mmc::test::BlockBuilder b;
    b.text(0, "DS").u8(8, 12);
    c.cmd56.push_back({"sandisk", {b.block(1)}, ""});
    c.host.ro = false;
    c.host.wp_gpios = true;
    return c;
}

std::string expect_refused(const std::string& text)
{
    try {
        parse_raw_file(text);
    } catch (const RawFileError& e) {
        return e.what();
    } catch (const mmc::cli::InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted: " << text.substr(0, 80);
    return {};
}

} // namespace

TEST(HealthRawFile, RoundTripKeepsEverything)
{
    const auto text = raw_file_text({sample()}, "mmc-health", "0.1.0");
    const auto back = parse_raw_file(text);
    ASSERT_EQ(back.size(), 1u);
    const auto& c = back[0];
    EXPECT_EQ(c.name, "mmc0:aaaa");
    EXPECT_EQ(c.family, mmc::regs::CardFamily::sd);
    ASSERT_EQ(c.registers.size(), 1u);
    EXPECT_EQ(c.registers[0].bytes, sample().registers[0].bytes);
    ASSERT_EQ(c.cmd56.size(), 1u);
    EXPECT_EQ(c.cmd56[0].layout, "sandisk");
    ASSERT_EQ(c.cmd56[0].blocks.size(), 1u);
    EXPECT_EQ(c.cmd56[0].blocks[0].arg, 1u);
    EXPECT_EQ(c.cmd56[0].blocks[0].bytes, sample().cmd56[0].blocks[0].bytes);
    EXPECT_EQ(c.host.ro, false);
    EXPECT_EQ(c.host.force_ro, std::nullopt);
    EXPECT_EQ(c.host.wp_gpios, true);
    EXPECT_EQ(raw_file_text(back, "mmc-health", "0.1.0"), text);
    EXPECT_EQ(assess(input_of(c)).readings.at(0).wear.life_used_percent, 12);
}

TEST(HealthRawFile, HostileInputIsRefusedWithWhere)
{
    const auto good = raw_file_text({sample()}, "mmc-health", "0.1.0");
    EXPECT_NE(expect_refused(good.substr(0, good.size() / 2)).find("not JSON"), std::string::npos);
    EXPECT_NE(expect_refused("[]").find("expected an object"), std::string::npos);
    EXPECT_NE(expect_refused(R"({"format":"x"})").find("/format"), std::string::npos);
    EXPECT_NE(expect_refused(R"({"format":"mmckit-health-raw","format_version":2,"cards":[]})").find("/format_version"),
              std::string::npos);
    auto doc = nlohmann::ordered_json::parse(good);
    auto refused_with = [&](auto edit) {
        auto d = doc;
        edit(d);
        return expect_refused(d.dump());
    };
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["registers"]["cid"] = "0353"; }).find("/cards/0/registers/cid"),
              std::string::npos);
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["registers"]["bogus"] = "00"; }).find("not a register kind"),
              std::string::npos);
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["family"] = "usb"; }).find("/cards/0/family"), std::string::npos);
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["cmd56"][0]["layout"] = "samsung"; }).find("unknown layout"),
              std::string::npos);
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["cmd56"][0]["blocks"][0]["hex"] = "xyz"; })
                  .find("/cards/0/cmd56/0/blocks/0/hex"),
              std::string::npos);
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["cmd56"][0]["blocks"][0]["arg"] = "0x0102030405"; })
                  .find("32-bit"),
              std::string::npos);
    EXPECT_NE(refused_with([](auto& d) { d["cards"][0]["host"]["ro"] = "yes"; }).find("/cards/0/host/ro"), std::string::npos);
    EXPECT_NE(refused_with([](auto& d) {
                  for (int i = 0; i < 65; ++i) d["cards"].push_back(d["cards"][0]);
              }).find("more than 64 cards"),
              std::string::npos);
    EXPECT_FALSE(expect_refused(std::string(100, '[') + std::string(100, ']')).empty());
}

TEST(HealthRawFile, AnOversizedOrTruncatedBlockDecodesAsNoHealthData)
{
    auto c = sample();
    c.cmd56[0].blocks[0].bytes.resize(4096, 0x44);
    auto report = assess(input_of(parse_raw_file(raw_file_text({c}, "t", "v"))[0]));
    EXPECT_TRUE(report.readings.empty());
    EXPECT_NE(report.no_data.at(0).why.find("4096 bytes"), std::string::npos);
    c.cmd56[0].blocks[0].bytes.resize(17);
    report = assess(input_of(parse_raw_file(raw_file_text({c}, "t", "v"))[0]));
    EXPECT_NE(report.no_data.at(0).why.find("17 bytes"), std::string::npos);
}

TEST(HealthRawFile, RandomBytesNeverCrash)
{
    std::mt19937 rng(2025);
    for (int i = 0; i < 300; ++i) {
        std::string text(static_cast<std::size_t>(rng() % 400), '\0');
        for (auto& ch : text) ch = static_cast<char>(rng());
        if (i % 3 == 0) text = "{\"format\":\"mmckit-health-raw\",\"format_version\":1,\"cards\":[" + text;
        EXPECT_FALSE(expect_refused(text).empty());
    }
}
