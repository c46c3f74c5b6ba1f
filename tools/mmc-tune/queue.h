// mmc-tune queue: the block queue's I/O scheduler and read-ahead chosen by
// measurement, the discard policy, and the udev rule that keeps them. The
// race, the measurements, the rule and the views are libmmc/tune's
// (queue_*.h); this is the front end.
#pragma once

namespace mmc_tune {

int run_queue(int argc, char** argv);

} // namespace mmc_tune
