// Recognising a USB card reader (dev/usb_storage.h) over the hand-built
// trees of tests/data/sysfs/make-usb-readers.sh, and the reader table
// (dev/usb_reader_table.h) against usb.ids.
#include "dev/usb_storage.h"
#include "views/reader_view.h"

#include "sysfs_fixture.h"

#include <gtest/gtest.h>
#include <set>

using namespace mmc::dev;

namespace {

UsbStorage usb_of(const std::string& tree)
{
    const auto roots = sysfs_fixture(tree);
    const auto u = read_usb_storage(resolve_path(roots.sysfs / "block" / "sdb"), roots);
    if (!u) throw std::runtime_error(tree + ": not on USB");
    return *u;
}

} // namespace

TEST(UsbReaderTable, RowsAreUniqueLowerCaseHexWithAProductText)
{
    std::set<std::string> ids;
    for (const auto& c : reader_chips()) {
        const std::string id = std::string(c.vid) + ":" + std::string(c.pid);
        EXPECT_TRUE(ids.insert(id).second) << id << " twice";
        EXPECT_EQ(id.find_first_not_of("0123456789abcdef:"), std::string::npos) << id;
        EXPECT_EQ(id.size(), 9u) << id;
        EXPECT_FALSE(c.product.empty()) << id;
        // A chip is named only where usb.ids names it, in its text.
        if (!c.chip.empty()) {
            EXPECT_NE(c.product.find(c.chip), std::string_view::npos) << id;
        }
    }
    EXPECT_GE(ids.size(), 20u);
}

TEST(UsbReaderTable, KnownRowsAsUsbIdsNamesThem)
{
    // usb.ids 2026.06.10: "05e3 Genesys Logic" / "0723 GL827L SD/MMC/MS Flash Card Reader".
    const auto* gl = find_reader_chip("05e3", "0723");
    ASSERT_NE(gl, nullptr);
    EXPECT_EQ(gl->chip, "GL827L");
    EXPECT_EQ(gl->product, "GL827L SD/MMC/MS Flash Card Reader");
    // "0bda Realtek" / "0129 RTS5129 Card Reader Controller", bound by rtsx_usb.
    const auto* rts = find_reader_chip("0BDA", "0129");
    ASSERT_NE(rts, nullptr);
    EXPECT_EQ(rts->chip, "RTS5129");
    EXPECT_TRUE(rts->mmc_host);
    EXPECT_FALSE(gl->mmc_host);
    // "058f Alcor Micro" / "6377 AU6375 4-LUN card reader".
    ASSERT_NE(find_reader_chip("058f", "6377"), nullptr);
    EXPECT_EQ(find_reader_chip("058f", "6377")->chip, "AU6375");
    // A SanDisk Ultra stick (usb.ids "0781 5581 Ultra") is no reader.
    EXPECT_EQ(find_reader_chip("0781", "5581"), nullptr);
}

TEST(UsbReaderRecognition, Gl827lOnUsb2IsAnSdReaderOnThreeGrounds)
{
    const auto u = usb_of("usb2-gl827l");
    EXPECT_TRUE(u.reader);
    EXPECT_EQ(u.usb_id(), "05e3:0723");
    EXPECT_EQ(u.driver, "usb-storage");
    EXPECT_EQ(u.transport(), mmc::bus::UsbTransport::bulk_only);
    EXPECT_EQ(u.interface_class, 8);
    EXPECT_EQ(u.interface_protocol, 0x50);
    ASSERT_TRUE(u.speed_mbit);
    EXPECT_DOUBLE_EQ(*u.speed_mbit, 480);
    EXPECT_TRUE(u.removable);
    EXPECT_TRUE(u.medium_present);
    EXPECT_EQ(u.scsi_model, "SD/MMC");
    EXPECT_EQ(u.flash_slots, (std::vector<std::string>{"MS", "SD"}));
    ASSERT_EQ(u.basis.size(), 3u);
    EXPECT_NE(u.basis[0].find("05e3:0723"), std::string::npos);
    EXPECT_NE(u.basis[1].find("ID_DRIVE_FLASH_SD"), std::string::npos);
    EXPECT_NE(u.basis[2].find("SD/MMC"), std::string::npos);
    EXPECT_EQ(describe_usb(u), "sdb: SD card in a USB 2.0 reader (Genesys Logic GL827L, usb-storage)");
}

