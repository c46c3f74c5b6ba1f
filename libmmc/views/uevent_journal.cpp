#include "views/uevent_journal.h"

#include <fmt/format.h>

namespace mmc::out {

namespace {

std::uint64_t error_total(const dev::UeventCardFacts& f)
{
    std::uint64_t n = 0;
    for (const auto& [key, count] : f.host_errors) n += count;
    return n;
}

bool disk_turned_read_only(const dev::Uevent& e)
{
    const auto ro = e.env.find("DISK_RO");
    return ro != e.env.end() && ro->second == "1";
}

} // namespace

int uevent_journal_priority(const dev::Uevent& e, const dev::UeventCardFacts& f)
{
    if (e.action == "remove" || e.action == "unbind" || disk_turned_read_only(e) || error_total(f) > 0) return 4;
    return 6;
}

dev::JournalFields uevent_journal_fields(const dev::Uevent& e, const dev::UeventCardFacts& f)
{
    // "add mmc mmc0:0001: SD card SD16G, serial 0x1234abcd; host errors 3"
    std::string what = !e.devname.empty() ? e.devname : !f.card.empty() ? f.card : !f.host.empty() ? f.host : e.devpath;
    std::string message = fmt::format("{} {} {}", e.action, e.subsystem.empty() ? "-" : e.subsystem, what);
    std::vector<std::string> about;
    if (!f.card.empty() && f.card != what) about.push_back(f.card);
    if (!f.type.empty() || !f.name.empty())
        about.push_back(fmt::format("{} card{}", f.type.empty() ? "MMC/SD" : f.type, f.name.empty() ? "" : " " + f.name));
    if (!f.serial.empty()) about.push_back("serial " + f.serial);
    if (disk_turned_read_only(e)) about.push_back("now read-only");
    if (const auto n = error_total(f); n > 0) about.push_back(fmt::format("{} errors counted by {}", n, f.host));
    for (std::size_t i = 0; i < about.size(); ++i) message += (i ? ", " : ": ") + about[i];

    dev::JournalFields j{{"MESSAGE", message},
                         {"PRIORITY", std::to_string(uevent_journal_priority(e, f))},
                         {"SYSLOG_IDENTIFIER", "mmc-watch"},
                         {"MMC_EVENT", e.action},
                         {"MMC_SUBSYSTEM", e.subsystem},
                         {"MMC_DEVPATH", e.devpath}};
    auto add = [&](const char* name, const std::string& value) {
        if (!value.empty()) j.emplace_back(name, value);
    };
    add("MMC_DEVNAME", e.devname);
    if (e.seqnum) add("MMC_SEQNUM", std::to_string(*e.seqnum));
    if (const auto ro = e.env.find("DISK_RO"); ro != e.env.end()) add("MMC_DISK_RO", ro->second);
    add("MMC_HOST", f.host);
    add("MMC_CARD", f.card);
    add("MMC_CARD_SERIAL", f.serial);
    add("MMC_CARD_CID", f.cid);
    add("MMC_CARD_NAME", f.name);
    add("MMC_CARD_TYPE", f.type);
    for (const auto& [key, count] : f.host_errors) j.emplace_back("MMC_HOST_ERR_" + key, std::to_string(count));
    if (!f.host_errors.empty()) j.emplace_back("MMC_HOST_ERRORS", std::to_string(error_total(f)));
    return j;
}

} // namespace mmc::out
