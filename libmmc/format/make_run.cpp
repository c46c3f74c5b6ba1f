// make_filesystem (make_run.h).
#include "format/make_run.h"

#include "cli/errors.h"
#include "cli/process.h"
#include "dev/partition_node.h"
#include "format/boot_sector.h"
#include "format/disk_file.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <linux/fs.h>
#include <sstream>
#include <sys/ioctl.h>
#include <string_view>
#include <system_error>
#include <utility>
#include <unistd.h>

namespace mmc::format {

namespace {

// The Debian package each command run here comes from, for the remedy when
// it is missing.
std::string_view package_of(std::string_view command)
{
    static constexpr std::pair<std::string_view, std::string_view> packages[] = {
        {"mkfs.fat", "dosfstools"}, {"fsck.fat", "dosfstools"},  {"mkfs.exfat", "exfatprogs"},
        {"fsck.exfat", "exfatprogs"}, {"mkfs.ext4", "e2fsprogs"}, {"e2fsck", "e2fsprogs"},
        {"mkfs.f2fs", "f2fs-tools"}, {"fsck.f2fs", "f2fs-tools"}, {"losetup", "mount (losetup)"},
    };
    for (const auto& [name, package] : packages)
        if (name == command) return package;
    return "dosfstools";
}

// fsck.f2fs reports each check as a row ending "[Ok..]" or "[Fail]"; a
// volume it finds damaged exits non-zero too (255 for a wrecked root
// inode, f2fs-tools 1.15), but its exit status is not documented, so a
// "[Fail]" row counts as well. (With -f it always prints "Force to fix
// corruption" and "fixing SIT types": those are no finding.)
bool f2fs_fsck_found_damage(std::string_view said) { return said.find("[Fail]") != std::string_view::npos; }

[[noreturn]] void fail(const std::string& what) { throw cli::Error(cli::ErrorKind::failure, what); }

std::string joined(const std::vector<std::string>& argv)
{
    std::string s;
    for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
    return s;
}

// Runs a program; its output (both streams) kept for the error message.
std::string run_program(const std::vector<std::string>& argv, MakeReport& report, bool must_succeed = true, int* code = nullptr)
{
    report.commands.push_back(joined(argv));
    cli::Captured said;
    try {
        said = cli::run_captured(argv);
    } catch (const std::system_error& e) {
        fail(fmt::format("{}: cannot run it ({}); install {}", argv[0], e.code().message(), package_of(argv[0])));
    }
    if (code) *code = said.code;
    if (must_succeed && said.code != 0) fail(fmt::format("{} failed (exit {}): {}", argv[0], said.code, cli::last_lines(said.output, 2)));
    return said.output;
}

void write_at(int fd, const void* data, std::size_t n, uint64_t offset)
{
    const auto* p = static_cast<const uint8_t*>(data);
    while (n) {
        const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) fail(fmt::format("writing at byte {}: {}", offset, std::strerror(errno)));
        p += w;
        n -= static_cast<std::size_t>(w);
        offset += static_cast<uint64_t>(w);
    }
}

void read_at(int fd, void* data, std::size_t n, uint64_t offset)
{
    auto* p = static_cast<uint8_t*>(data);
    while (n) {
        const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) fail(fmt::format("reading at byte {}: {}", offset, r < 0 ? std::strerror(errno) : "end of file"));
        p += r;
        n -= static_cast<std::size_t>(r);
        offset += static_cast<uint64_t>(r);
    }
}

class Fd {
public:
    Fd(const std::string& path, int flags) : fd_(::open(path.c_str(), flags | O_CLOEXEC))
    {
        if (fd_ < 0) fail(fmt::format("cannot open it to write: {}", std::strerror(errno)));
    }
    ~Fd() { close(); }
    int get() const { return fd_; }
    void close()
    {
        if (fd_ >= 0) {
            if (::fsync(fd_) != 0 && errno != EINVAL) { /* reported by the check that follows */ }
            ::close(fd_);
        }
        fd_ = -1;
    }

private:
    int fd_;
};

