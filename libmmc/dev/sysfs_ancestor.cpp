#include "dev/sysfs_ancestor.h"

namespace mmc::dev {

std::optional<fs::path> last_ancestor_named(const fs::path& path, const std::regex& name)
{
    fs::path acc;
    std::optional<fs::path> found;
    for (const auto& part : path) {
        acc /= part;
        if (std::regex_match(part.string(), name)) found = acc;
    }
    return found;
}

} // namespace mmc::dev
