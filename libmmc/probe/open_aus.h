// How many AUs the card keeps open for writing, measured by writing (so
// only with --destructive): page-sized writes taken round-robin over n AUs,
// in order inside each AU ("linear") or in random order ("random"), for
// n = 1, 2, ... until the write time doubles: past its open-AU count, every
// write makes the card close (merge) one AU and open another (erase), the
// cliff of flashbench --open-au. A cliff is checked a second time on other
// pages of the same AUs before it counts. Then the start of the card, where some
// controllers keep the FAT in a special area: the random case with one AU
// more than the card keeps open, at the card's first AUs.
//
// Every block written is read first and written back at the end (also
// after Ctrl-C or an error), so the data is as it was; what changes is the
// card's internal state (wear, which blocks its FTL uses).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::probe {

// The seam to the device for writing tests.
class WriteDevice {
public:
    virtual ~WriteDevice() = default;
    virtual uint64_t size() const = 0;
    virtual void read(uint64_t offset, std::span<uint8_t> out) = 0;                    // throws
    virtual double write_ns(uint64_t offset, std::span<const uint8_t> data) = 0;       // throws
    virtual double flush_ns() = 0;                                                     // throws
};

// A block device opened O_RDWR | O_DIRECT | O_EXCL (a mounted or claimed
// device is refused by the kernel too); fdatasync flushes the card's cache.
class BlockWriteDevice : public WriteDevice {
public:
    explicit BlockWriteDevice(const std::string& path);
    ~BlockWriteDevice() override;
    BlockWriteDevice(const BlockWriteDevice&) = delete;
    BlockWriteDevice& operator=(const BlockWriteDevice&) = delete;
    uint64_t size() const override { return size_; }
    void read(uint64_t offset, std::span<uint8_t> out) override;
    double write_ns(uint64_t offset, std::span<const uint8_t> data) override;
    double flush_ns() override;

private:
    uint8_t* buffer(std::size_t bytes); // page aligned, for O_DIRECT; grows as needed
    std::string path_;
    int fd_ = -1;
    uint64_t size_ = 0;
    void* buf_ = nullptr;
    std::size_t buf_bytes_ = 0;
};

struct OpenAuOptions {
    uint64_t au_bytes = 0;   // the measured AU
    uint64_t page_bytes = 0; // the measured page: the write size
    unsigned max_open = 8;   // try up to this many + 1 AUs
    unsigned rounds = 6;     // timed rounds per trial (after one untimed), each a write per AU and a flush
    uint64_t seed = 1;
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const std::string& what)> progress;
};

// How a trial takes the pages of its AUs: in order, at random, or at random
// in the card's first AUs (the start-area case).
enum class OpenAuMode { linear, random, start_random };

struct OpenAuTrial {
    OpenAuMode mode = OpenAuMode::linear;
    unsigned aus = 0;
    uint64_t offset = 0;    // the first AU's offset
    double ns_per_write = 0;
    double bytes_per_s = 0;
    bool recheck = false;   // the second look at a cliff, on other pages of the same AUs
};

struct WritePlan {
    uint64_t first = 0, end = 0;  // the span the writes fall in
    uint64_t aus = 0;             // AUs touched
    uint64_t bytes = 0;           // bytes written by the test (restoring writes as much again)
    unsigned max_trial = 0;       // largest n that fits
};

struct OpenAuResult {
    std::optional<unsigned> linear, random; // nullopt: no cliff up to the largest n tried
    unsigned tried_up_to = 0;
    std::optional<bool> start_area_special;  // nullopt: not measured
    std::vector<OpenAuTrial> trials;
    uint64_t bytes_written = 0;   // test writes and restoring writes
    bool restored = false;        // every block written back
    std::string restore_error;
    bool interrupted = false;
    std::vector<std::string> notes;
};

// Where the trials write and how much, before anything is written: what
// the confirmation shows. Skips the card's first 16 MiB (or 2 AUs), where
// the FAT area is, except for the start-area case.
WritePlan plan_open_aus(uint64_t device_size, const OpenAuOptions&);

OpenAuResult measure_open_aus(WriteDevice&, const OpenAuOptions&);

} // namespace mmc::probe
