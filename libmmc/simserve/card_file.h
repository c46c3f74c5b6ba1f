// What the serving side of the simulator shares: the card options by name,
// card files (a preset, or what `mmc-sim --describe -J` printed), where the
// presets and the nbdkit plugin live, and the describe views. Parsing a
// card lives here once so that mmc-sim, the plugin and the lab agree.
#pragma once

#include "sim/params.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::simserve {

// The long names (without dashes) of the options sim::set_option takes,
// in the order --help lists them.
const std::vector<std::string_view>& card_option_names();

// A card file is either a subset of parameters (sim/presets/*.json) or a
// describe document ({"tool": "mmc-sim", "card": {...}}), so that what
// --describe -J printed can be handed back with --card-file. Applied over base.
// Throws cli::InputError when the file is missing or unreadable (a failure,
// as every input file) and std::invalid_argument naming the file when it is
// no card.
sim::Params load_card_file(const std::filesystem::path& file, const sim::Params& base);

// Where this program's installation keeps its data: the source tree
// (build/bin/../../sim/presets) or PREFIX/share/mmckit/sim/presets for a
// preset, build/lib or PREFIX/lib/mmckit for the plugin. Empty when absent.
std::filesystem::path preset_file(std::string_view name);
std::vector<std::string> preset_names();
std::filesystem::path plugin_file();

// The resolved parameters as a document: tool, version, card.
nlohmann::ordered_json describe_json(const sim::Params& params);
// The same for a person: one aligned "name  value" line per parameter,
// sizes in binary units and times in the unit that reads best.
std::string describe_text(const sim::Params& params);

} // namespace mmc::simserve
