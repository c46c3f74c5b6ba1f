// mmc-lock: a lab-only tool (never installed) that password-locks the SD
// lab's card with CMD42 and force-erases it to unlock it again, so the lab
// can check what mmc-health says about a locked card. mmckit's own tools
// never send CMD42: locking a user's card is not a diagnosis.
//
//   mmc-lock DEVICE lock PASSWORD   set a password and lock (CMD42 SET_PWD|LOCK_UNLOCK)
//   mmc-lock DEVICE unlock PASSWORD unlock with the password (CMD42, no flags)
//   mmc-lock DEVICE force-erase     CMD16(1), CMD42 ERASE, CMD16(512): clears the
//                                   password and the lock (and, on a real card, every byte)
//
// Why force-erase rather than unlock with the password: QEMU's SD model
// (hw/sd/sd.c sd_lock_command, 7.2) accepts a CMD42 only when its PWD_LEN
// is longer than the stored password, so an unlock with the same password
// always fails with LOCK_UNLOCK_FAILED there; the forced erase, which takes
// a one-byte block, is the one way back. QEMU erases no data for it.
//
// Prints the card status (CMD13) after the commands as "status 0xXXXXXXXX
// locked N failed N"; exits 1 when a response carries LOCK_UNLOCK_FAILED or
// the requested state was not reached.
#include "dev/mmc_ioctl.h"
#include "dev/resolver.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using mmc::dev::MmcCommand;
namespace rsp = mmc::dev::rsp;

constexpr uint32_t card_is_locked = 1u << 25;     // card status bit 25
constexpr uint32_t lock_unlock_failed = 1u << 24; // card status bit 24

// CMD42's data block flags (SD Physical Layer, "Card Lock/Unlock Operation").
constexpr uint8_t set_pwd = 0x01, lock = 0x04, erase = 0x08;

MmcCommand set_blocklen(uint32_t bytes)
{
    MmcCommand c;
    c.opcode = 16;
    c.arg = bytes;
    c.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_ac;
    return c;
}

MmcCommand lock_unlock(std::vector<uint8_t> block)
{
    MmcCommand c;
    c.opcode = 42;
    c.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_adtc;
    c.write = true;
    c.data = std::move(block);
    return c;
}

int usage()
{
    std::fputs("usage: mmc-lock DEVICE lock|unlock PASSWORD | mmc-lock DEVICE force-erase\n", stderr);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) return usage();
    const std::string what = argv[2];
    if (!(((what == "lock" || what == "unlock") && argc == 4) || (what == "force-erase" && argc == 3))) return usage();
    try {
        const auto device = mmc::dev::resolve_device(argv[1], mmc::dev::Purpose::read, {});
        if (!device.card) throw std::runtime_error("not a card on an MMC host");
        mmc::dev::MmcChannel channel(device.disk_path);
        std::vector<MmcCommand> commands;
        if (what != "force-erase") {
            const std::string password = argv[3];
            if (password.empty() || password.size() > 16) throw std::runtime_error("the password is 1 to 16 bytes");
            std::vector<uint8_t> block(512, 0); // the host's block length: CMD42 reads that many
            block[0] = what == "lock" ? set_pwd | lock : 0;
            block[1] = static_cast<uint8_t>(password.size());
            std::memcpy(block.data() + 2, password.data(), password.size());
            commands.push_back(lock_unlock(std::move(block)));
        } else {
            commands.push_back(set_blocklen(1));
            commands.push_back(lock_unlock({erase}));
            commands.push_back(set_blocklen(512));
        }
        channel.send_all(commands);
        const auto s = channel.card_status(device.card->rca);
        const uint32_t status = uint32_t{s[0]} << 24 | uint32_t{s[1]} << 16 | uint32_t{s[2]} << 8 | s[3];
        // LOCK_UNLOCK_FAILED is cleared once reported: it shows in the response
        // of the command after the CMD42 (the CMD16 of a force-erase) or in CMD13's.
        bool failed = status & lock_unlock_failed;
        for (const auto& c : commands) failed = failed || (c.response[0] & lock_unlock_failed);
        const bool locked = status & card_is_locked;
        std::printf("status 0x%08x locked %d failed %d\n", status, locked ? 1 : 0, failed ? 1 : 0);
        return !failed && locked == (what == "lock") ? 0 : 1;
    } catch (const mmc::dev::DeviceError& e) {
        std::fprintf(stderr, "mmc-lock: %s\n", e.what()); // names the device itself
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mmc-lock: %s: %s\n", argv[1], e.what());
        return 1;
    }
}
