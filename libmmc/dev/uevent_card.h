// What an operator filters a card's events on, for an event mmc-watch sees:
// the host (mmc0), the card (mmc0:0001), its serial and CID from sysfs and
// the host's error counters from debugfs (mmcN/err_stats, Linux 6.0 on).
// A card's sysfs directory is gone by its remove event: CardFactsCache
// keeps what was read while it was there.
#pragma once

#include "dev/sysfs.h"
#include "dev/uevent.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mmc::dev {

struct UeventCardFacts {
    std::string host;        // "mmc0", from the devpath
    std::string card;        // "mmc0:0001", from the devpath; empty for a host's own event
    std::string card_path;   // the devpath up to the card
    std::string serial;      // sysfs serial ("0x1234abcd")
    std::string cid;         // sysfs cid (32 hex digits)
    std::string name;        // sysfs name (product name)
    std::string type;        // sysfs type (SD, MMC, SDIO)
    std::vector<std::pair<std::string, std::uint64_t>> host_errors; // (CMD_CRC, 3) ... from err_stats
};

// The host and card names a devpath goes through:
// ".../mmc_host/mmc0/mmc0:0001/block/mmcblk0" gives mmc0 and mmc0:0001.
UeventCardFacts card_names_of(std::string_view devpath);

// debugfs err_stats ("# Data CRC Errors Occurred:\t 3" per line) as
// (DATA_CRC, 3); a label it does not know becomes its words in capitals.
// Lines that are not counters ("Not supported by driver") are skipped.
std::vector<std::pair<std::string, std::uint64_t>> parse_err_stats(std::string_view text);

class CardFactsCache {
public:
    explicit CardFactsCache(SysRoots roots) : roots_(std::move(roots)) {}
    // The cards present now, so that a card pulled later is still named.
    void prime();
    // The event's host and card with what sysfs says of the card now, or
    // what it said while the card was there; err_stats as of now.
    UeventCardFacts facts_of(const Uevent& event);

private:
    void read_card(UeventCardFacts& f) const;
    SysRoots roots_;
    std::map<std::string, UeventCardFacts> cards_; // by card devpath
};

} // namespace mmc::dev
