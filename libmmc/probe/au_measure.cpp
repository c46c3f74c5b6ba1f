#include "probe/au_measure.h"

#include "cli/errors.h"
#include "cli/progress.h"
#include "cli/remedy.h"
#include "cli/stop_signal.h"
#include "probe/read_timer.h"
#include "probe/sampler.h"
#include "probe/words_view.h"

#include <fmt/format.h>

namespace mmc::probe {

MeasuredAu measure_au(const std::string& disk_path, std::string_view nothing_done)
{
    const std::atomic<bool>& stop = cli::stop_requested();
    cli::ProgressLine line;
    BlockReadTimer reader(disk_path);
    SampleOptions so;
    so.stop = &stop;
    so.progress = [&](uint64_t done, uint64_t total) { line.show(fmt::format("measuring the AU (read-only): {}/{} reads", done, total)); };
    const auto g = read_geometry(reader, so, true).geometry;
    line.clear();
    if (stop.load()) throw cli::Error(cli::ErrorKind::interrupted, fmt::format("interrupted while measuring the AU; {}", nothing_done));
    if (!g.au_bytes)
        throw cli::Error(cli::ErrorKind::failure,
                         fmt::format("{}: the read ladder shows no AU (confidence {})", disk_path, confidence_name(g.confidence)),
                         cli::Remedy::give_au);
    return {*g.au_bytes, g.confidence};
}

} // namespace mmc::probe
