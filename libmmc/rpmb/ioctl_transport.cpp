#include "rpmb/ioctl_transport.h"

#include <algorithm>

namespace mmc::rpmb {

IoctlTransport::IoctlTransport(const std::string& rpmb_device) : channel_(rpmb_device, dev::MmcChannel::Access::read_write) {}

void IoctlTransport::exchange(std::vector<Transfer>& transfers)
{
    std::vector<dev::MmcCommand> cmds(transfers.size());
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const auto& t = transfers[i];
        auto& c = cmds[i];
        const bool write = t.direction == Transfer::Direction::write;
        c.opcode = write ? 25 : 18; // WRITE_MULTIPLE_BLOCK, READ_MULTIPLE_BLOCK
        c.flags = dev::rsp::spi_r1 | dev::rsp::r1 | dev::rsp::cmd_adtc;
        c.write = write;
        c.reliable_write = write && t.reliable;
        c.block_size = frame_bytes;
        c.data.assign(t.frames.size() * frame_bytes, 0);
        if (write)
            for (std::size_t f = 0; f < t.frames.size(); ++f)
                std::copy(t.frames[f].bytes().begin(), t.frames[f].bytes().end(), c.data.begin() + static_cast<long>(f * frame_bytes));
    }
    channel_.send_all(cmds);
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        auto& t = transfers[i];
        if (t.direction != Transfer::Direction::read) continue;
        for (std::size_t f = 0; f < t.frames.size(); ++f)
            std::copy_n(cmds[i].data.begin() + static_cast<long>(f * frame_bytes), frame_bytes, t.frames[f].bytes().begin());
    }
}

} // namespace mmc::rpmb
