// libFuzzer harness over the kernel command line reader (mmc-bus and
// mmc-tune bus --cmdline, /proc/cmdline): any bytes give the sdhci quirk
// options or none, never a crash, and their bits named.
#include "bus/kernel_cmdline.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto c = mmc::bus::parse_kernel_cmdline(std::string_view(reinterpret_cast<const char*>(data), size));
    if (c.quirks2 && c.quirks2->value) (void)mmc::bus::sdhci_quirk2_names(*c.quirks2->value);
    if (c.quirks && c.quirks->value) (void)mmc::bus::sdhci_quirk_name(22);
    return 0;
}
