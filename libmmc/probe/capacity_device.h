// The capacity probe's BlockIo on a real block device: opened exclusively
// (O_EXCL: no mounted filesystem, no other exclusive user) and with O_DIRECT,
// so every read asks the device, never the page cache. Blocks are the
// device's logical blocks (BLKSSZGET).
#pragma once

#include "probe/aligned_buffer.h"
#include "probe/capacity.h"

#include <string>

namespace mmc::probe {

class DeviceBlocks : public BlockIo {
public:
    // Throws std::runtime_error naming the path and the reason (a
    // std::system_error where a call failed). Exclusive (O_EXCL) unless
    // asked otherwise: a caller that writes only a region outside every
    // partition (the write canary) shares the disk with their mounts.
    explicit DeviceBlocks(const std::string& path, bool exclusive = true);
    ~DeviceBlocks() override;
    DeviceBlocks(const DeviceBlocks&) = delete;
    DeviceBlocks& operator=(const DeviceBlocks&) = delete;

    uint64_t block_count() const override { return blocks_; }
    uint32_t block_size() const override { return block_size_; }
    void read(uint64_t block, std::span<uint8_t> out) override;
    void write(uint64_t block, std::span<const uint8_t> data) override;
    // As read, but false when the device answers EIO (a block it cannot read).
    bool try_read(uint64_t block, std::span<uint8_t> out);
    void flush(); // fsync: the device's own cache too

private:
    std::string path_;
    int fd_ = -1;
    uint32_t block_size_ = 512;
    uint64_t blocks_ = 0;
    AlignedBuffer bounce_;
};

} // namespace mmc::probe
