// mmc-watch --journal: one journal record per event, with fields an
// operator filters on (journalctl MMC_CARD_SERIAL=0x1234abcd). The field
// names are the contract mmc-watch(1) documents. Pure.
#pragma once

#include "dev/journal.h"
#include "dev/uevent.h"
#include "dev/uevent_card.h"

namespace mmc::out {

// syslog priorities: 6 info for an event, 4 warning for a card or disk
// going away, a disk turning read-only (DISK_RO=1) or host errors counted.
int uevent_journal_priority(const dev::Uevent& e, const dev::UeventCardFacts& f);

dev::JournalFields uevent_journal_fields(const dev::Uevent& e, const dev::UeventCardFacts& f);

} // namespace mmc::out
