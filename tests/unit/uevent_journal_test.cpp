// mmc-watch --journal: the native protocol's encoding, a record received on
// a socket as the journal would, the card facts read from a sysfs tree (and
// kept once the card is gone) and the fields a record carries.
#include "dev/journal.h"
#include "dev/uevent_card.h"
#include "views/uevent_journal.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace mmc::dev;

namespace {

std::string field(const JournalFields& fields, const std::string& name)
{
    for (const auto& [n, v] : fields)
        if (n == name) return v;
    return "<absent>";
}

void write_file(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

const char* card_devpath = "/devices/platform/fe340000.mmc/mmc_host/mmc1/mmc1:0001";

Uevent event(std::string action, std::string subsystem, std::string devpath, std::string devname = {})
{
    Uevent e;
    e.action = std::move(action);
    e.subsystem = std::move(subsystem);
    e.devpath = std::move(devpath);
    e.devname = std::move(devname);
    e.seqnum = 42;
    return e;
}

struct Tree {
    fs::path root = fs::temp_directory_path() / ("uevent-journal-" + std::to_string(::getpid()));
    Tree()
    {
        const fs::path card = root / "sys" / fs::path(card_devpath).relative_path();
        write_file(card / "serial", "0x1234abcd\n");
        write_file(card / "cid", "150100424a544434520112345678abcd\n");
        write_file(card / "name", "BJTD4R\n");
        write_file(card / "type", "MMC\n");
        fs::create_directories(root / "sys" / "bus" / "mmc" / "devices");
        fs::create_directory_symlink("../../../devices/platform/fe340000.mmc/mmc_host/mmc1/mmc1:0001",
                                     root / "sys" / "bus" / "mmc" / "devices" / "mmc1:0001");
        write_file(root / "debug" / "mmc1" / "err_stats",
                   "# Command Timeout Occurred:\t 0\n# Data CRC Errors Occurred:\t 3\n# Unexpected IRQ errors:\t 1\n");
    }
    ~Tree() { fs::remove_all(root); }
    SysRoots roots() const
    {
        SysRoots r;
        r.sysfs = root / "sys";
        r.debugfs = root / "debug";
        return r;
    }
};

} // namespace

TEST(JournalProtocol, PlainAndBinaryFields)
{
    const auto d = journal_datagram({{"MESSAGE", "card added"}, {"MMC_CARD_SERIAL", "0x1"}, {"NOTE", "two\nlines"}});
    const std::string binary = std::string("NOTE\n") + std::string("\x09\0\0\0\0\0\0\0", 8) + "two\nlines\n";
    EXPECT_EQ(d, "MESSAGE=card added\nMMC_CARD_SERIAL=0x1\n" + binary);
}

TEST(JournalProtocol, RefusesNamesTheJournalDrops)
{
    for (const char* bad : {"", "_PID", "1ABC", "lower", "MMC-CARD", "A B"}) EXPECT_FALSE(journal_field_name_ok(bad)) << bad;
    EXPECT_FALSE(journal_field_name_ok(std::string(65, 'A')));
    EXPECT_TRUE(journal_field_name_ok("MMC_HOST_ERR_DATA_CRC"));
    EXPECT_THROW(journal_datagram({{"_PID", "1"}}), std::invalid_argument);
}

TEST(JournalProtocol, SendsOneDatagramToTheSocket)
{
    const std::string path = (fs::temp_directory_path() / ("journal-test-" + std::to_string(::getpid()))).string();
    ::unlink(path.c_str());
    const int server = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(server, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    JournalSocket(path).send({{"MESSAGE", "hello"}, {"MMC_EVENT", "add"}});
    char buf[256];
    const ssize_t n = ::recv(server, buf, sizeof(buf), MSG_DONTWAIT);
    ASSERT_GT(n, 0);
    EXPECT_EQ(std::string(buf, static_cast<std::size_t>(n)), "MESSAGE=hello\nMMC_EVENT=add\n");
    ::close(server);
    ::unlink(path.c_str());
    EXPECT_THROW(JournalSocket{path}, std::system_error); // nobody listening: said at once
}

TEST(UeventCard, NamesFromTheDevpath)
{
    const auto f = card_names_of(std::string(card_devpath) + "/block/mmcblk1/mmcblk1p2");
    EXPECT_EQ(f.host, "mmc1");
    EXPECT_EQ(f.card, "mmc1:0001");
    EXPECT_EQ(f.card_path, card_devpath);
    const auto host = card_names_of("/devices/platform/fe340000.mmc/mmc_host/mmc1");
    EXPECT_EQ(host.host, "mmc1");
    EXPECT_EQ(host.card, "");
}

TEST(UeventCard, ErrStatsAsCounters)
{
    const auto e = parse_err_stats("# Command CRC Errors Occurred:\t 2\n# Data CRC Errors Occurred:\t 3\n# Some New Thing:\t 7\n"
                                   "Not supported by driver\n# Broken:\t x\n# Huge:\t 99999999999999999999999\n");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0], (std::pair<std::string, std::uint64_t>{"CMD_CRC", 2}));
    EXPECT_EQ(e[1], (std::pair<std::string, std::uint64_t>{"DATA_CRC", 3}));
    EXPECT_EQ(e[2], (std::pair<std::string, std::uint64_t>{"SOME_NEW_THING", 7}));
    EXPECT_TRUE(parse_err_stats("").empty());
}

