// mmc-tune queue's persistent form (tune/queue_udev.h) and --apply/--undo
// (tune/queue_apply.h) over a scratch tree standing in for sysfs, the rules
// directory and the run directory: the rule matched by what identifies the
// device (a card's CID, udev's serial, a loop device's backing file), values
// udev cannot match exactly refused, the state written before anything and
// read back with suspicion.
#include "dev/block_queue.h"
#include "dev/disk_identity.h"
#include "dev/resolver.h"
#include "sysfs_fixture.h"
#include "tune/queue_apply.h"
#include "tune/queue_udev.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace mmc::tune;
namespace fs = std::filesystem;

namespace {

struct Scratch {
    fs::path root;
    Scratch()
    {
        char pattern[] = "/tmp/tune-queue-test-XXXXXX";
        root = ::mkdtemp(pattern);
        fs::create_directories(disk() / "queue");
        put("mq-deadline", 128);
    }
    ~Scratch() { fs::remove_all(root); }
    fs::path disk() const { return root / "sys" / "loop0"; }
    QueueApplyPaths paths() const { return {root / "rules.d", root / "run"}; }
    void put(const std::string& scheduler, uint64_t kb) const
    {
        std::ofstream(disk() / "queue" / "scheduler") << "[" << scheduler << "] none\n";
        std::ofstream(disk() / "queue" / "read_ahead_kb") << kb << "\n";
    }
    static std::string read(const fs::path& p)
    {
        std::ifstream in(p);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
};

const std::string cid = "035344534431364780000014d8012a00";

} // namespace

TEST(TuneQueueUdev, ACardIsMatchedByItsCidNotItsKernelName)
{
    mmc::dev::DiskIdentity id;
    id.cid = cid;
    id.card_name = "SD16G";
    id.card_serial = "0x000014d8";
    id.loop_backing_file = "/ignored";
    std::string why;
    const auto m = device_match(id, true, why);
    ASSERT_TRUE(m) << why;
    EXPECT_EQ(rule_file_name(*m), "60-mmckit-queue-cid-" + cid + ".rules");
    const std::string rule = udev_rule(*m, {"none", 512}, "mmc-tune queue: none, read-ahead 512 KiB\nsecond line");
    EXPECT_EQ(rule, "# mmc-tune queue: none, read-ahead 512 KiB\n"
                    "# second line\n"
                    "# matched by the card's CID " + cid + " (SD16G, serial 0x000014d8)\n"
                    "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", KERNEL!=\"mmcblk*boot*\", "
                    "ATTRS{cid}==\"" + cid + "\", ATTR{queue/scheduler}=\"none\", ATTR{queue/read_ahead_kb}=\"512\"\n");
    EXPECT_EQ(rule.find("mmcblk0"), std::string::npos);
}

TEST(TuneQueueUdev, ALoopDeviceByItsBackingFileAndADiskByUdevsSerial)
{
    mmc::dev::DiskIdentity loop;
    loop.loop_backing_file = "/tmp/card.img";
    std::string why;
    const auto m = device_match(loop, false, why);
    ASSERT_TRUE(m) << why;
    const std::string rule = udev_rule(*m, {"mq-deadline", 2048}, "x");
    EXPECT_NE(rule.find(", KERNEL==\"loop*\", ATTR{loop/backing_file}==\"/tmp/card.img\", "), std::string::npos) << rule;
    EXPECT_EQ(rule_file_name(*m).rfind("60-mmckit-queue-loop-", 0), 0u);
    mmc::dev::DiskIdentity usb;
    usb.id_serial = "Generic_STORAGE_DEVICE_000000009-0:0";
    usb.loop_backing_file = "/not/this";
    const auto u = device_match(usb, false, why);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->keys.at(0).key, "ENV{ID_SERIAL}");
    EXPECT_NE(u->scope.find("any card in this reader"), std::string::npos);
}

TEST(TuneQueueUdev, RefusesWhatCannotBeMatchedExactly)
{
    std::string why;
    mmc::dev::DiskIdentity glob;
    glob.loop_backing_file = "/tmp/a*b";
    EXPECT_FALSE(device_match(glob, false, why));
    EXPECT_NE(why.find("cannot be matched exactly"), std::string::npos);
    mmc::dev::DiskIdentity quote;
    quote.id_serial = "x\", RUN+=\"/bin/sh";
    EXPECT_FALSE(device_match(quote, false, why));
    mmc::dev::DiskIdentity bad_cid;
    bad_cid.cid = "0353zz";
    EXPECT_FALSE(device_match(bad_cid, true, why));
    EXPECT_NE(why.find("not 32 hex digits"), std::string::npos);
    EXPECT_FALSE(device_match({}, false, why));
    EXPECT_NE(why.find("nothing identifies it"), std::string::npos);
    // A card's name with a newline stays inside its comment line.
    mmc::dev::DiskIdentity odd;
    odd.cid = cid;
    odd.card_name = "SD\nRUN+=\"/bin/sh\"";
    const auto m = device_match(odd, true, why);
    ASSERT_TRUE(m);
    const std::string rule = udev_rule(*m, {"none", 128}, "a\rb");
    for (std::size_t at = 0; at < rule.size();) {
        const auto nl = rule.find('\n', at);
        const std::string line = rule.substr(at, nl - at);
        EXPECT_TRUE(line.rfind("# ", 0) == 0 || line.rfind("ACTION==", 0) == 0) << line;
        at = nl + 1;
    }
}