TEST(UsbReaderRecognition, UasReaderOnUsb3ByItsIdAndProductWithoutUdevTags)
{
    const auto u = usb_of("usb3-uas");
    EXPECT_TRUE(u.reader);
    EXPECT_EQ(u.driver, "uas");
    EXPECT_EQ(u.transport(), mmc::bus::UsbTransport::uas);
    EXPECT_DOUBLE_EQ(*u.speed_mbit, 5000);
    EXPECT_TRUE(u.flash_slots.empty());
    ASSERT_EQ(u.basis.size(), 2u);
    EXPECT_NE(u.basis[0].find("05e3:0749"), std::string::npos);
    EXPECT_EQ(u.basis[1], "its USB product \"USB3.0 Card Reader\" names a card reader");
    EXPECT_EQ(describe_usb(u), "sdb: card in a USB 3.0 reader (Genesys Logic SD Card Reader and Writer, uas)");
}

TEST(UsbReaderRecognition, AnEmptySlotIsNamedSo)
{
    const auto u = usb_of("usb2-empty");
    EXPECT_TRUE(u.reader);
    EXPECT_FALSE(u.medium_present);
    EXPECT_EQ(describe_usb(u), "sdb: empty slot of a USB 2.0 reader (Genesys Logic GL827L, usb-storage): no card in the reader");
}

TEST(UsbReaderRecognition, AUsbStickIsNoReader)
{
    const auto u = usb_of("usb-stick");
    EXPECT_FALSE(u.reader);
    EXPECT_TRUE(u.basis.empty());
    EXPECT_EQ(describe_usb(u), "sdb: USB disk, not a card reader (USB SanDisk 3.2Gen1, 0781:5581, USB 3.0, usb-storage)");
}

TEST(UsbReaderRecognition, NotOnUsbIsNothing)
{
    const auto roots = sysfs_fixture("sd-qemu");
    EXPECT_FALSE(read_usb_storage(resolve_path(roots.sysfs / "block" / "mmcblk0"), roots));
}

TEST(UsbReaderRecognition, ModelWordsThatNameAReader)
{
    for (const char* m : {"SD/MMC", "USB3.0 Card Reader", "Multi-Card", "MS/MS-Pro", "CardReader SD"})
        EXPECT_TRUE(names_a_reader(m)) << m;
    for (const char* m : {"Ultra", "STORAGE DEVICE", "SanDisk 3.2Gen1", "Flash Disk", ""})
        EXPECT_FALSE(names_a_reader(m)) << m;
}

TEST(UsbReaderRecognition, AnSdSlotIsNamedByTheWordSdNotItsLetters)
{
    UsbStorage u;
    u.disk = "sdb";
    u.reader = true;
    u.driver = "usb-storage";
    u.vid = "1234";
    u.pid = "5678";
    for (const char* m : {"SD/MMC", "microSD Reader", "SDXC"}) {
        u.scsi_model = m;
        EXPECT_EQ(describe_usb(u).rfind("sdb: SD card in", 0), 0u) << m;
    }
    for (const char* m : {"SSD Reader", "Multi-Card", "STORAGE DEVICE"}) {
        u.scsi_model = m;
        EXPECT_EQ(describe_usb(u).rfind("sdb: card in", 0), 0u) << m << ": " << describe_usb(u);
    }
}

TEST(UsbReaderRecognition, UdevDatabaseLinesOnlyEKeyValue)
{
    const auto p = parse_udev_properties("S:disk/by-id/usb-x\nE:ID_DRIVE_FLASH_SD=1\nE:ID_MODEL=SD_MMC\nE:=bad\nE:NOEQ\nI:123\nE:EMPTY=");
    EXPECT_EQ(p.size(), 3u);
    EXPECT_EQ(p.at("ID_DRIVE_FLASH_SD"), "1");
    EXPECT_EQ(p.at("ID_MODEL"), "SD_MMC");
    EXPECT_EQ(p.at("EMPTY"), "");
}

TEST(UsbReaderRecognition, AnRtsxReaderOnUsbStorageIsToldWhatWouldShowTheRegisters)
{
    UsbStorage u;
    u.disk = "sdb";
    u.vid = "0bda";
    u.pid = "0129";
    u.driver = "usb-storage";
    u.chip = find_reader_chip(u.vid, u.pid);
    u.reader = true;
    const std::string text = mmc::out::reader_text(u, 512);
    EXPECT_NE(text.find("Try:         this reader (0bda:0129) is one the kernel's rtsx_usb driver serves: bound to rtsx_usb "
                        "instead of usb-storage"),
              std::string::npos)
        << text;
    u.chip = find_reader_chip("05e3", "0723");
    EXPECT_EQ(mmc::out::reader_text(u, 512).find("Try:"), std::string::npos);
}
