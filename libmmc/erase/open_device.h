// The real device the erase phases work on: the target opened exclusively
// (O_EXCL: nobody mounts it meanwhile), the method's executor (raw card
// commands or block ioctls), BLKZEROOUT/pwrite for the edges, and reading
// back for verification.
#pragma once

#include "erase/phases.h"

#include <memory>

namespace mmc::erase {

class OpenDevice final : public EraseDevice {
public:
    // Throws Refused when the device cannot be opened exclusively or the
    // method's channel cannot be set up; nothing was touched then.
    explicit OpenDevice(const Prepared& prepared);
    ~OpenDevice() override;
    OpenDevice(const OpenDevice&) = delete;
    OpenDevice& operator=(const OpenDevice&) = delete;

    Executor& executor() override { return *exec_; }
    void flush_cache(std::vector<std::string>& warnings) override;
    void zero(const Extent& extent, uint64_t logical_block) override;
    VerifyReport verify(const std::vector<Segment>& segments, const std::vector<Extent>& chunks, VerifyMode mode,
                        uint64_t logical_block, const std::atomic<bool>& stop) override;

private:
    const Target& target_;
    int fd_ = -1;
    std::unique_ptr<Executor> exec_;
};

} // namespace mmc::erase
