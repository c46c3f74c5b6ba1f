// The MMC ioctl channel: commands sent to a card through its block device
// (MMC_IOC_CMD / MMC_IOC_MULTI_CMD). Needs CAP_SYS_RAWIO. Read-only queries
// only here; erase commands live in libmmc/erase, the RPMB protocol in
// libmmc/rpmb.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

namespace mmc::dev {

// Response and command-type flags as the kernel defines them
// (include/linux/mmc/core.h; not exported to user space).
namespace rsp {
inline constexpr unsigned present = 1u << 0;
inline constexpr unsigned r136 = 1u << 1;
inline constexpr unsigned crc = 1u << 2;
inline constexpr unsigned busy = 1u << 3;
inline constexpr unsigned opcode = 1u << 4;
inline constexpr unsigned cmd_ac = 0u << 5;
inline constexpr unsigned cmd_adtc = 1u << 5;
inline constexpr unsigned spi_s1 = 1u << 7;
inline constexpr unsigned spi_busy = 1u << 10;
inline constexpr unsigned none = 0;
inline constexpr unsigned r1 = present | crc | opcode;
inline constexpr unsigned r1b = present | crc | opcode | busy;
inline constexpr unsigned r2 = present | r136 | crc;
inline constexpr unsigned spi_r1 = spi_s1;
inline constexpr unsigned spi_r1b = spi_s1 | spi_busy;
} // namespace rsp

// One command as the kernel's struct mmc_ioc_cmd carries it.
struct MmcCommand {
    uint32_t opcode = 0;
    uint32_t arg = 0;
    unsigned flags = 0;
    bool app_cmd = false;       // precede with CMD55 (the kernel adds the RCA)
    bool write = false;
    // RPMB only: the kernel's CMD23 before this command (which it adds on
    // the RPMB device) asks for a reliable write, as authenticated writes
    // and key programming require (JESD84-B51 6.6.22.4.3).
    bool reliable_write = false;
    std::vector<uint8_t> data;  // read buffer (sized by the caller) or write data
    unsigned block_size = 0;    // 0: data.size() in one block
    unsigned cmd_timeout_ms = 0;
    unsigned data_timeout_ns = 0; // 0: the kernel's own, from the card's CSD
    std::array<uint32_t, 4> response{};
};

class MmcChannel {
public:
    // Opens the card's block device (e.g. /dev/mmcblk0), or its RPMB
    // character device (/dev/mmcblk0rpmb), which the kernel opens for its
    // ioctls only with write access. Throws std::system_error with the errno.
    enum class Access { read_only, read_write };
    explicit MmcChannel(const std::string& block_device, Access access = Access::read_only);
    ~MmcChannel();
    MmcChannel(const MmcChannel&) = delete;
    MmcChannel& operator=(const MmcChannel&) = delete;

    // Send one command; throws std::system_error naming the command.
    void send(MmcCommand& cmd);
    // Send several commands with the host claimed once (MMC_IOC_MULTI_CMD),
    // so nothing else reaches the card between them.
    void send_all(std::vector<MmcCommand>& cmds);

    // The queries mmc-info uses. Each returns the register image in the byte
    // order Linux prints (big-endian for R1/R2 and SD data blocks).
    std::array<uint8_t, 4> card_status(uint16_t rca);    // CMD13
    std::vector<uint8_t> sd_scr();                         // ACMD51, 8 bytes
    std::vector<uint8_t> sd_status();                      // ACMD13, 64 bytes
    std::vector<uint8_t> sd_switch_query();                // CMD6 mode 0, 64 bytes
    std::vector<uint8_t> mmc_ext_csd();                    // CMD8, 512 bytes
    // CMD7(0) deselect, CMD9, CMD10, CMD7(rca) reselect in one transaction:
    // CSD and CID can only be read in stand-by state.
    struct CidCsd {
        std::vector<uint8_t> cid, csd;
    };
    CidCsd cid_csd(uint16_t rca);

private:
    int fd_ = -1;
    std::string path_;
};

// The 16-byte image of an R2 response (response[0] holds bits 127:96), as
// Linux's sysfs prints CID and CSD.
std::vector<uint8_t> r2_bytes(const std::array<uint32_t, 4>& response);

} // namespace mmc::dev
