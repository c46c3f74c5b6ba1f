// RPMB frames through the kernel's RPMB character device (/dev/mmcblkNrpmb)
// and MMC_IOC_MULTI_CMD, as Linux 4.19 onwards offers it (6.1 and 6.12
// included): one CMD25 per write transfer and one CMD18 per read, in one
// claim of the host. The kernel switches to the RPMB partition and sends
// the CMD23 before each, with the reliable-write bit when asked.
#pragma once

#include "dev/mmc_ioctl.h"
#include "rpmb/transport.h"

#include <string>

namespace mmc::rpmb {

class IoctlTransport : public Transport {
public:
    explicit IoctlTransport(const std::string& rpmb_device);
    void exchange(std::vector<Transfer>& transfers) override;

private:
    dev::MmcChannel channel_;
};

} // namespace mmc::rpmb
