#include "dev/mmc_ioctl.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/mmc/ioctl.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace mmc::dev {

namespace {

mmc_ioc_cmd to_kernel(MmcCommand& c)
{
    mmc_ioc_cmd k{};
    k.opcode = c.opcode;
    k.arg = c.arg;
    k.flags = c.flags;
    k.is_acmd = c.app_cmd ? 1 : 0;
    k.write_flag = c.write ? 1 : 0;
    // Bit 31 of write_flag (MMC_RPMB_RELIABLE_WRITE in newer headers): the
    // kernel copies it into the CMD23 it sends before an RPMB transfer.
    if (c.reliable_write) k.write_flag = static_cast<int>(static_cast<unsigned>(k.write_flag) | (1u << 31));
    k.cmd_timeout_ms = c.cmd_timeout_ms;
    k.data_timeout_ns = c.data_timeout_ns;
    if (!c.data.empty()) {
        k.blksz = c.block_size ? c.block_size : static_cast<unsigned>(c.data.size());
        k.blocks = static_cast<unsigned>(c.data.size() / k.blksz);
        mmc_ioc_cmd_set_data(k, c.data.data());
    }
    return k;
}

std::string name_of(const MmcCommand& c) { return fmt::format("{}CMD{}", c.app_cmd ? "A" : "", c.opcode); }

MmcCommand read_cmd(uint32_t opcode, uint32_t arg, std::size_t bytes, bool app_cmd)
{
    MmcCommand c;
    c.opcode = opcode;
    c.arg = arg;
    c.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_adtc;
    c.app_cmd = app_cmd;
    c.data.assign(bytes, 0);
    return c;
}

} // namespace

MmcChannel::MmcChannel(const std::string& block_device, Access access) : path_(block_device)
{
    fd_ = ::open(block_device.c_str(), (access == Access::read_write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), block_device);
}

MmcChannel::~MmcChannel()
{
    if (fd_ >= 0) ::close(fd_);
}

void MmcChannel::send(MmcCommand& cmd)
{
    mmc_ioc_cmd k = to_kernel(cmd);
    if (::ioctl(fd_, MMC_IOC_CMD, &k) < 0)
        throw std::system_error(errno, std::generic_category(), fmt::format("{}: {}", path_, name_of(cmd)));
    for (int i = 0; i < 4; ++i) cmd.response[i] = k.response[i];
}

void MmcChannel::send_all(std::vector<MmcCommand>& cmds)
{
    // struct mmc_ioc_multi_cmd ends in a flexible array of mmc_ioc_cmd.
    const std::size_t size = sizeof(mmc_ioc_multi_cmd) + cmds.size() * sizeof(mmc_ioc_cmd);
    auto* multi = static_cast<mmc_ioc_multi_cmd*>(std::calloc(1, size));
    if (!multi) throw std::bad_alloc();
    multi->num_of_cmds = cmds.size();
    for (std::size_t i = 0; i < cmds.size(); ++i) multi->cmds[i] = to_kernel(cmds[i]);
    const int rc = ::ioctl(fd_, MMC_IOC_MULTI_CMD, multi);
    const int err = errno;
    for (std::size_t i = 0; i < cmds.size(); ++i)
        for (int r = 0; r < 4; ++r) cmds[i].response[r] = multi->cmds[i].response[r];
    std::free(multi);
    if (rc < 0) {
        std::string names;
        for (const auto& c : cmds) names += (names.empty() ? "" : ",") + name_of(c);
        throw std::system_error(err, std::generic_category(), fmt::format("{}: {}", path_, names));
    }
}

std::array<uint8_t, 4> MmcChannel::card_status(uint16_t rca)
{
    MmcCommand c;
    c.opcode = 13;
    c.arg = uint32_t{rca} << 16;
    c.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_ac;
    send(c);
    const uint32_t s = c.response[0];
    return {static_cast<uint8_t>(s >> 24), static_cast<uint8_t>(s >> 16), static_cast<uint8_t>(s >> 8),
            static_cast<uint8_t>(s)};
}

std::vector<uint8_t> MmcChannel::sd_scr()
{
    auto c = read_cmd(51, 0, 8, true);
    send(c);
    return c.data;
}

std::vector<uint8_t> MmcChannel::sd_status()
{
    auto c = read_cmd(13, 0, 64, true);
    send(c);
    return c.data;
}

std::vector<uint8_t> MmcChannel::sd_switch_query()
{
    // Mode 0 (check), every function group 0xF (no change): a read-only query.
    auto c = read_cmd(6, 0x00ffffff, 64, false);
    send(c);
    return c.data;
}

std::vector<uint8_t> MmcChannel::mmc_ext_csd()
{
    auto c = read_cmd(8, 0, 512, false);
    send(c);
    return c.data;
}

MmcChannel::CidCsd MmcChannel::cid_csd(uint16_t rca)
{
    const uint32_t addressed = uint32_t{rca} << 16;
    std::vector<MmcCommand> cmds(4);
    cmds[0].opcode = 7; // deselect: RCA 0, no response
    cmds[0].flags = rsp::none | rsp::cmd_ac;
    cmds[1].opcode = 9;
    cmds[1].arg = addressed;
    cmds[1].flags = rsp::r2 | rsp::cmd_ac;
    cmds[2].opcode = 10;
    cmds[2].arg = addressed;
    cmds[2].flags = rsp::r2 | rsp::cmd_ac;
    cmds[3].opcode = 7; // select again: back to transfer state
    cmds[3].arg = addressed;
    cmds[3].flags = rsp::r1b | rsp::cmd_ac;
    send_all(cmds);
    return {r2_bytes(cmds[2].response), r2_bytes(cmds[1].response)};
}

std::vector<uint8_t> r2_bytes(const std::array<uint32_t, 4>& response)
{
    std::vector<uint8_t> out;
    out.reserve(16);
    for (uint32_t word : response)
        for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(word >> shift));
    return out;
}

} // namespace mmc::dev
