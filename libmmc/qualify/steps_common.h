// What the step families (steps_*.cpp) share: a step's document and its
// failure as the tool would give them, the summary a text view gives, the
// reason a card in a USB reader skips a step, a child tool's command line,
// and the AU the geometry step measured. Internal to qualify/.
#pragma once

#include "qualify/child_step.h"
#include "qualify/step.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::qualify {

// A document as the tool prints it: "tool" and "version" first.
json tool_doc(std::string_view tool, const json& body);

// A step that failed: the tool's exit status and why, in one line.
StepResult failed(int status, std::string message);

// The first paragraph of a text view: what fits a summary.
std::string first_paragraph(const std::string& text);

// What cannot be read through the USB reader the device is in, and what
// would read it; "" when the device is in no reader.
std::function<std::string(const Settings&)> needs_mmc_host(std::string what);

// A child tool's arguments (mmc-probe, mmc-health): `fixed`, the register
// sources this run reads (--no-ioctl, --sysfs-root), --any-device when the
// run has it and the subcommand takes it (a write), then DEVICE.
ArgsFn child_args(std::vector<std::string> fixed, bool writes);

// The plan's line for a child step: its command line and what it does.
std::function<std::string(const Settings&)> describe_child(std::string tool, ArgsFn args, std::string what);

// The AU the erase and state steps align to: the geometry step's, when it found one
// and the card's registers give none (SSR AU_SIZE; a device that is not a
// card has none); else nothing, and mmc-bench takes the registers' (or
// assumes one and says so; mmc-erase aligns to the method's own unit).
std::optional<uint64_t> measured_au(const json& geometry);

} // namespace mmc::qualify
