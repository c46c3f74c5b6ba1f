#include "rpmb/view.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::rpmb {

std::string state_text(const State& s)
{
    std::string t = fmt::format("RPMB of {} ({})\n", s.device, s.rpmb_device);
    t += fmt::format("  size            {} ({} blocks of 256 bytes)\n", cli::format_bytes_exact(s.size_bytes),
                     s.size_bytes / block_bytes);
    t += fmt::format("  key             {}\n", s.counter.key_programmed ? "programmed" : "not programmed");
    if (s.counter.key_programmed) {
        t += fmt::format("  write counter   {}{}\n", s.counter.write_counter,
                         s.counter.counter_expired ? " (expired: no more authenticated writes)" : "");
        if (s.key_given) t += "  key file        matches: the counter's MAC verified\n";
    }
    return t;
}

nlohmann::ordered_json state_json(const State& s)
{
    nlohmann::ordered_json j;
    j["device"] = s.device;
    j["rpmb_device"] = s.rpmb_device;
    j["size_bytes"] = s.size_bytes;
    j["key_programmed"] = s.counter.key_programmed;
    j["write_counter"] = s.counter.key_programmed ? nlohmann::ordered_json(s.counter.write_counter) : nlohmann::ordered_json();
    j["counter_expired"] = s.counter.counter_expired;
    j["mac_verified"] = s.key_given && s.counter.key_programmed ? nlohmann::ordered_json(s.counter.mac_verified)
                                                                : nlohmann::ordered_json();
    return j;
}

} // namespace mmc::rpmb
