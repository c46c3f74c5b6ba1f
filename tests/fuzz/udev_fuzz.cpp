// libFuzzer harness over the udev database parser (dev/usb_storage.h): any
// bytes in /run/udev/data/bMAJ:MIN must parse to some properties or none,
// never crash.
#include "dev/usb_storage.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const auto& [key, value] : mmc::dev::parse_udev_properties(text)) (void)mmc::dev::names_a_reader(key + value);
    return 0;
}
