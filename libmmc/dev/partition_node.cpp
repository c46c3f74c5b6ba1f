// partition_node, wait_for_block_node (partition_node.h).
#include "dev/partition_node.h"

#include <cctype>
#include <sys/stat.h>
#include <thread>

namespace mmc::dev {

std::string partition_node(const std::string& disk_node, unsigned number)
{
    const bool ends_in_digit = !disk_node.empty() && std::isdigit(static_cast<unsigned char>(disk_node.back()));
    return disk_node + (ends_in_digit ? "p" : "") + std::to_string(number);
}

bool wait_for_block_node(const std::string& node, std::chrono::milliseconds limit)
{
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
        struct stat st {};
        if (::stat(node.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) return true;
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

} // namespace mmc::dev
