// A full write-and-verify, as F3's f3write/f3read and H2testw do: every
// sector written with a pattern naming its own address and the run's pass,
// flushed, read back and checked. Pure: the target is a seam (VerifyTarget;
// verify_device.h is a block device's, verify_files.h a file system's free
// space, the unit tests hand it a simulated card).
//
// The order of the writes tells a fake from a card that loses writes: the
// space is cut into stripes written from the last down to the first (each
// one front to back, in whole requests). A fake's missing storage is a
// range of addresses, its tail: a limbo reads nothing back from the end of
// the real storage on; a wraparound's high addresses, written first, are
// overwritten by the low ones they alias, so the low ones keep their data
// and the high ones read back another address's. Either way the first bad
// address is where the real storage ends. A card that starts losing writes
// at some moment loses the addresses written after it: the lowest ones, so
// the loss is not the tail.
//
// Each sector that reads back wrong is one of:
// - aliasing: it holds this pass's pattern of another address;
// - corrupt: most of its 8-byte words are what was written (bits flipped);
// - lost: anything else (zeros, what was there before, an older pass);
// - read error: the target could not read it (EIO).
// Verdict, the first that applies: fake (any aliasing, or the bad sectors
// are the tail: the last sector is bad and at least 90% of the bytes from
// the first bad address on are), lost_writes, corrupt, read_errors, ok.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

namespace mmc::probe {

inline constexpr uint32_t verify_sector_bytes = 512;

class VerifyTarget {
public:
    virtual ~VerifyTarget() = default;
    virtual uint64_t size() const = 0; // bytes to fill, a whole number of io units
    // The smallest read the target takes (a device's logical block): a
    // failed read is retried in these to find the bad ones.
    virtual uint32_t io_unit() const { return verify_sector_bytes; }
    // Whole sectors at a sector-aligned offset. write: false when the space
    // has run out there (a file system's free space ended early: the fill
    // ends at that offset); throws std::runtime_error on any other failure.
    virtual bool write(uint64_t offset, std::span<const uint8_t> data) = 0;
    virtual void flush() = 0; // everything written reaches the storage
    // false on a read error (EIO); throws on any other failure.
    virtual bool read(uint64_t offset, std::span<uint8_t> out) = 0;
};

enum class FaultKind { aliasing, lost, corrupt, read_error };
enum class VerifyVerdict { ok, fake, lost_writes, corrupt, read_errors };
const char* to_string(FaultKind);
const char* to_string(VerifyVerdict);

enum class VerifyPhase { write, read };

struct VerifyProgress {
    VerifyPhase phase = VerifyPhase::write;
    uint64_t done = 0;  // bytes of this phase
    uint64_t total = 0;
};

struct VerifyOptions {
    uint64_t pass = 1;                      // named in every sector (the caller picks it at random)
    uint64_t request_bytes = 4 << 20;       // one write or read: the kernel splits it into the
                                            // host's requests and keeps them all in flight
    uint64_t stripe_bytes = 48ull << 20;    // a multiple of the request; 48 MiB holds whole AUs of 4, 8,
                                            // 12 and 16 MiB, so each AU is written front to back
    bool descending = true;                 // stripes from the last down (a file system's fill: false)
    const std::atomic<bool>* stop = nullptr; // set asynchronously: stop between requests
    std::function<void(const VerifyProgress&)> progress;
};

struct VerifyResult {
    VerifyVerdict verdict = VerifyVerdict::ok;
    std::optional<uint64_t> first_bad_offset;
    std::optional<FaultKind> first_bad_kind;
    std::optional<uint64_t> first_bad_holds; // aliasing: the address whose data it holds
    uint64_t size = 0;          // the space filled (a file system's may end early)
    uint64_t real_capacity = 0; // a fake: where its real storage ends; else the size
    uint64_t bytes_written = 0;
    uint64_t bytes_verified = 0; // read back and checked
    uint64_t aliased_bytes = 0, lost_bytes = 0, corrupt_bytes = 0, read_error_bytes = 0;
    bool interrupted = false;
    double seconds = 0;
    double write_seconds = 0; // writing and flushing
    double read_seconds = 0;  // reading back and checking
};

// The pattern of one sector of `pass` at byte `offset`: a header (a magic
// word, the offset, the pass) and words of a hash of the three.
void verify_pattern(uint64_t pass, uint64_t offset, std::span<uint8_t> sector);

// What a sector read back at `offset` is: nothing when it is right.
// `holds` is set for aliasing.
std::optional<FaultKind> check_sector(uint64_t pass, uint64_t offset, std::span<const uint8_t> sector, uint64_t* holds);

VerifyResult run_verify(VerifyTarget&, const VerifyOptions&);

// A pass no earlier run left on the card (verify's, the write canary's
// sequence): stale data must not pass as this run's.
uint64_t random_pass();

} // namespace mmc::probe
