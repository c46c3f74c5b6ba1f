// Manufacturer ID tables (regs/vendors.h) and their use by the CID decoder.
#include "regs/decode.h"
#include "regs/hex.h"
#include "regs/vendors.h"

#include <gtest/gtest.h>
#include <string>

using namespace mmc::regs;

TEST(VendorsSd, ToshibaNotSanDisk)
{
    // SD MID 0x02 is Toshiba (Kioxia), OID "TM"; SanDisk is 0x03.
    EXPECT_EQ(sd_manufacturer(0x02), "Toshiba (Kioxia)");
    EXPECT_EQ(sd_manufacturer(0x03), "SanDisk");
}

TEST(VendorsSd, KnownIds)
{
    EXPECT_EQ(sd_manufacturer(0x01), "Panasonic");
    EXPECT_EQ(sd_manufacturer(0x1b), "Samsung");
    EXPECT_EQ(sd_manufacturer(0x1d), "ADATA");
    EXPECT_EQ(sd_manufacturer(0x27), "Phison");
    EXPECT_EQ(sd_manufacturer(0x28), "Lexar");
    EXPECT_EQ(sd_manufacturer(0x31), "Silicon Power");
    EXPECT_EQ(sd_manufacturer(0x41), "Kingston");
    EXPECT_EQ(sd_manufacturer(0x74), "Transcend");
    EXPECT_EQ(sd_manufacturer(0x82), "Sony");
    EXPECT_EQ(sd_manufacturer(0x9f), "Kingston (shared ID)");
    EXPECT_EQ(sd_manufacturer(0xad), "Longsys (Lexar)");
}

TEST(VendorsSd, UnknownIds)
{
    // 0x89 appears in mmc-utils only as "Unknown".
    EXPECT_EQ(sd_manufacturer(0x89), "unknown (0x89)");
    EXPECT_EQ(sd_manufacturer(0x00), "unknown (0x00)");
    EXPECT_EQ(sd_manufacturer(0xff), "unknown (0xff)");
}

TEST(VendorsMmc, JedecIds)
{
    EXPECT_EQ(mmc_manufacturer(0x11), "Toshiba (Kioxia)");
    EXPECT_EQ(mmc_manufacturer(0x13), "Micron");
    EXPECT_EQ(mmc_manufacturer(0x15), "Samsung");
    EXPECT_EQ(mmc_manufacturer(0x45), "SanDisk");
    EXPECT_EQ(mmc_manufacturer(0x70), "Kingston");
    EXPECT_EQ(mmc_manufacturer(0x88), "Foresee (Longsys)");
    EXPECT_EQ(mmc_manufacturer(0x90), "SK Hynix");
    EXPECT_EQ(mmc_manufacturer(0x9b), "YMTC");
    EXPECT_EQ(mmc_manufacturer(0xfe), "Micron");
}

TEST(VendorsMmc, UnknownIds)
{
    EXPECT_EQ(mmc_manufacturer(0xab), "unknown (0xab)");
    EXPECT_EQ(mmc_manufacturer(0x01), "unknown (0x01)");
}

TEST(VendorsFamilies, TablesAreSeparate)
{
    // The same byte names different companies in the two ID spaces.
    EXPECT_EQ(sd_manufacturer(0x15), "unknown (0x15)");
    EXPECT_EQ(mmc_manufacturer(0x15), "Samsung");
    EXPECT_EQ(mmc_manufacturer(0x02), "SanDisk");
    EXPECT_EQ(sd_manufacturer(0x90), "unknown (0x90)");
}

TEST(VendorsFamilies, CidDecoderUsesFamilyTable)
{
    const auto bytes = parse_register_hex(RegKind::cid, "02544d534131364743001af44c0129e9");
    const auto sd = decode_cid(bytes, CardFamily::sd);
    EXPECT_EQ(std::get<std::string>(sd.find("manufacturer")->value), "Toshiba (Kioxia)");
    const auto mmc = decode_cid(bytes, CardFamily::mmc, {6});
    EXPECT_EQ(std::get<std::string>(mmc.find("manufacturer")->value), "SanDisk");
}
