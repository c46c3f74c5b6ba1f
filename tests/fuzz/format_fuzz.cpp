// libFuzzer harness over mmc-format --check's parsers of outside input: the
// input is a disk image (its sectors, the last one zero-padded), read for
// its MBR, extended partitions, FAT and exFAT boot sectors and FSInfo, and
// checked with and without a unit; both views are rendered. The same bytes
// are also read as fdisk -l text (--check --fdisk-text) and every disk in
// it checked. A refused table is an answer; nothing may crash or loop.
#include "format/check.h"
#include "format/check_view.h"
#include "format/fdisk_text.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const uint64_t sectors = (size + 511) / 512;
    const mmc::format::SectorReader read = [&](uint64_t i) -> std::optional<mmc::format::Sector> {
        if (i >= sectors) return std::nullopt;
        mmc::format::Sector s{};
        const size_t at = static_cast<size_t>(i) * 512;
        std::memcpy(s.data(), data + at, std::min<size_t>(512, size - at));
        return s;
    };
    // The image may claim to be larger than it is (a table pointing far
    // out): the disk's size is the input's, or a card's behind a short read.
    for (const uint64_t total : {sectors, uint64_t{31074304}}) {
        for (const auto unit : {mmc::format::Unit{}, mmc::format::Unit{8u << 20, "--au"}}) {
            try {
                const auto r = mmc::format::check_layout(read, total, unit);
                (void)mmc::format::check_text("fuzz", r);
                (void)mmc::format::check_json("fuzz", r).dump();
            } catch (const mmc::format::TableError&) {
            }
        }
    }
    try {
        for (const auto& disk : mmc::format::parse_fdisk_text({reinterpret_cast<const char*>(data), size}))
            for (const auto unit : {mmc::format::Unit{}, mmc::format::Unit{4u << 20, "--au"}})
                try {
                    const auto d = mmc::format::pick_fdisk_disk({disk}, disk.name);
                    const auto r = mmc::format::check_table(d.table, d.sectors, unit, "fdisk -l's output");
                    (void)mmc::format::check_text(d.name, r);
                    (void)mmc::format::check_json(d.name, r).dump();
                } catch (const mmc::format::TableError&) {
                }
    } catch (const mmc::format::TableError&) {
    }
    return 0;
}
