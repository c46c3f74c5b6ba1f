// libFuzzer harness over card files (mmc-sim --card, presets, the plugin's
// card): any bytes must parse into a card that can exist or be refused with
// std::invalid_argument, never crash. A small accepted card is also run: its
// sustained figures and a few writes through the model (SLC cache, stalls).
#include "sim/card.h"
#include "sim/figures.h"
#include "sim/params.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
    if (doc.is_discarded()) return 0;
    mmc::sim::Params p;
    try {
        p = mmc::sim::params_from_json(doc);
    } catch (const std::invalid_argument&) {
        return 0;
    }
    (void)mmc::sim::to_json(p);
    if (p.size_bytes > (uint64_t{64} << 20) || p.fake == mmc::sim::Fake::bad) return 0; // keep runs short
    try {
        (void)mmc::sim::sustained_figures(p);
    } catch (const std::invalid_argument&) {
        // a card too small for the figures' area says so
    }
    mmc::sim::Card card(p);
    std::vector<uint8_t> block(512 * 1024, 0x5a);
    for (uint64_t at = 0; at + block.size() <= p.size_bytes && at < 8 * block.size(); at += block.size())
        card.write(at, block, card.idle_at() + 1000);
    (void)card.counters_json();
    return 0;
}
