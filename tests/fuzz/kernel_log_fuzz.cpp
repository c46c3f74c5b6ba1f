// libFuzzer harness over the kernel-log reader (mmc-bus --dmesg, a saved or
// pasted dmesg): any bytes must give a card message and events or nothing,
// never crash. The first byte picks whose lines count: every line (a log
// given for one host), mmc0's, or mmc1's by its name and its controller's.
#include "bus/kernel_log.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    static const std::vector<std::vector<std::string>> hosts = {{}, {"mmc0"}, {"mmc1", "fe320000.mmc"}};
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const auto log = mmc::bus::parse_kernel_log(text, hosts[data[0] % hosts.size()]);
    for (const auto& e : log.events) (void)mmc::bus::log_event_name(e.kind);
    return 0;
}
