#include "dev/write_protect.h"

#include <fstream>

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

} // namespace mmc::dev
