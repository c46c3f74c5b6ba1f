// libFuzzer harness over the kernel-log reader (mmc-bus --dmesg, a saved or
// pasted dmesg, with or without its line breaks): any bytes must give a
// card message and events or nothing, never crash. The first byte picks
// whose lines count: every line (a log given for one host), mmc0's, or
// mmc1's by its name and its controller's; then the split by host
// (read_host_log) with a query the byte picks too.
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
    mmc::bus::LogHostQuery q;
    q.host = data[0] & 4 ? "mmc1" : "";
    q.asked = data[0] & 8 ? "mmc0" : "";
    if (data[0] & 16) q.devices = {"fe320000"};
    q.card_kind = data[0] & 32 ? mmc::bus::CardKind::sd : data[0] & 64 ? mmc::bus::CardKind::mmc : mmc::bus::CardKind::unknown;
    const auto split = mmc::bus::read_host_log(text, q);
    if (split.log) (void)mmc::bus::card_kind_of(split.log->card_message);
    return 0;
}