TEST(UeventCard, SerialKeptAfterTheCardIsGone)
{
    Tree tree;
    CardFactsCache cache(tree.roots());
    cache.prime();
    fs::remove_all(tree.root / "sys" / "devices"); // pulled: sysfs forgets it
    const auto f = cache.facts_of(event("remove", "block", std::string(card_devpath) + "/block/mmcblk1", "mmcblk1"));
    EXPECT_EQ(f.serial, "0x1234abcd");
    EXPECT_EQ(f.cid, "150100424a544434520112345678abcd");
    EXPECT_EQ(f.host_errors.size(), 3u);
    // After the card's own remove, it is forgotten.
    cache.facts_of(event("remove", "mmc", card_devpath));
    EXPECT_EQ(cache.facts_of(event("remove", "block", std::string(card_devpath) + "/block/mmcblk1", "mmcblk1")).serial, "");
}

TEST(UeventJournal, RecordFields)
{
    Tree tree;
    CardFactsCache cache(tree.roots());
    auto e = event("change", "block", std::string(card_devpath) + "/block/mmcblk1", "mmcblk1");
    e.env["DISK_RO"] = "1";
    const auto j = mmc::out::uevent_journal_fields(e, cache.facts_of(e));
    EXPECT_EQ(field(j, "MMC_CARD_SERIAL"), "0x1234abcd");
    EXPECT_EQ(field(j, "MMC_HOST"), "mmc1");
    EXPECT_EQ(field(j, "MMC_CARD"), "mmc1:0001");
    EXPECT_EQ(field(j, "MMC_EVENT"), "change");
    EXPECT_EQ(field(j, "MMC_DEVNAME"), "mmcblk1");
    EXPECT_EQ(field(j, "MMC_DISK_RO"), "1");
    EXPECT_EQ(field(j, "MMC_HOST_ERR_DATA_CRC"), "3");
    EXPECT_EQ(field(j, "MMC_HOST_ERRORS"), "4");
    EXPECT_EQ(field(j, "PRIORITY"), "4");
    EXPECT_EQ(field(j, "SYSLOG_IDENTIFIER"), "mmc-watch");
    EXPECT_EQ(field(j, "MESSAGE"),
              "change block mmcblk1: mmc1:0001, MMC card BJTD4R, serial 0x1234abcd, now read-only, 4 errors counted by mmc1");
    EXPECT_NO_THROW(journal_datagram(j));
}

TEST(UeventJournal, QuietEventIsInfo)
{
    const auto e = event("add", "mmc_host", "/devices/platform/x/mmc_host/mmc0");
    const auto j = mmc::out::uevent_journal_fields(e, card_names_of(e.devpath));
    EXPECT_EQ(field(j, "PRIORITY"), "6");
    EXPECT_EQ(field(j, "MMC_CARD_SERIAL"), "<absent>");
    EXPECT_EQ(field(j, "MESSAGE"), "add mmc_host mmc0");
}
