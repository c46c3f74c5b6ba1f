// The raw health file: what mmc-health read from cards, undecoded, so a user
// can attach it to a bug report and anyone can decode it offline (--save-raw
// writes it, --from reads it; the fixtures in tests/data/health are such
// files). One JSON document, documented in mmc-health(1):
//   {"format": "mmckit-health-raw", "format_version": 1,
//    "tool": "mmc-health", "version": "0.1.0",
//    "cards": [{"name": "mmc0:aaaa", "family": "sd",
//               "registers": {"cid": HEX, "csd": HEX, "ssr": HEX, "ext_csd": HEX, "status": HEX},
//               "cmd56": [{"layout": "sandisk", "blocks": [{"arg": "0x00000001", "hex": HEX}],
//                          "error": ""}],
//               "host": {"ro": false, "force_ro": false, "wp_gpios": null, "disable_wp": null}}]}
// Registers are in the byte order Linux prints them; any register may be
// missing. Parsing is strict (unknown format, wrong types and sizes are
// errors naming where) and capped (64 cards, 8 layouts a card, 8 blocks a
// layout), since the file comes from outside.
#pragma once

#include "health/assess.h"
#include "regs/card_registers.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace mmc::health {

struct RawCard {
    std::string name; // "mmc0:aaaa", "input"
    regs::CardFamily family = regs::CardFamily::sd;
    std::vector<regs::RawRegister> registers;
    std::vector<Cmd56Read> cmd56;
    HostFacts host;
};

struct RawFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline constexpr const char* raw_format_name = "mmckit-health-raw";
inline constexpr int raw_format_version = 1;

std::string raw_file_text(const std::vector<RawCard>& cards, std::string_view tool, std::string_view version);
// Throws RawFileError "where: why" (or cli::InputError for over-deep JSON).
std::vector<RawCard> parse_raw_file(const std::string& text);

// The card's registers decoded (EXT_CSD first, as decode_card does) with the
// rest of what assess() needs.
HealthInput input_of(const RawCard& card);

} // namespace mmc::health
