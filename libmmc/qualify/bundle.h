// The result bundle of one run, in the format mmc-report reads
// (report::make_bundle over the steps' documents), plus what that format's
// steps do not hold yet: each step's exit status ("exit_status", null for
// a step not started or skipped), "interrupted" (Ctrl-C) and "partial"
// (interrupted, or a step failed or was not started). mmc-report ignores
// keys it does not know, so older readers still read it.
#pragma once

#include "qualify/attachment.h"
#include "qualify/pipeline.h"
#include "report/bundle.h"
#include "report/make_bundle.h"

#include <string>

namespace mmc::qualify {

struct BundleInputs {
    std::string card_label, host_label; // empty: derived, as mmc-report does
    json environment;                   // report::collect_environment()
    std::string created;                // ISO-8601 UTC
    std::optional<Attachment> attachment = std::nullopt; // the device as check_device found it; none: not recorded
};

struct MadeBundle {
    report::Bundle bundle; // as report::make_bundle made it
    json doc;              // what is written: its JSON with the additions above
};

MadeBundle make_bundle(const Outcome& outcome, const BundleInputs& inputs);

// Writes made.doc into dir as mmc-report --make-bundle writes its bundles
// (report::write_bundle_file: never over an existing file). Throws
// std::runtime_error "PATH: why".
report::WrittenBundle write_bundle(const std::string& dir, const MadeBundle& made);

} // namespace mmc::qualify
