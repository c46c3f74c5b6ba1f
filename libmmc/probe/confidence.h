// How far a probe's answer can be trusted, shared by the geometry ladder
// (ladder.h) and the capacity probe (capacity.h). Ordered: a comparison
// says which is surer. Its word is the view's (words_view.h).
#pragma once

namespace mmc::probe {

enum class Confidence { none, low, medium, high };

} // namespace mmc::probe