// The MBR, after zeroing everything before the partition (old tables,
// old file systems' signatures), as the SD Formatter does.
void write_mbr(const std::string& target, int flags, const MakePlan& plan)
{
    const SdLayout& l = plan.layout;
    Fd fd(target, O_RDWR | flags);
    const std::vector<uint8_t> zeros(1 << 20, 0);
    for (uint64_t at = 0; at < l.partition_start * sector_bytes; at += zeros.size())
        write_at(fd.get(), zeros.data(), std::min<uint64_t>(zeros.size(), l.partition_start * sector_bytes - at), at);
    // The partition's first MiB too: no old superblock survives to confuse blkid.
    write_at(fd.get(), zeros.data(), std::min<uint64_t>(zeros.size(), l.partition_sectors * sector_bytes),
             l.partition_start * sector_bytes);
    const Sector mbr = make_mbr(l.partition_start, l.partition_sectors, l.partition_type, l.heads ? l.heads : 255,
                                l.sectors_per_track ? l.sectors_per_track : 63, plan.volume_id ^ 0x5D5D5D5Du);
    write_at(fd.get(), mbr.data(), mbr.size(), 0);
}

// The exFAT checksum of a boot region's first 11 sectors (VolumeFlags and
// PercentInUse left out, as the specification says).
uint32_t exfat_boot_checksum(const std::vector<uint8_t>& region)
{
    uint32_t sum = 0;
    for (std::size_t i = 0; i < 11 * sector_bytes; ++i) {
        if (i == 106 || i == 107 || i == 112) continue;
        sum = ((sum & 1) ? 0x80000000u : 0u) + (sum >> 1) + region[i];
    }
    return sum;
}

// mkfs.exfat wrote PartitionOffset 0 (a loop device is no partition): write
// the partition's start into both boot regions and their checksums.
void patch_exfat_partition_offset(const std::string& target, const MakePlan& plan)
{
    Fd fd(target, O_RDWR);
    const uint64_t base = plan.layout.partition_start * sector_bytes;
    for (int copy = 0; copy < 2; ++copy) {
        const uint64_t at = base + copy * 12 * sector_bytes;
        std::vector<uint8_t> region(12 * sector_bytes);
        read_at(fd.get(), region.data(), region.size(), at);
        if (std::memcmp(region.data() + 3, "EXFAT   ", 8) != 0) fail("mkfs.exfat left no exFAT boot sector where expected");
        for (int i = 0; i < 8; ++i) region[64 + i] = static_cast<uint8_t>(plan.layout.partition_start >> (8 * i));
        const uint32_t sum = exfat_boot_checksum(region);
        for (std::size_t i = 11 * sector_bytes; i < region.size(); i += 4)
            for (int b = 0; b < 4; ++b) region[i + b] = static_cast<uint8_t>(sum >> (8 * b));
        write_at(fd.get(), region.data(), region.size(), at);
    }
}

// A loop device over the partition, for the programs that take only a
// device of their own (mkfs.exfat, mkfs.ext4, fsck); detached when it goes.
class PartitionLoop {
public:
    PartitionLoop(const std::string& target, const MakePlan& plan, bool read_only, MakeReport& report) : report_(report)
    {
        std::vector<std::string> argv = {"losetup", "--find", "--show",
                                         fmt::format("--offset={}", plan.layout.partition_start * sector_bytes),
                                         fmt::format("--sizelimit={}", plan.layout.partition_sectors * sector_bytes)};
        if (read_only) argv.push_back("--read-only");
        argv.push_back(target);
        std::string out = run_program(argv, report);
        while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
        const auto nl = out.rfind('\n');
        path_ = nl == std::string::npos ? out : out.substr(nl + 1);
        if (path_.rfind("/dev/loop", 0) != 0) fail(fmt::format("losetup named no loop device ({})", out));
    }
    ~PartitionLoop()
    {
        try {
            cli::SpawnOptions so;
            so.in = so.out = so.err = cli::Redirect::null();
            cli::run({"losetup", "--detach", path_}, so);
        } catch (...) {
        }
    }
    const std::string& path() const { return path_; }

private:
    MakeReport& report_;
    std::string path_;
};

} // namespace

