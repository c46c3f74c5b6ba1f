// What `mmc-probe scrub` says: text and the -J document (man mmc-probe,
// SCRUB), and its exit status.
#pragma once

#include "probe/scrub.h"

#include <nlohmann/json.hpp>
#include <string>

namespace mmc::probe {

std::string scrub_text(const std::string& target, const ScrubResult&);
nlohmann::ordered_json scrub_document(const std::string& target, const ScrubResult&);
// 0: every block read (slow regions or not); 16: read errors, as verify's.
int scrub_exit_status(const ScrubResult&);

} // namespace mmc::probe
