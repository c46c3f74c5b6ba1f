// libFuzzer harness over the flashbench reader (mmc-probe --from-flashbench:
// `flashbench -a` output as people paste it) and the ladder analysis the
// tool runs on what it reads: any bytes must give a geometry or a refusal,
// never crash, whatever times and sizes the text claims (huge, negative,
// zero, NaN).
#include "probe/flashbench_text.h"
#include "probe/ladder.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto parsed = mmc::probe::parse_flashbench(text);
        (void)mmc::probe::analyze(parsed.ladder);
    } catch (const mmc::probe::FlashbenchParseError&) {
        // no align row: a refusal is an answer
    }
    // Each word alone, as the reader tries them.
    (void)mmc::probe::parse_flashbench_time(text.substr(0, 16));
    return 0;
}
