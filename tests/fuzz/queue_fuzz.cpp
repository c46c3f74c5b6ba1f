// libFuzzer harness over mmc-tune queue's outside input: queue/scheduler
// text (dev/block_queue.h) and the identity a udev rule is matched by
// (tune/queue_udev.h: a card's CID and name, udev's serials, a loop backing
// file). Any bytes must parse or be refused, never crash, and a rule built
// from them must stay a rule: comment lines and one ACTION== line, nothing
// a hostile name could add.
#include "dev/block_queue.h"
#include "tune/queue_udev.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
        const auto nul = text.find('\0', at);
        parts.emplace_back(text.substr(at, nul == std::string_view::npos ? std::string_view::npos : nul - at));
        if (nul == std::string_view::npos) break;
        at = nul + 1;
    }
    parts.resize(std::max<std::size_t>(parts.size(), 8));
    const auto q = mmc::dev::parse_scheduler_list(parts[0]);
    mmc::dev::DiskIdentity id{parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]};
    for (const bool card : {true, false}) {
        std::string why;
        const auto m = mmc::tune::device_match(id, card, why);
        if (!m) continue;
        for (const auto& s : q.schedulers) {
            const std::string rule = mmc::tune::udev_rule(*m, {s, 128}, parts[7]);
            for (std::size_t at = 0; at < rule.size();) {
                const auto nl = rule.find('\n', at);
                const std::string_view line(rule.data() + at, (nl == std::string::npos ? rule.size() : nl) - at);
                if (!line.starts_with("# ") && !line.starts_with("ACTION==")) __builtin_trap();
                at = nl == std::string::npos ? rule.size() : nl + 1;
            }
        }
    }
    return 0;
}
