// mmc-tune bus: the bus modes card and host share, planned, trialled
// through debugfs with the card verified, put back, and the result's
// persistent form. The planning, trials and views are libmmc/tune's.
#pragma once

namespace mmc_tune {

int run_bus(int argc, char** argv);

} // namespace mmc_tune
