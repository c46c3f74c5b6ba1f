#include "dev/usb_reader_table.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace mmc::dev {

namespace {

// Each row: usb.ids (2026.06.10) line "\tPID  text" under "VID  vendor".
// mmc_host: drivers/misc/cardreader/rtsx_usb.c's rtsx_usb_usb_ids (0bda:0129,
// 0bda:0139, 0bda:0140; 0140 has no usb.ids entry and so no row here).
constexpr std::array chips{
    // Genesys Logic, Inc. (05e3)
    ReaderChip{"05e3", "0723", "Genesys Logic", "GL827L", "GL827L SD/MMC/MS Flash Card Reader"},
    ReaderChip{"05e3", "0727", "Genesys Logic", "", "microSD Reader/Writer"},
    ReaderChip{"05e3", "0736", "Genesys Logic", "", "Colour arc SD Card Reader [PISEN]"},
    ReaderChip{"05e3", "0741", "Genesys Logic", "", "microSD Card Reader"},
    ReaderChip{"05e3", "0743", "Genesys Logic", "", "SDXC and microSDXC CardReader"},
    ReaderChip{"05e3", "0749", "Genesys Logic", "", "SD Card Reader and Writer"},
    ReaderChip{"05e3", "0751", "Genesys Logic", "", "microSD Card Reader"},
    // Realtek Semiconductor Corp. (0bda)
    ReaderChip{"0bda", "0129", "Realtek", "RTS5129", "RTS5129 Card Reader Controller", true},
    ReaderChip{"0bda", "0139", "Realtek", "RTS5139", "RTS5139 Card Reader Controller", true},
    ReaderChip{"0bda", "0153", "Realtek", "", "3-in-1 (SD/SDHC/SDXC) Card Reader"},
    ReaderChip{"0bda", "0158", "Realtek", "", "USB 2.0 multicard reader"},
    ReaderChip{"0bda", "0184", "Realtek", "RTS5182", "RTS5182 Card Reader"},
    ReaderChip{"0bda", "0307", "Realtek", "", "Card Reader"},
    ReaderChip{"0bda", "0316", "Realtek", "", "Card Reader"},
    ReaderChip{"0bda", "0326", "Realtek", "", "Card reader"},
    // Alcor Micro Corp. (058f)
    ReaderChip{"058f", "6335", "Alcor Micro", "", "SD/MMC Card Reader"},
    ReaderChip{"058f", "6362", "Alcor Micro", "", "Flash Card Reader/Writer"},
    ReaderChip{"058f", "6366", "Alcor Micro", "", "Multi Flash Reader"},
    ReaderChip{"058f", "6377", "Alcor Micro", "AU6375", "AU6375 4-LUN card reader"},
    // Super Top (14cd)
    ReaderChip{"14cd", "1212", "Super Top", "", "microSD card reader (SY-T18)"},
    ReaderChip{"14cd", "125c", "Super Top", "", "SD card reader"},
    ReaderChip{"14cd", "127b", "Super Top", "", "SDXC Reader"},
    // ENE Technology, Inc. (0cf2)
    ReaderChip{"0cf2", "6225", "ENE", "UB6225", "SD card reader (UB6225)"},
    // Lexar Media, Inc. (05dc)
    ReaderChip{"05dc", "b051", "Lexar", "", "microSD RDR UHS-I Card Reader [LRWM03U-7000]"},
    // SanDisk Corp. (0781)
    ReaderChip{"0781", "a7c1", "SanDisk", "", "Storage device (SD card reader)"},
    ReaderChip{"0781", "cfc9", "SanDisk", "", "SDDR-489 ImageMate Pro Reader"},
    // Transcend Information, Inc. (8564)
    ReaderChip{"8564", "4000", "Transcend", "", "microSD/SD/CF UHS-II Card Reader [RDF8, RDF9]"},
    // Silicon Motion, Inc. - Taiwan (090c)
    ReaderChip{"090c", "6200", "Silicon Motion", "", "microSD card reader"},
};

bool same_hex(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::span<const ReaderChip> reader_chips() { return chips; }

const ReaderChip* find_reader_chip(std::string_view vid, std::string_view pid)
{
    for (const auto& c : chips)
        if (same_hex(c.vid, vid) && same_hex(c.pid, pid)) return &c;
    return nullptr;
}

} // namespace mmc::dev
