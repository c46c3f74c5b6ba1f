// libFuzzer harness over the device-tree reader (mmc-bus --dt: DTS pasted
// from a board file, an overlay or dtc output): any bytes must parse or be
// refused with a reason, never crash, loop or recurse without bound. The
// first byte picks how the node is chosen: even, the only enabled host;
// odd, by the first line of the rest (a name, label, unit address or path).
#include "bus/device_tree.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string_view select;
    if (data[0] & 1) {
        const auto nl = text.find('\n');
        select = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    }
    const auto parsed = mmc::bus::parse_dts(text, select);
    if (parsed.host) {
        // What the doctor asks of a node.
        const auto& dt = *parsed.host;
        (void)dt.overlay_target();
        for (const auto flag : mmc::bus::device_tree_flags()) (void)dt.has(flag);
        (void)dt.is_compatible("brcm,bcm2711-emmc2");
        if (dt.vqmmc) (void)dt.vqmmc->reaches_1v8(), (void)dt.vqmmc->reaches_3v3();
    }
    return 0;
}
