// Reading the chosen layouts from a card, with the commands sent by the
// caller (a seam: dev/gen_cmd does it live, tests hand in a fake). The one
// rule kept here: a card that stops answering is reported, and nothing more
// is sent to it; nothing is retried.
#pragma once

#include "health/assess.h"

#include <functional>
#include <vector>

namespace mmc::health {

// Sends one layout's commands; sets `stopped` when the card timed out or
// vanished (so no further command should reach it).
using Cmd56Sender = std::function<Cmd56Read(const Layout& layout, bool& stopped)>;

std::vector<Cmd56Read> read_layouts(const std::vector<const Layout*>& layouts, const Cmd56Sender& send);

} // namespace mmc::health
