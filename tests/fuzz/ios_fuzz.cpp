// libFuzzer harness over the ios parser (text pasted or read from debugfs):
// any bytes must parse or be left unparsed, never crash or recurse deeply.
#include "bus/ios.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const auto& ios : mmc::bus::parse_ios(text)) (void)ios.powered_off();
    return 0;
}
