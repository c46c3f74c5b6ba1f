// mmc-tune rpmb: an eMMC's replay protected memory block: its state, the
// authenticated reads and writes, the key programmed once. The protocol is
// libmmc/rpmb's; this is the front end.
#pragma once

namespace mmc_tune {

int run_rpmb(int argc, char** argv);

} // namespace mmc_tune
