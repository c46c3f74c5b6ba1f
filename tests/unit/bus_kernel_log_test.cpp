// The kernel log per host: the error lines the kernel prints on a failing
// mode, the split of a multi-host log by the lines that tie disks and
// controllers to hosts, the choice of one host (the evidence's own, the
// user's --dmesg-host, the log's only one, the one the evidence matches),
// and a log that cannot be tied to one host said so, never read silently.
#include "bus/kernel_log.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace {

using namespace mmc::bus;

std::string file_text(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::optional<LogEventKind> kind_of(const std::string& line)
{
    const auto log = parse_kernel_log(line + "\n", {"mmc0"});
    if (log.events.empty()) return std::nullopt;
    return log.events.front().kind;
}

TEST(BusKernelLog, TheErrorLinesOfAFailingMode)
{
    // Each as the kernel function named in kernel_log.cpp prints it.
    EXPECT_EQ(kind_of("[    2.1] mmc0: error -110 whilst initialising SD card"), LogEventKind::timeout);
    EXPECT_EQ(kind_of("mmc0: error -110 whilst initialising MMC card"), LogEventKind::timeout);
    EXPECT_EQ(kind_of("mmc0: error -84 whilst initialising SD card"), LogEventKind::crc_error);
    EXPECT_EQ(kind_of("[    3.2] mmc0: mmc_select_hs200 failed, error -84"), LogEventKind::mode_switch_failed);
    EXPECT_EQ(kind_of("mmc0: mmc_select_hs400es failed, error -110"), LogEventKind::mode_switch_failed);
    EXPECT_EQ(kind_of("mmc0: tuning execution failed: -5"), LogEventKind::tuning_failed);
    EXPECT_EQ(kind_of("mmc0: Timeout waiting for hardware interrupt."), LogEventKind::timeout);
    EXPECT_EQ(kind_of("mmc0: Timeout waiting for hardware cmd interrupt."), LogEventKind::timeout);
    EXPECT_EQ(kind_of("mmc0: reducing overclock due to errors"), LogEventKind::step_down);
    EXPECT_EQ(kind_of("mmc0: running CQE recovery"), LogEventKind::cqe_recovery);
    EXPECT_EQ(kind_of("mmc0: cqhci: timeout for tag 3, qcnt 1"), LogEventKind::cqe_recovery);
    EXPECT_EQ(kind_of("mmcblk0: mmc0:0001 AJTD4R 14.6 GiB"), std::nullopt);
    EXPECT_EQ(kind_of("mmc0: new high speed SDHC card at address aaaa"), std::nullopt);
    // "All phases bad!" names the controller, not the host: it counts when
    // the controller is this host's.
    const auto log = parse_kernel_log("mmc1: SDHCI controller on fe320000.mmc [fe320000.mmc] using ADMA\n"
                                      "dwmmc_rockchip fe320000.mmc: All phases bad!\n",
                                      {"mmc1"});
    ASSERT_EQ(log.events.size(), 1u);
    EXPECT_EQ(log.events.front().kind, LogEventKind::tuning_failed);
    EXPECT_EQ(log_event_name(LogEventKind::cqe_recovery), "command queue recovery");
}

TEST(BusKernelLog, TheCardKindOfACardLine)
{
    EXPECT_EQ(card_kind_of("mmc1: new ultra high speed SDR104 SDXC card at address aaaa"), CardKind::sd);
    EXPECT_EQ(card_kind_of("mmc0: new high speed SDHC card at address 0007"), CardKind::sd);
    EXPECT_EQ(card_kind_of("mmc2: new HS400 Enhanced strobe MMC card at address 0001"), CardKind::mmc);
    EXPECT_EQ(card_kind_of("mmc1: new high speed SDIO card at address 0001"), CardKind::sdio);
    EXPECT_EQ(card_kind_of("mmc0: something else"), CardKind::unknown);
}

// ---- one host out of several ---------------------------------------------

// rk3399-sd-tuning.log: the eMMC on mmc0, the SD card on mmc1, whose tuning
// failed ("dwmmc_rockchip fe320000.mmc: All phases bad!", "mmc1: tuning
// execution failed") and which later had a CRC error on its disk.
const std::string rk3399 = "tests/data/dmesg/rk3399-sd-tuning.log";

TEST(BusKernelLogHosts, EachHostGetsItsOwnErrorsOnly)
{
    const std::string log = file_text(rk3399);
    LogHostQuery q;
    q.host = "mmc1";
    q.devices = {"fe320000"};
    const auto sd = read_host_log(log, q);
    ASSERT_TRUE(sd.log);
    EXPECT_EQ(sd.host, "mmc1");
    EXPECT_EQ(sd.hosts, (std::vector<std::string>{"mmc1", "mmc0"}));
    std::vector<LogEventKind> kinds;
    for (const auto& e : sd.log->events) kinds.push_back(e.kind);
    EXPECT_EQ(kinds, (std::vector<LogEventKind>{LogEventKind::tuning_failed, LogEventKind::tuning_failed, LogEventKind::crc_error,
                                                 LogEventKind::crc_error}));
    EXPECT_EQ(sd.log->card_message, "mmc1: new high speed SDXC card at address aaaa");

    q.host = "mmc0";
    q.devices = {"fe330000"};
    const auto emmc = read_host_log(log, q);
    ASSERT_TRUE(emmc.log);
    EXPECT_TRUE(emmc.log->events.empty()) << emmc.log->events.front().text;
    EXPECT_EQ(emmc.log->card_message, "mmc0: new HS400 Enhanced strobe MMC card at address 0001");
}

TEST(BusKernelLogHosts, APastedDumpWithoutAHostTakesTheHostTheEvidenceMatches)
{
    const std::string log = file_text(rk3399);
    LogHostQuery q; // no host: a pasted ios dump without its path
    q.card_kind = CardKind::sd;
    const auto sd = read_host_log(log, q);
    ASSERT_TRUE(sd.log) << sd.note;
    EXPECT_EQ(sd.host, "mmc1");
    EXPECT_NE(sd.note.find("the only host whose card line names an SD card"), std::string::npos) << sd.note;
    q.card_kind = CardKind::mmc;
    EXPECT_EQ(read_host_log(log, q).host, "mmc0");
    // The DT node's unit address, tied to a host by the SDHCI controller line.
    q.card_kind = CardKind::unknown;
    q.devices = {"fe330000"};
    EXPECT_EQ(read_host_log(log, q).host, "mmc0");
}

TEST(BusKernelLogHosts, WhereTheEvidenceCannotPickTheLogIsNotReadAndSaysSo)
{
    const std::string two_sd = "[ 1.0] mmc0: new high speed SDHC card at address aaaa\n"
                               "[ 1.1] mmc1: new ultra high speed SDR104 SDXC card at address 59b4\n"
                               "[ 5.0] mmc1: tuning execution failed: -110\n";
    LogHostQuery q;
    q.card_kind = CardKind::sd;
    const auto none = read_host_log(two_sd, q);
    EXPECT_FALSE(none.log);
    EXPECT_NE(none.note.find("names mmc0 and mmc1"), std::string::npos) << none.note;
    EXPECT_TRUE(none.needs_host);
    // The user's pick decides.
    q.asked = "mmc1";
    const auto picked = read_host_log(two_sd, q);
    ASSERT_TRUE(picked.log);
    ASSERT_EQ(picked.log->events.size(), 1u);
    EXPECT_EQ(picked.log->events.front().kind, LogEventKind::tuning_failed);
    EXPECT_NE(picked.note.find("the host asked for"), std::string::npos) << picked.note;
    EXPECT_FALSE(picked.needs_host);
    // A host the log does not name, or another than the evidence's.
    q.asked = "mmc7";
    const auto absent = read_host_log(two_sd, q);
    EXPECT_FALSE(absent.log);
    EXPECT_NE(absent.note.find("not mmc7"), std::string::npos) << absent.note;
    q.asked = "mmc1";
    q.host = "mmc0";
    const auto other = read_host_log(two_sd, q);
    EXPECT_FALSE(other.log);
    EXPECT_NE(other.note.find("is not the evidence's own"), std::string::npos) << other.note;
    // The evidence's own host missing from the log.
    q.asked.clear();
    q.host = "mmc2";
    EXPECT_FALSE(read_host_log(two_sd, q).log);
}

TEST(BusKernelLogHosts, ALogNamingNoHostIsReadWhole)
{
    LogHostQuery q;
    const auto all = read_host_log("sdhci: tuning execution failed\n", q);
    ASSERT_TRUE(all.log);
    EXPECT_EQ(all.log->events.size(), 1u);
    EXPECT_TRUE(all.note.empty());
}

TEST(BusKernelLogHosts, TheTieLinesKeepADisksAndAControllersLinesWithTheirHost)
{
    const std::string before = "mmc0: SDHCI controller on fe330000.mmc [fe330000.mmc] using ADMA\n"
                               "mmcblk0: mmc0:0001 AJTD4R 14.6 GiB\n"
                               "mmc0: new HS400 MMC card at address 0001\n";
    EXPECT_EQ(disk_host_lines(before), "mmc0: SDHCI controller on fe330000.mmc [fe330000.mmc] using ADMA\n"
                                       "mmcblk0: mmc0:0001 AJTD4R 14.6 GiB\n");
    const std::string window = "sdhci-dwcmshc fe330000.mmc: CRC error\nmmcblk0: error -84 transferring data\n";
    EXPECT_EQ(parse_kernel_log(disk_host_lines(before) + window, {"mmc0"}).events.size(), 2u);
    EXPECT_TRUE(parse_kernel_log(disk_host_lines(before) + window, {"mmc1"}).events.empty());
}

// ---- pasted without its line breaks --------------------------------------

std::string joined(std::string text)
{
    for (auto& c : text)
        if (c == '\n') c = ' ';
    return text;
}

void expect_same(const KernelLog& a, const KernelLog& b, const std::string& what)
{
    EXPECT_EQ(a.card_message, b.card_message) << what;
    EXPECT_EQ(a.pci_address, b.pci_address) << what;
    ASSERT_EQ(a.events.size(), b.events.size()) << what;
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        EXPECT_EQ(a.events[i].kind, b.events[i].kind) << what << " event " << i;
        EXPECT_EQ(a.events[i].line, b.events[i].line) << what << " event " << i;
        EXPECT_EQ(a.events[i].text, b.events[i].text) << what << " event " << i;
    }
}

