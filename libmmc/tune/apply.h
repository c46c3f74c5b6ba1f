// Carrying out a plan (plan.h) on a device: CMD6 SWITCH writes, each
// followed by CMD13 so a SWITCH_ERROR is caught at the write that caused it,
// then EXT_CSD read back and compared field by field. The partition
// settings are volatile until PARTITION_SETTING_COMPLETED is written, so
// that one write goes last and only after every other write was accepted
// and reads back as planned: a failure before it leaves nothing permanent
// (a power cycle discards the rest). The device is an interface, so the
// logic is tested on a modelled one; IoctlDevice is the real kernel's.
#pragma once

#include "dev/mmc_ioctl.h"
#include "tune/plan.h"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmc::tune {

class ExtCsdDevice {
public:
    virtual ~ExtCsdDevice() = default;
    virtual std::vector<uint8_t> read_ext_csd() = 0;
    // Sends the writes in order with the host held between them; throws
    // ApplyError naming the first write the device refused.
    virtual void switch_all(const std::vector<Write>& writes) = 0;
};

struct ApplyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ApplyResult {
    std::vector<uint8_t> after; // EXT_CSD read back at the end
};

// Throws ApplyError when the device's EXT_CSD no longer is the one planned
// from (`planned_from`), when a write is refused, or when a field reads
// back otherwise than planned ("BOOT_WP [173]: wrote 0x01, reads 0x00").
ApplyResult apply_plan(ExtCsdDevice& device, const Plan& plan, std::span<const uint8_t> planned_from);

// The fields whose planned bits differ between the plan and `ext_csd`: the
// read-back check, exposed for tests. Empty when all match.
std::vector<std::string> mismatches(const Plan& plan, std::span<const uint8_t> ext_csd);

// The MMC ioctl (MMC_IOC_MULTI_CMD) on the card's block device.
class IoctlDevice : public ExtCsdDevice {
public:
    IoctlDevice(const std::string& block_device, uint16_t rca) : channel_(block_device), rca_(rca) {}
    std::vector<uint8_t> read_ext_csd() override { return channel_.mmc_ext_csd(); }
    void switch_all(const std::vector<Write>& writes) override;

private:
    dev::MmcChannel channel_;
    uint16_t rca_;
};

} // namespace mmc::tune
