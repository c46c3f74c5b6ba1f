// mmc-tune emmc: an eMMC's EXT_CSD configuration shown, planned, written
// and verified. The planning is libmmc/tune's; this is the front end.
#pragma once

namespace mmc_tune {

int run_emmc(int argc, char** argv);

} // namespace mmc_tune
