#include "dev/usb_readers.h"

#include <algorithm>
#include <charconv>

namespace mmc::dev {

std::vector<ReaderSlot> list_reader_slots(const SysRoots& roots)
{
    std::vector<ReaderSlot> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(roots.sysfs / "block", ec)) {
        const fs::path disk = resolve_path(e.path());
        auto usb = read_usb_storage(disk, roots);
        if (!usb || !usb->reader) continue;
        ReaderSlot s{std::move(*usb), (roots.dev / e.path().filename()).string(), 0};
        const std::string sectors = read_attr(disk / "size").value_or("0");
        std::from_chars(sectors.data(), sectors.data() + sectors.size(), s.capacity_bytes);
        s.capacity_bytes *= 512;
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const ReaderSlot& a, const ReaderSlot& b) { return a.device < b.device; });
    return out;
}

} // namespace mmc::dev
