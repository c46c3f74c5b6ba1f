#include "health/collect.h"

namespace mmc::health {

std::vector<Cmd56Read> read_layouts(const std::vector<const Layout*>& layouts, const Cmd56Sender& send)
{
    std::vector<Cmd56Read> out;
    bool stopped = false;
    for (const Layout* layout : layouts) {
        if (stopped) {
            out.push_back({std::string(layout->name), {}, "not sent: the card stopped answering an earlier command"});
            continue;
        }
        out.push_back(send(*layout, stopped));
    }
    return out;
}

} // namespace mmc::health
