// Boot images: the plan's refusals (not a file, empty, larger than the
// partition, a protected boot area by BOOT_WP_STATUS or BOOT_WP and its
// area select bits, two images for one area), an image already in place
// dropped, and the write on a file standing in for the partition: force_ro
// cleared for the write and put back as it was, also when a stop signal
// ends the write early.
#include "tune/boot_image.h"
#include "tune/boot_image_write.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mmc::tune;
namespace fs = std::filesystem;

namespace {

// Two 1 MiB boot partitions (BOOT_SIZE_MULT 8), EXT_CSD_REV 8.
std::vector<uint8_t> ext_csd_with(uint8_t boot_wp, uint8_t boot_wp_status)
{
    std::vector<uint8_t> b(512, 0);
    b[192] = 8;
    b[226] = 8;
    b[173] = boot_wp;
    b[174] = boot_wp_status;
    return b;
}

BootImageFacts file_of(uint64_t bytes) { return {"", true, bytes, std::nullopt}; }

struct Scratch {
    fs::path dir;
    Scratch()
    {
        char pattern[] = "/tmp/mmckit-boot-image-XXXXXX";
        if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp");
        dir = pattern;
    }
    ~Scratch() { fs::remove_all(dir); }
    fs::path write(const std::string& name, const std::string& text)
    {
        std::ofstream(dir / name, std::ios::binary) << text;
        return dir / name;
    }
    std::string read(const std::string& name)
    {
        std::ifstream in(dir / name, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
};

} // namespace

TEST(TuneBootImage, ParsesAreaAndFile)
{
    EXPECT_EQ(parse_boot_image("1=u-boot.bin"), (BootImageRequest{1, "u-boot.bin"}));
    EXPECT_EQ(parse_boot_image("2=/a=b"), (BootImageRequest{2, "/a=b"}));
    for (const char* bad : {"3=x", "1=", "1", "=x", "boot0=x", "12=x"}) EXPECT_THROW(parse_boot_image(bad), std::invalid_argument) << bad;
}

TEST(TuneBootImage, PlansAnImageThatFits)
{
    const auto p = plan_boot_images(ext_csd_with(0, 0), {{1, "a"}, {2, "b"}}, {file_of(1024 * 1024), file_of(1)});
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.jobs.size(), 2u);
    EXPECT_EQ(p.jobs[0].partition_bytes, 1024u * 1024);
}

TEST(TuneBootImage, RefusesWhatIsNoImage)
{
    auto one = [](BootImageFacts f) { return plan_boot_images(ext_csd_with(0, 0), {{1, "img"}}, {f}); };
    const auto big = one(file_of(1024 * 1024 + 1));
    ASSERT_EQ(big.refusals.size(), 1u);
    EXPECT_NE(big.refusals[0].reason.find("larger than boot partition 1 (1 MiB: BOOT_SIZE_MULT [226] x 128 KiB)"), std::string::npos)
        << big.refusals[0].reason;
    EXPECT_TRUE(big.jobs.empty());
    EXPECT_NE(one(file_of(0)).refusals.at(0).reason.find("empty"), std::string::npos);
    EXPECT_NE(one({"", false, 0, std::nullopt}).refusals.at(0).reason.find("not a regular file"), std::string::npos);
    EXPECT_NE(one({"No such file or directory", false, 0, std::nullopt}).refusals.at(0).reason.find("No such file"), std::string::npos);
    auto none = ext_csd_with(0, 0);
    none[226] = 0;
    EXPECT_NE(plan_boot_images(none, {{1, "img"}}, {file_of(10)}).refusals.at(0).reason.find("no boot partitions"), std::string::npos);
    const auto twice = plan_boot_images(ext_csd_with(0, 0), {{1, "a"}, {1, "b"}}, {file_of(1), file_of(1)});
    ASSERT_EQ(twice.refusals.size(), 1u);
    EXPECT_TRUE(twice.jobs.empty());
}

TEST(TuneBootImage, AProtectedAreaIsRefusedByName)
{
    // BOOT_WP_STATUS: area 1 power-on (01), area 2 permanent (10 << 2).
    EXPECT_NE(boot_area_protected(ext_csd_with(0, 0x01), 1)->find("until the next power cycle (BOOT_WP_STATUS"), std::string::npos);
    EXPECT_FALSE(boot_area_protected(ext_csd_with(0, 0x01), 2));
    EXPECT_NE(boot_area_protected(ext_csd_with(0, 0x08), 2)->find("for good"), std::string::npos);
    // BOOT_WP without B_SEC_WP_SEL: both areas.
    EXPECT_TRUE(boot_area_protected(ext_csd_with(0x01, 0), 1));
    EXPECT_TRUE(boot_area_protected(ext_csd_with(0x01, 0), 2));
    EXPECT_NE(boot_area_protected(ext_csd_with(0x04, 0), 2)->find("B_PERM_WP_EN"), std::string::npos);
    // B_SEC_WP_SEL with B_PWR_WP_SEC_SEL: power-on protection of area 2 only.
    EXPECT_FALSE(boot_area_protected(ext_csd_with(0x83, 0), 1));
    EXPECT_TRUE(boot_area_protected(ext_csd_with(0x83, 0), 2));
    // ... B_PERM_WP_SEC_SEL clear: permanent protection of area 1 only.
    EXPECT_TRUE(boot_area_protected(ext_csd_with(0x84, 0), 1));
    EXPECT_FALSE(boot_area_protected(ext_csd_with(0x84, 0), 2));
    // Disable bits alone protect nothing.
    EXPECT_FALSE(boot_area_protected(ext_csd_with(0x50, 0), 1));
    const auto p = plan_boot_images(ext_csd_with(0x01, 0), {{2, "img"}}, {file_of(10)});
    ASSERT_EQ(p.refusals.size(), 1u);
    EXPECT_EQ(p.refusals[0].area, 2);
    EXPECT_NE(p.refusals[0].reason.find("boot partition 2 is write-protected until the next power cycle"), std::string::npos);
}

TEST(TuneBootImage, AnImageInPlaceIsNotWrittenAgain)
{
    BootImageFacts f = file_of(10);
    f.already_there = true;
    const auto p = plan_boot_images(ext_csd_with(0, 0), {{1, "img"}}, {f});
    EXPECT_TRUE(p.jobs.empty());
    EXPECT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.notes.size(), 1u);
}