MakeReport make_filesystem(const std::string& target, bool is_block_device, const MakePlan& plan)
{
    MakeReport report;
    const SdLayout& l = plan.layout;
    const int excl = is_block_device ? O_EXCL : 0;
    write_mbr(target, excl, plan);
    report.steps.push_back(fmt::format("wrote the MBR: partition at sector {}, type {:#04x}; zeroed the sectors before it",
                                       l.partition_start, l.partition_type));
    report.reserved_sectors = l.reserved_sectors;

    if (plan.kind == LayoutKind::linux_ext4) {
        PartitionLoop loop(target, plan, false, report);
        run_program(mkfs_ext4_argv(plan, loop.path()), report);
        report.steps.push_back("made ext4 with stride and stripe width of one unit");
    } else if (plan.kind == LayoutKind::linux_f2fs) {
        PartitionLoop loop(target, plan, false, report);
        run_program(mkfs_f2fs_argv(plan, loop.path()), report);
        report.steps.push_back(fmt::format("made f2fs with sections of {} segments (one unit)",
                                           f2fs_segments_per_section(plan.unit_bytes)));
    } else if (l.fs == FsType::exfat) {
        {
            PartitionLoop loop(target, plan, false, report);
            run_program(mkfs_exfat_argv(plan, loop.path()), report);
        }
        patch_exfat_partition_offset(target, plan);
        report.steps.push_back("made exFAT (mkfs.exfat) and wrote PartitionOffset into both boot regions");
    } else {
        // mkfs.fat sizes the FAT itself. Where its size differs from the
        // layout's, move the reserved sectors by twice the difference, which
        // keeps the data area on the unit, and make it again (its FAT size
        // moves with the reserved sectors, so it may take two rounds).
        uint32_t reserved = l.reserved_sectors;
        for (int round = 0;; ++round) {
            run_program(mkfs_fat_argv(plan, target, reserved), report);
            const Sector bs = [&] {
                DiskFile f(target);
                const auto s = f.reader()(l.partition_start);
                if (!s) fail("mkfs.fat left no boot sector");
                return *s;
            }();
            const Volume v = parse_boot_sector(bs);
            const int64_t data = static_cast<int64_t>(v.data_start), want = static_cast<int64_t>(l.data_start);
            if (data == want) break;
            const int64_t next = static_cast<int64_t>(reserved) + (want - data);
            const int64_t min_reserved = l.fs == FsType::fat32 ? 9 : 1;
            if (round >= 3 || next < min_reserved || next > 0xFFFF)
                fail(fmt::format("mkfs.fat placed the data area at sector {} of the partition, not {} (reserved {}), "
                                 "and no reserved count puts it there",
                                 data, want, reserved));
            report.steps.push_back(fmt::format("mkfs.fat's FAT is {} sectors where the layout has {}: reserved sectors {} -> {}",
                                               v.fat_sectors, l.fat_sectors, reserved, next));
            reserved = static_cast<uint32_t>(next);
        }
        report.reserved_sectors = reserved;
        report.steps.push_back(fmt::format("made {} (mkfs.fat)", to_string(l.fs)));
    }

    if (is_block_device) {
        // The kernel reads the new table, so that mmcblk0p1 appears.
        const int fd = ::open(target.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (::ioctl(fd, BLKRRPART) == 0) {
                // udev (or mdev) makes the partition's node after the ioctl
                // returns, removing the old one first: a mount straight after
                // mmc-format found none in the lab. Wait for it, a while.
                const std::string node = dev::partition_node(target, 1);
                const bool there = dev::wait_for_block_node(node, std::chrono::seconds(5));
                report.steps.push_back(there ? fmt::format("the kernel re-read the partition table: {}", node)
                                             : fmt::format("the kernel re-read the partition table; {} did not appear "
                                                           "within 5 s (is udev running?)",
                                                           node));
            }
            ::close(fd);
        }
    }

    // fsck -n on the partition, read-only.
    if (::geteuid() != 0) {
        report.fsck = "not run: losetup needs root";
    } else {
        PartitionLoop loop(target, plan, true, report);
        const std::vector<std::string> fsck =
            plan.kind == LayoutKind::linux_ext4   ? std::vector<std::string>{"e2fsck", "-n", "-f", loop.path()}
            : plan.kind == LayoutKind::linux_f2fs ? std::vector<std::string>{"fsck.f2fs", "--dry-run", "-f", loop.path()}
            : l.fs == FsType::exfat               ? std::vector<std::string>{"fsck.exfat", "-n", loop.path()}
                                                  : std::vector<std::string>{"fsck.fat", "-n", loop.path()};
        int code = 0;
        const std::string said = run_program(fsck, report, false, &code);
        if (code != 0) fail(fmt::format("{} finds the new file system not clean (exit {}): {}", fsck[0], code, cli::last_lines(said, 3)));
        if (plan.kind == LayoutKind::linux_f2fs && f2fs_fsck_found_damage(said))
            fail(fmt::format("fsck.f2fs finds the new file system not clean: {}", cli::last_lines(said, 3)));
        report.fsck = "clean";
    }

    DiskFile f(target);
    report.check = check_layout(f.reader(), f.sectors(), Unit{plan.unit_bytes, plan.unit_source});
    return report;
}

} // namespace mmc::format
