// The probes' seam to a device's read timing: a real block device opened
// with O_DIRECT (implemented in sampler.cpp), or the flash model in tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace mmc::probe {

// The seam to the device: a real block device, or the flash model in tests.
class ReadTimer {
public:
    virtual ~ReadTimer() = default;
    virtual uint64_t size() const = 0;          // bytes
    virtual uint32_t block() const = 0;         // logical block: reads are whole, aligned blocks
    virtual double read_ns(uint64_t offset, uint32_t length) = 0; // throws std::system_error
    // The largest read read_ns takes (reading past a read cache goes faster in large reads).
    virtual uint32_t max_read_bytes() const { return std::max<uint32_t>(4096, 2 * block()); }
};

// A block device opened read-only with O_DIRECT, timed on CLOCK_MONOTONIC.
class BlockReadTimer : public ReadTimer {
public:
    explicit BlockReadTimer(const std::string& path); // throws std::system_error naming the path
    ~BlockReadTimer() override;
    BlockReadTimer(const BlockReadTimer&) = delete;
    BlockReadTimer& operator=(const BlockReadTimer&) = delete;
    uint64_t size() const override { return size_; }
    uint32_t block() const override { return block_; }
    double read_ns(uint64_t offset, uint32_t length) override;
    uint32_t max_read_bytes() const override { return buffer_bytes; }

private:
    static constexpr uint32_t buffer_bytes = 1 << 20;
    std::string path_;
    int fd_ = -1;
    uint64_t size_ = 0;
    uint32_t block_ = 512;
    void* buf_ = nullptr;
};

} // namespace mmc::probe
