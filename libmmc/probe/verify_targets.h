// What `mmc-probe verify` fills: a whole block device (destructive), or the
// free space of a mounted file system as files of its own, removed at the
// end. Reads go past the page cache: O_DIRECT where the file system takes
// it, else the cached pages are dropped (fsync, then POSIX_FADV_DONTNEED)
// before each read.
#pragma once

#include "probe/capacity_device.h"
#include "probe/verify.h"

#include <filesystem>
#include <string>
#include <vector>

namespace mmc::probe {

// A block device, or the region [base, base + size) of one (whole logical
// blocks); the pattern names offsets from the region's start.
class DeviceVerifyTarget : public VerifyTarget {
public:
    explicit DeviceVerifyTarget(DeviceBlocks& io) : DeviceVerifyTarget(io, 0, io.block_count() * io.block_size()) {}
    DeviceVerifyTarget(DeviceBlocks& io, uint64_t base, uint64_t size) : io_(io), base_(base), size_(size) {}
    uint64_t size() const override { return size_; }
    uint32_t io_unit() const override { return io_.block_size(); }
    bool write(uint64_t offset, std::span<const uint8_t> data) override;
    void flush() override { io_.flush(); }
    bool read(uint64_t offset, std::span<uint8_t> out) override;

private:
    DeviceBlocks& io_;
    uint64_t base_, size_;
};

class FileFill : public VerifyTarget {
public:
    // The fill is at most `limit` bytes (0: all the free space, root's
    // reserve included when run as root), a whole number of `unit`s, in
    // files of `file_bytes` named NAME.N in `dir`. Throws
    // std::runtime_error when dir is not a writable directory (a
    // std::system_error where a call failed).
    FileFill(const std::filesystem::path& dir, uint64_t limit, uint64_t file_bytes = uint64_t{1} << 30,
             std::string name = "mmc-probe-verify", uint64_t unit = uint64_t{1} << 20);
    ~FileFill() override; // removes every file it made
    FileFill(const FileFill&) = delete;
    FileFill& operator=(const FileFill&) = delete;

    uint64_t size() const override { return size_; }
    bool write(uint64_t offset, std::span<const uint8_t> data) override;
    void flush() override;
    bool read(uint64_t offset, std::span<uint8_t> out) override;

    // Removes every file it made; the number removed. Safe to call twice.
    std::size_t remove_files();
    const std::vector<std::filesystem::path>& files() const { return files_; }
    // The file and the offset in it that a fill offset falls in.
    std::pair<std::filesystem::path, uint64_t> where(uint64_t offset) const;

private:
    int open_for_write(std::size_t index);
    std::filesystem::path dir_;
    std::string name_;
    uint64_t file_bytes_, size_ = 0;
    std::vector<std::filesystem::path> files_;
    int write_fd_ = -1;
    std::size_t write_index_ = 0;
    int read_fd_ = -1;
    std::size_t read_index_ = 0;
    bool read_direct_ = false;
    AlignedBuffer bounce_;
};

} // namespace mmc::probe
