// Reading and changing an eMMC's user-area write protection: the listing
// (CMD31 for each group, CMD30 when the device does not answer CMD31) and
// a plan's steps (USER_WP, CMD28/CMD29 per group, USER_WP back), then the
// groups read again. The device is an interface so the logic is tested on
// a modelled one; IoctlWpDevice is the kernel's MMC ioctl.
#pragma once

#include "dev/mmc_ioctl.h"
#include "tune/apply.h"
#include "tune/user_wp.h"

#include <array>
#include <span>

namespace mmc::tune {

class WpDevice {
public:
    virtual ~WpDevice() = default;
    virtual std::vector<uint8_t> read_ext_csd() = 0;
    // CMD31 / CMD30 at each address; throw (std::exception) when not answered.
    virtual std::vector<std::array<uint8_t, 8>> write_prot_types(const std::vector<uint32_t>& addresses) = 0;
    virtual std::vector<std::array<uint8_t, 4>> write_prot_bits(const std::vector<uint32_t>& addresses) = 0;
    // CMD6 WRITE_BYTE of USER_WP [171]; throws ApplyError when refused.
    virtual void write_user_wp(uint8_t value) = 0;
    // CMD28 (set) or CMD29 at each address; throws on the first error.
    virtual void protect(const std::vector<uint32_t>& addresses, bool set) = 0;
};

// Throws ApplyError when neither CMD31 nor CMD30 is answered, or the
// registers give no group.
UserWpListing list_user_wp(WpDevice& device, std::span<const uint8_t> ext_csd, std::span<const uint8_t> csd);

struct UserWpResult {
    UserWpListing after;
    std::vector<uint8_t> ext_csd_after;
};

// Carries out the plan's steps and reads the groups back. Each step writes
// USER_WP only when it must differ, and puts it back even when a command
// fails. Throws ApplyError naming what failed or which group reads back
// otherwise than planned.
UserWpResult apply_user_wp(WpDevice& device, const UserWpPlan& plan, std::span<const uint8_t> ext_csd,
                           std::span<const uint8_t> csd);

class IoctlWpDevice : public WpDevice {
public:
    IoctlWpDevice(const std::string& block_device, uint16_t rca) : switches_(block_device, rca), channel_(block_device), rca_(rca) {}
    std::vector<uint8_t> read_ext_csd() override { return switches_.read_ext_csd(); }
    std::vector<std::array<uint8_t, 8>> write_prot_types(const std::vector<uint32_t>& addresses) override;
    std::vector<std::array<uint8_t, 4>> write_prot_bits(const std::vector<uint32_t>& addresses) override;
    void write_user_wp(uint8_t value) override;
    void protect(const std::vector<uint32_t>& addresses, bool set) override;

private:
    IoctlDevice switches_;
    dev::MmcChannel channel_;
    uint16_t rca_;
};

} // namespace mmc::tune
