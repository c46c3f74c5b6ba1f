// A card or an image file opened read-only for the layout check: its size
// in sectors and a SectorReader over it. The I/O edge of the format module.
#pragma once
#include "format/partition_table.h"
#include <cstdint>
#include <string>

namespace mmc::format {

class DiskFile {
public:
    // Opens path read-only (a block device or a regular file). Throws
    // std::system_error naming what failed.
    explicit DiskFile(const std::string& path);
    ~DiskFile();
    DiskFile(const DiskFile&) = delete;
    DiskFile& operator=(const DiskFile&) = delete;
    bool is_block_device() const { return block_; }
    uint64_t bytes() const { return bytes_; }
    uint64_t sectors() const { return bytes_ / 512; }
    // Reads the sector; none past the end. Throws std::system_error on an I/O error.
    SectorReader reader() const;

private:
    int fd_ = -1;
    bool block_ = false;
    uint64_t bytes_ = 0;
};

} // namespace mmc::format