TEST(TuneBootImage, LoadsOnlyRegularFilesWithinTheCap)
{
    Scratch s;
    const auto small = load_boot_image(s.write("small", "abc").string(), 4);
    EXPECT_TRUE(small.facts.regular);
    EXPECT_EQ(small.facts.bytes, 3u);
    EXPECT_EQ(small.bytes.size(), 3u);
    const auto big = load_boot_image(s.write("big", std::string(10, 'x')).string(), 4);
    EXPECT_EQ(big.facts.bytes, 10u);
    EXPECT_TRUE(big.bytes.empty());
    ASSERT_EQ(::mkfifo((s.dir / "fifo").c_str(), 0600), 0);
    const auto fifo = load_boot_image((s.dir / "fifo").string(), 4); // must not block
    EXPECT_FALSE(fifo.facts.regular);
    EXPECT_FALSE(load_boot_image(s.dir.string(), 4).facts.regular);
    EXPECT_FALSE(load_boot_image((s.dir / "missing").string(), 4).facts.error.empty());
}

TEST(TuneBootImage, WritesReadsBackAndPutsForceRoBack)
{
    Scratch s;
    s.write("boot0", std::string(300 * 1024, '\0'));
    s.write("force_ro", "1\n");
    const mmc::dev::BootAreaNode area{(s.dir / "boot0").string(), s.dir / "force_ro", 1024 * 1024};
    std::string image(200 * 1024 + 7, '\0');
    for (std::size_t i = 0; i < image.size(); ++i) image[i] = static_cast<char>(i * 7 + 3);
    const std::vector<uint8_t> bytes(image.begin(), image.end());
    std::atomic<bool> stop{false};
    const auto out = write_boot_image(area, bytes, stop);
    EXPECT_TRUE(out.force_ro_was);
    EXPECT_EQ(s.read("boot0").substr(0, image.size()), image);
    EXPECT_EQ(s.read("force_ro"), "1\n");
    // force_ro 0 stays 0.
    s.write("force_ro", "0\n");
    EXPECT_FALSE(write_boot_image(area, bytes, stop).force_ro_was);
    EXPECT_EQ(s.read("force_ro"), "0\n");
}

TEST(TuneBootImage, AStopSignalEndsTheWriteWithForceRoBack)
{
    Scratch s;
    s.write("boot0", std::string(300 * 1024, 'z'));
    s.write("force_ro", "1\n");
    const mmc::dev::BootAreaNode area{(s.dir / "boot0").string(), s.dir / "force_ro", 1024 * 1024};
    const std::vector<uint8_t> bytes(200 * 1024, 0x5a);
    std::atomic<bool> stop{true};
    try {
        write_boot_image(area, bytes, stop);
        FAIL() << "not interrupted";
    } catch (const BootImageInterrupted& e) {
        EXPECT_NE(std::string(e.what()).find("force_ro is back at 1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(s.read("force_ro"), "1\n");
    EXPECT_EQ(s.read("boot0"), std::string(300 * 1024, 'z')); // stopped before the first chunk
}

TEST(TuneBootImage, AnUnwritableNodeFailsWithForceRoBack)
{
    Scratch s;
    s.write("force_ro", "1\n");
    const mmc::dev::BootAreaNode area{(s.dir / "nonexistent-dir" / "boot0").string(), s.dir / "force_ro", 1024 * 1024};
    std::atomic<bool> stop{false};
    EXPECT_THROW(write_boot_image(area, std::vector<uint8_t>(10, 1), stop), BootImageError);
    EXPECT_EQ(s.read("force_ro"), "1\n");
}
