// The ranking: of the reasons the ceiling falls short, the one whose fix
// alone raises it most names the limit; ties go by who can change it.
#include "bus/doctor_parts.h"

namespace mmc::bus::doctor_parts {

namespace {

int owner_rank(Limit owner)
{
    constexpr std::array<Limit, 5> order{Limit::board, Limit::host, Limit::card, Limit::tuning, Limit::unknown};
    return static_cast<int>(std::find(order.begin(), order.end(), owner) - order.begin());
}

} // namespace

void rank(std::vector<Shortfall>& shortfalls)
{
    // The limit is the shortfall whose fix alone raises the ceiling most. When
    // card and host stop at the same mode neither alone helps; the card names
    // it then, because a host's caps can be changed in its device tree and a
    // card's registers cannot.
    std::stable_sort(shortfalls.begin(), shortfalls.end(), [](const Shortfall& a, const Shortfall& b) {
        if (a.gain != b.gain) return a.gain > b.gain;
        // A SoC's own limit (the Pi 3's sdhost) is as fixed as a card's
        // registers, and it holds for every card: it names the tie.
        if (a.gain < negligible_gain && a.hard_limit != b.hard_limit) return a.hard_limit;
        const bool a_card = a.owner == Limit::card, b_card = b.owner == Limit::card;
        return a_card != b_card && a.gain < negligible_gain ? a_card : owner_rank(a.owner) < owner_rank(b.owner);
    });
}

} // namespace mmc::bus::doctor_parts
