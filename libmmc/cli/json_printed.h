// Whether the tool printed its own JSON document in this run (cli/json_out
// records it): run_tool then prints no JSON error after it, so a run gives
// one document, the tool's, which says how far it got.
#pragma once

namespace mmc::cli {

bool json_printed();
void forget_json_printed(); // a test's fresh start

} // namespace mmc::cli
