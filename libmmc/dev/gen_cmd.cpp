#include "dev/gen_cmd.h"

#include <cerrno>
#include <fmt/format.h>

namespace mmc::dev {

namespace {

constexpr uint32_t gen_cmd = 56;
constexpr std::size_t block_bytes = 512;

MmcCommand gen_cmd_of(uint32_t arg, bool write)
{
    MmcCommand c;
    c.opcode = gen_cmd;
    c.arg = arg;
    c.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_adtc;
    c.write = write;
    c.data.assign(block_bytes, 0); // the write sends zeros, as the published two-step readers do
    c.cmd_timeout_ms = gen_cmd_timeout_ms;
    c.data_timeout_ns = gen_cmd_timeout_ms * 1'000'000u;
    return c;
}

// Timed out, or the card or its device went away.
bool stopped_answering(int err) { return err == ETIMEDOUT || err == ENOMEDIUM || err == ENODEV || err == ENXIO; }

} // namespace

GenCmdAnswer gen_cmd_exchange(MmcChannel& channel, std::optional<uint32_t> write_arg,
                              const std::vector<uint32_t>& read_args)
{
    GenCmdAnswer answer;
    auto send = [&](MmcCommand& c) {
        try {
            channel.send(c);
            return true;
        } catch (const std::system_error& e) {
            answer.error = fmt::format("CMD56 {} (arg 0x{:08x}): {}", c.write ? "write" : "read", c.arg,
                                       e.code().message());
            answer.card_stopped = stopped_answering(e.code().value());
            return false;
        }
    };
    if (write_arg) {
        MmcCommand w = gen_cmd_of(*write_arg, true);
        if (!send(w)) return answer;
    }
    for (uint32_t arg : read_args) {
        MmcCommand r = gen_cmd_of(arg, false);
        if (!send(r)) return answer;
        answer.blocks.push_back({arg, std::move(r.data)});
    }
    return answer;
}

} // namespace mmc::dev