TEST(BusKernelLogJoined, EveryFixtureReadsTheSameWithoutItsLineBreaks)
{
    int compared = 0;
    for (const char* name : {"emmc-hs200-stepdown.log", "rk3399-sd-tuning.log", "rpi4-voltage.log"}) {
        const std::string text = file_text(std::string("tests/data/dmesg/") + name);
        ASSERT_NE(joined(text).find(' '), std::string::npos);
        for (const auto& hosts : hosts_in_log(text)) {
            const auto a = parse_kernel_log(text, {hosts});
            const auto b = parse_kernel_log(joined(text), {hosts});
            expect_same(a, b, std::string(name) + " " + hosts);
            compared += static_cast<int>(a.events.size()) + !a.card_message.empty();
        }
        EXPECT_EQ(hosts_in_log(text), hosts_in_log(joined(text))) << name;
        LogHostQuery q;
        q.card_kind = CardKind::sd;
        const auto a = read_host_log(text, q), b = read_host_log(joined(text), q);
        EXPECT_EQ(a.host, b.host) << name;
        EXPECT_EQ(a.note, b.note) << name;
    }
    EXPECT_GT(compared, 12); // the fixtures hold that many events and card lines
}

TEST(BusKernelLogJoined, HostileJoinedTextStaysLinear)
{
    std::string many;
    for (int i = 0; i < 100000; ++i) many += "[ 1.0] mmc0: CRC error ";
    EXPECT_EQ(parse_kernel_log(many, {"mmc0"}).events.size(), 100000u);
    // Words and blanks without any line start: one line, nothing to read.
    EXPECT_TRUE(parse_kernel_log(std::string(2'000'000, ' ') + "x", {"mmc0"}).events.empty());
    std::string words;
    for (int i = 0; i < 200000; ++i) words += "dwmmc_x a.b ";
    EXPECT_TRUE(parse_kernel_log(words, {"mmc0"}).events.empty());
    std::string half_stamps;
    for (int i = 0; i < 200000; ++i) half_stamps += "[ 1234. ";
    EXPECT_TRUE(parse_kernel_log(half_stamps, {}).events.empty());
}

} // namespace
