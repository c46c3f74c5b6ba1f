// What `mmc-probe geometry` found, and its two views: the text a person
// reads and the JSON documented in mmc-probe(1).
#pragma once

#include "dev/identify.h"
#include "probe/ladder.h"
#include "probe/open_aus.h"
#include "probe/read_cache.h"
#include "probe/register_check.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::probe {

// The device probed: its path, its block name, and the card behind it when
// it is one.
struct ProbedDevice {
    std::string path;
    std::string name;                     // "mmcblk0", "loop0"
    std::optional<dev::Identified> card;
    std::optional<uint64_t> preferred_erase;
    std::string not_card;                 // why it is not an MMC/SD card
    bool in_reader = false;               // a card in a USB reader: not_card says which
};

struct GeometryReport {
    Ladder ladder;
    Geometry geometry;
    ReadCacheFinding read_cache; // in front of the card: a USB reader's bridge (read_cache.h)
    RegisterClaims claims = no_card_claims();
    std::optional<OpenAuResult> open;       // --destructive
    std::optional<std::string> source_file; // --from-flashbench
    std::vector<std::string> notes;
    double seconds = 0;
    bool interrupted = false;
};

// The open-AU count the JSON's "open_aus" gives: the smaller of the linear
// and random counts, either when only one was found.
std::optional<unsigned> open_count(const std::optional<OpenAuResult>&);

// What an interrupted reading left: an incomplete ladder, or every block
// the open-AU test wrote put back.
const char* interrupted_text(const GeometryReport&);

// device: null for --from-flashbench.
void print_geometry_text(const ProbedDevice* device, const GeometryReport&, bool verbose);
nlohmann::ordered_json geometry_json(const ProbedDevice* device, const GeometryReport&);

} // namespace mmc::probe
