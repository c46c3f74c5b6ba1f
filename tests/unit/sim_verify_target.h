// A test double: a simulated card (sim::Card, virtual time), or a region of
// one, as a probe::VerifyTarget, the seam of verify and the write canary.
// The card's refusals come out as a block device's client sees them: a read
// it cannot correct is a false read (EIO), a write-protected card's write
// EROFS and a dead card's EIO, as std::system_error.
#pragma once

#include "probe/verify.h"
#include "sim/card.h"
#include "sim/params.h"

#include <cerrno>
#include <system_error>

namespace mmc::test {

class SimVerifyTarget : public probe::VerifyTarget {
public:
    explicit SimVerifyTarget(const sim::Params& p) : card(p), size_(card.size_bytes()) {}
    // The region [base, base + size) of the card.
    SimVerifyTarget(const sim::Params& p, uint64_t base, uint64_t size) : card(p), base_(base), size_(size) {}
    uint64_t size() const override { return size_; }
    bool write(uint64_t offset, std::span<const uint8_t> data) override
    {
        try {
            card.write(base_ + offset, data, card.idle_at());
        } catch (const sim::RequestFailed& e) {
            throw_errno(e);
        }
        ++writes;
        return true;
    }
    void flush() override
    {
        try {
            card.flush(card.idle_at());
        } catch (const sim::RequestFailed& e) {
            throw_errno(e);
        }
    }
    bool read(uint64_t offset, std::span<uint8_t> out) override
    {
        try {
            card.read(base_ + offset, out, card.idle_at());
            return true;
        } catch (const sim::RequestFailed& e) {
            if (e.kind != sim::RequestFailed::Kind::read_error) throw_errno(e);
            return false;
        }
    }
    sim::Card card;
    uint64_t writes = 0;

private:
    [[noreturn]] static void throw_errno(const sim::RequestFailed& e)
    {
        const int code = e.kind == sim::RequestFailed::Kind::write_protected ? EROFS : EIO;
        throw std::system_error(code, std::generic_category(), e.what());
    }
    uint64_t base_ = 0, size_;
};

} // namespace mmc::test
