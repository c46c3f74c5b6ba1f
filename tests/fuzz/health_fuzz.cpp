// libFuzzer harness over mmc-health's parsers of outside input: the raw
// health file (--from) through the assessment and every view, and a CMD56
// block or an SD status through every decoder. The first byte picks which;
// nothing may crash, whatever a card or a file says.
#include "health/assess.h"
#include "health/raw_file.h"
#include "health/sources.h"
#include "views/health_metrics.h"
#include "views/health_view.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    const uint8_t mode = data[0] % 3;
    const std::vector<uint8_t> rest(data + 1, data + size);
    if (mode == 0) {
        try {
            std::vector<mmc::out::CardHealth> cards;
            for (const auto& raw : mmc::health::parse_raw_file(std::string(rest.begin(), rest.end())))
                cards.push_back({raw.name, "", std::nullopt, mmc::health::assess(mmc::health::input_of(raw))});
            for (const auto& c : cards) (void)mmc::out::health_text(c, false), (void)mmc::out::health_json(c).dump();
            (void)mmc::out::health_prometheus(cards);
        } catch (const std::exception&) {
            // refused input is an answer
        }
    } else if (mode == 1) {
        for (const auto& layout : mmc::health::cmd56_layouts()) {
            std::vector<mmc::health::Cmd56Block> blocks;
            for (uint32_t arg : layout.read_args) blocks.push_back({arg, rest});
            (void)layout.decode(blocks);
        }
    } else {
        (void)mmc::health::ssr_swissbit(rest);
    }
    return 0;
}
