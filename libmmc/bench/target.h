// What the benchmark reads and writes: a raw block device (O_DIRECT, so the
// page cache is out of the way), a test file on a mounted filesystem, or a
// memory-backed null target (a memfd) for measuring the engine's own cost.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>

namespace mmc::bench {

enum class TargetKind { block, file, memory };
std::string_view to_string(TargetKind kind);

class Target {
public:
    // A block device, read-only or (write = true) read-write with O_EXCL, so
    // a mounted or otherwise claimed device is refused (EBUSY). Throws
    // std::system_error with the path in the message.
    // direct = false reads through the page cache (mmc-tune queue: the
    // read-ahead acts only there); the caller drops the device's cached pages.
    static Target open_block(const std::string& path, bool write, bool direct = true);

    // Creates a test file of `bytes` at `path` (or inside it, when `path` is
    // a directory), fills it with fresh incompressible data so reads hit the
    // medium, and unlinks it at once: the name is gone before the first
    // measurement and the space returns when the run ends, even on Ctrl-C or
    // a crash. Refuses to touch an existing file. Uses O_DIRECT where the
    // filesystem allows it (direct() says). `stop` aborts the fill.
    static Target create_file(const std::string& path, uint64_t bytes, const std::atomic<bool>* stop = nullptr,
                              const std::function<void(uint64_t done, uint64_t total)>& progress = {});

    // A memfd of `bytes`, filled: reads and writes go to memory.
    static Target memory(uint64_t bytes);

    Target(Target&& other) noexcept;
    Target& operator=(Target&& other) noexcept;
    Target(const Target&) = delete;
    Target& operator=(const Target&) = delete;
    ~Target();

    int fd() const { return fd_; }
    TargetKind kind() const { return kind_; }
    const std::string& path() const { return path_; } // the device, or the (now unlinked) file
    uint64_t size() const { return size_; }
    uint32_t logical_block() const { return logical_block_; }
    bool direct() const { return direct_; }
    bool writable() const { return writable_; }
    dev_t device() const { return device_; } // the block device itself, or the one holding the file

private:
    Target() = default;
    int fd_ = -1;
    TargetKind kind_ = TargetKind::block;
    std::string path_;
    uint64_t size_ = 0;
    uint32_t logical_block_ = 512;
    bool direct_ = true;
    bool writable_ = false;
    dev_t device_ = 0;
};

} // namespace mmc::bench
