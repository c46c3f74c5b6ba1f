// The I/O of mmc-tune emmc's boot images: the image file read (only a
// regular file, never more than one byte past what the partition holds),
// what a boot partition starts with, and the write itself: force_ro
// cleared for the write and put back as it was whatever happens (an error,
// a stop signal between chunks), the image written and synced, then read
// back past the page cache (O_DIRECT, else the cache dropped) and compared.
#pragma once

#include "dev/write_protect.h"
#include "tune/boot_image.h"

#include <atomic>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmc::tune {

struct LoadedImage {
    BootImageFacts facts;
    std::vector<uint8_t> bytes; // empty unless facts say it is a readable regular file within the cap
};
// Reads at most cap + 1 bytes (enough to tell it is too large).
LoadedImage load_boot_image(const std::string& path, uint64_t cap);

// The first `bytes` of a boot partition's node, past the page cache.
// Throws std::system_error.
std::vector<uint8_t> read_boot_area(const std::string& node, uint64_t bytes);

struct BootImageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct BootImageInterrupted : BootImageError {
    using BootImageError::BootImageError;
};

struct BootWriteOutcome {
    bool force_ro_was = false; // and is again
};
// Throws BootImageInterrupted when `stop` is set before the last chunk,
// BootImageError for a failed write or a read-back that differs; force_ro
// is back as it was in every case (the error says so, or that it could
// not be put back).
BootWriteOutcome write_boot_image(const dev::BootAreaNode& area, std::span<const uint8_t> image, const std::atomic<bool>& stop);

} // namespace mmc::tune