TEST(TuneQueueApply, AppliesUndoesAndKeepsTheFirstStart)
{
    Scratch s;
    const auto a = apply_queue(s.paths(), "/dev/loop0", "loop0", s.disk(), {"mq-deadline", 128}, {"none", 512},
                               "60-mmckit-queue-loop-1.rules", "RULE\n");
    EXPECT_EQ(Scratch::read(s.paths().rules_dir / "60-mmckit-queue-loop-1.rules"), "RULE\n");
    EXPECT_EQ(Scratch::read(s.disk() / "queue" / "scheduler"), "none");
    EXPECT_EQ(Scratch::read(s.disk() / "queue" / "read_ahead_kb"), "512");
    ASSERT_EQ(a.changes.size(), 3u);
    EXPECT_EQ(a.changes[1].what + " " + a.changes[1].from + " " + a.changes[1].to, "queue/scheduler mq-deadline none");
    EXPECT_EQ(a.changes[2].what + " " + a.changes[2].from + " " + a.changes[2].to, "queue/read_ahead_kb 128 512");
    // A second apply (the state not undone) keeps the first start.
    apply_queue(s.paths(), "/dev/loop0", "loop0", s.disk(), {"none", 512}, {"none", 2048}, "60-mmckit-queue-loop-1.rules", "RULE2\n");
    const auto u = undo_queue(s.paths(), "loop0", s.disk(), {"none", 2048});
    EXPECT_FALSE(fs::exists(s.paths().rules_dir / "60-mmckit-queue-loop-1.rules"));
    EXPECT_FALSE(fs::exists(queue_state_path(s.paths(), "loop0")));
    EXPECT_EQ(Scratch::read(s.disk() / "queue" / "scheduler"), "mq-deadline");
    EXPECT_EQ(Scratch::read(s.disk() / "queue" / "read_ahead_kb"), "128");
    EXPECT_EQ(u.changes.size(), 3u);
    // Nothing left to undo.
    EXPECT_THROW(undo_queue(s.paths(), "loop0", s.disk(), {"mq-deadline", 128}), std::runtime_error);
}

TEST(TuneQueueApply, AHostileStateFileRemovesNothing)
{
    Scratch s;
    const fs::path victim = s.root / "victim";
    std::ofstream(victim) << "keep me";
    fs::create_directories(s.paths().run_dir);
    const auto state = queue_state_path(s.paths(), "loop0");
    const auto write_state = [&](const std::string& rule, const std::string& disk) {
        std::ofstream(state) << R"({"disk": ")" << disk << R"(", "start": {"scheduler": "none", "read_ahead_kb": 64}, "rule": ")"
                             << rule << R"("})";
    };
    write_state(victim.string(), "loop0");
    try {
        undo_queue(s.paths(), "loop0", s.disk(), {"mq-deadline", 128});
        FAIL() << "a rule outside the rules directory was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("is not one mmc-tune writes"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::exists(victim));
    write_state((s.paths().rules_dir / "60-mmckit-queue-x.rules").string(), "loop1");
    EXPECT_THROW(undo_queue(s.paths(), "loop0", s.disk(), {"mq-deadline", 128}), std::runtime_error);
    std::ofstream(state) << "{not json";
    EXPECT_THROW(undo_queue(s.paths(), "loop0", s.disk(), {"mq-deadline", 128}), std::runtime_error);
    EXPECT_EQ(Scratch::read(s.disk() / "queue" / "read_ahead_kb"), "128\n");
}

TEST(TuneQueueSettings, SchedulerListParsedAndHostileWordsDropped)
{
    const auto s = mmc::dev::parse_scheduler_list("[mq-deadline] kyber bfq none\n");
    EXPECT_EQ(s.scheduler, "mq-deadline");
    EXPECT_EQ(s.schedulers, (std::vector<std::string>{"mq-deadline", "kyber", "bfq", "none"}));
    const auto h = mmc::dev::parse_scheduler_list("none [../../x] $(rm) [kyber]");
    EXPECT_EQ(h.scheduler, "kyber");
    EXPECT_EQ(h.schedulers, (std::vector<std::string>{"none", "kyber"}));
    EXPECT_EQ(mmc::dev::parse_scheduler_list("none").scheduler, "");
}

// A real card's sysfs (QEMU's SD card, tests/data/sysfs/sd-qemu): the
// identity read from the card's device above the disk, the rule by its CID,
// the queue's settings as the kernel words them.
TEST(TuneQueueUdev, TheFixtureCardsRuleCarriesItsCid)
{
    mmc::dev::ResolveOptions o;
    o.roots = sysfs_fixture("sd-qemu");
    const auto d = mmc::dev::resolve_device("mmcblk0", mmc::dev::Purpose::read, o);
    const auto id = mmc::dev::read_disk_identity(d, o.roots);
    EXPECT_EQ(id.cid, "aa585951454d552101deadbeef006200");
    EXPECT_EQ(id.card_name, "QEMU!");
    EXPECT_EQ(id.card_serial, "0xdeadbeef");
    std::string why;
    const auto m = device_match(id, d.card.has_value(), why);
    ASSERT_TRUE(m) << why;
    const std::string rule = udev_rule(*m, {"mq-deadline", 512}, "c");
    EXPECT_NE(rule.find("ATTRS{cid}==\"aa585951454d552101deadbeef006200\""), std::string::npos) << rule;
    EXPECT_NE(rule.find("# matched by the card's CID aa585951454d552101deadbeef006200 (QEMU!, serial 0xdeadbeef)"),
              std::string::npos)
        << rule;
    const auto q = mmc::dev::read_queue_settings(d.disk_syspath);
    EXPECT_EQ(q.scheduler, "mq-deadline");
    EXPECT_EQ(q.read_ahead_kb, 128u);
}
