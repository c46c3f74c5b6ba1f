#include "dev/write_protect.h"

#include <cerrno>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace mmc::dev {

namespace {

std::optional<bool> flag_file(const fs::path& path)
{
    std::ifstream in(path);
    int v = 0;
    if (!(in >> v)) return std::nullopt;
    return v != 0;
}

} // namespace

HostWriteFacts read_host_write_facts(const Card& card, const SysRoots& roots)
{
    HostWriteFacts f;
    if (!card.block.empty()) {
        const fs::path block = roots.sysfs / "block" / card.block;
        f.ro = flag_file(block / "ro");
        f.force_ro = flag_file(block / "force_ro");
    }
    std::error_code ec;
    const fs::path node = card.host.controller.syspath / "of_node";
    if (!card.host.controller.syspath.empty() && fs::exists(node, ec)) {
        f.wp_gpios = fs::exists(node / "wp-gpios", ec);
        f.disable_wp = fs::exists(node / "disable-wp", ec);
    }
    return f;
}

std::optional<BootAreaNode> boot_area_node(const Card& card, const std::string& disk_node, int area, const SysRoots& roots)
{
    if (area < 1 || area > 2 || card.block.empty()) return std::nullopt;
    const std::string name = fmt::format("{}boot{}", card.block, area - 1);
    for (const auto& p : card.partitions)
        if (p.name == name && p.boot_area)
            return BootAreaNode{fmt::format("{}boot{}", disk_node, area - 1), roots.sysfs / "block" / name / "force_ro", p.bytes};
    return std::nullopt;
}

bool read_force_ro(const fs::path& path)
{
    if (const auto v = flag_file(path)) return *v;
    throw std::system_error(ENOENT, std::generic_category(), path.string());
}

void write_force_ro(const fs::path& path, bool on)
{
    std::ofstream out(path);
    out << (on ? "1\n" : "0\n");
    out.flush();
    if (!out) throw std::system_error(errno ? errno : EIO, std::generic_category(), path.string());
}

namespace {

// The kernel takes at most MMC_IOC_MAX_CMDS (255) commands per transaction.
constexpr std::size_t max_batch = 255;

template <std::size_t N>
std::vector<std::array<uint8_t, N>> query(MmcChannel& channel, uint32_t opcode, const std::vector<uint32_t>& addresses)
{
    std::vector<std::array<uint8_t, N>> out;
    for (std::size_t start = 0; start < addresses.size(); start += max_batch) {
        std::vector<MmcCommand> cmds;
        for (std::size_t i = start; i < addresses.size() && i < start + max_batch; ++i) {
            MmcCommand c;
            c.opcode = opcode;
            c.arg = addresses[i];
            c.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_adtc;
            c.data.assign(N, 0);
            cmds.push_back(std::move(c));
        }
        if (cmds.size() == 1)
            channel.send(cmds[0]);
        else
            channel.send_all(cmds);
        for (const auto& c : cmds) {
            std::array<uint8_t, N> a{};
            std::copy(c.data.begin(), c.data.end(), a.begin());
            out.push_back(a);
        }
    }
    return out;
}

// Card status bits that say a write protect command failed (JESD84-B51
// 6.13): OUT_OF_RANGE, ADDRESS_ERROR, WP_VIOLATION, ILLEGAL_COMMAND, ERROR.
constexpr uint32_t wp_error_bits = (1u << 31) | (1u << 30) | (1u << 26) | (1u << 22) | (1u << 19);

} // namespace

std::vector<std::array<uint8_t, 8>> send_write_prot_type(MmcChannel& channel, const std::vector<uint32_t>& addresses)
{
    return query<8>(channel, 31, addresses);
}

std::vector<std::array<uint8_t, 4>> send_write_prot(MmcChannel& channel, const std::vector<uint32_t>& addresses)
{
    return query<4>(channel, 30, addresses);
}

void set_write_prot(MmcChannel& channel, uint16_t rca, const std::vector<uint32_t>& addresses, bool set)
{
    for (std::size_t start = 0; start < addresses.size(); start += max_batch / 2) {
        std::vector<MmcCommand> cmds;
        for (std::size_t i = start; i < addresses.size() && i < start + max_batch / 2; ++i) {
            MmcCommand c;
            c.opcode = set ? 28 : 29;
            c.arg = addresses[i];
            c.flags = rsp::spi_r1b | rsp::r1b | rsp::cmd_ac;
            c.write = true;
            cmds.push_back(c);
            MmcCommand status;
            status.opcode = 13;
            status.arg = uint32_t{rca} << 16;
            status.flags = rsp::spi_r1 | rsp::r1 | rsp::cmd_ac;
            cmds.push_back(status);
        }
        channel.send_all(cmds);
        for (std::size_t i = 0; i < cmds.size(); i += 2) {
            const uint32_t bad = (cmds[i].response[0] | cmds[i + 1].response[0]) & wp_error_bits;
            if (bad)
                throw std::runtime_error(fmt::format("CMD{} at address 0x{:x}: card status 0x{:08x}", cmds[i].opcode, cmds[i].arg,
                                                     cmds[i].response[0] | cmds[i + 1].response[0]));
        }
    }
}

} // namespace mmc::dev
