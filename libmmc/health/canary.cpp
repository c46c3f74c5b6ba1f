#include "health/canary.h"

#include <cerrno>
#include <system_error>
#include <vector>

namespace mmc::health {

std::string_view to_string(CanaryState s)
{
    switch (s) {
    case CanaryState::ok: return "ok";
    case CanaryState::lost_writes: return "lost_writes";
    case CanaryState::corrupt: return "corrupt";
    case CanaryState::read_errors: return "read_errors";
    case CanaryState::read_only: return "read_only";
    case CanaryState::dead: return "dead";
    }
    return "?";
}

namespace {

// The target as the canary meets it: counts what was acknowledged.
class Counted : public probe::VerifyTarget {
public:
    explicit Counted(probe::VerifyTarget& t) : t_(t) {}
    uint64_t size() const override { return t_.size(); }
    uint32_t io_unit() const override { return t_.io_unit(); }
    bool write(uint64_t offset, std::span<const uint8_t> data) override
    {
        const bool took = t_.write(offset, data);
        if (took) written += data.size();
        return took;
    }
    void flush() override { t_.flush(); }
    bool read(uint64_t offset, std::span<uint8_t> out) override { return t_.read(offset, out); }
    uint64_t written = 0;

private:
    probe::VerifyTarget& t_;
};

// A card that write-protected itself answers a write with an error (EIO
// from the kernel's MMC driver until the card is probed again) and still
// reads; a dead one answers neither.
bool still_reads(probe::VerifyTarget& t)
{
    std::vector<uint8_t> one(t.io_unit());
    try {
        return t.read(0, one);
    } catch (const std::exception&) {
        return false;
    }
}

CanaryState state_of(probe::VerifyVerdict v)
{
    switch (v) {
    case probe::VerifyVerdict::ok: return CanaryState::ok;
    // A few pages cannot tell a fake from a loss: either way what was
    // acknowledged is not there.
    case probe::VerifyVerdict::fake:
    case probe::VerifyVerdict::lost_writes: return CanaryState::lost_writes;
    case probe::VerifyVerdict::corrupt: return CanaryState::corrupt;
    case probe::VerifyVerdict::read_errors: return CanaryState::read_errors;
    }
    return CanaryState::lost_writes;
}

} // namespace

CanaryResult run_canary(probe::VerifyTarget& target, uint64_t sequence)
{
    CanaryResult c;
    c.sequence = sequence;
    c.size = target.size();
    if (c.size == 0) throw std::runtime_error("no room for the canary");
    Counted counted(target);
    probe::VerifyOptions o;
    o.pass = sequence;
    o.request_bytes = c.size; // one write: the file system or the device splits it as it likes
    o.stripe_bytes = c.size;
    o.descending = false;
    try {
        const auto r = probe::run_verify(counted, o);
        c.written = counted.written;
        if (r.size < c.size) { // the file system had no room for all of it
            c.size = r.size;
            if (c.size == 0) throw std::runtime_error("no room for the canary (the file system is full)");
        }
        c.state = state_of(r.verdict);
        c.read_back_ok = c.state == CanaryState::ok;
        c.lost = r.aliased_bytes + r.lost_bytes + r.corrupt_bytes + r.read_error_bytes;
        c.first_bad_offset = r.first_bad_offset;
    } catch (const std::system_error& e) {
        const int code = e.code().value();
        if (e.code().category() != std::generic_category() && e.code().category() != std::system_category()) throw;
        if (code == EROFS || code == EPERM || code == EACCES) c.state = CanaryState::read_only;
        else if (code == EIO) c.state = still_reads(target) ? CanaryState::read_only : CanaryState::dead;
        else throw;
        c.written = counted.written;
        c.error = e.what();
    }
    return c;
}

void apply_canary(HealthReport& report, const CanaryResult& canary)
{
    report.canary = canary;
    if (canary.state == CanaryState::ok) return;
    const Verdict said = canary.state == CanaryState::read_only ? Verdict::read_only : Verdict::end_of_life;
    if (severity(said) <= severity(report.judgement.verdict)) return;
    report.judgement = {said, "canary", DecidingFigure::canary};
}

} // namespace mmc::health
