#include "probe/canary.h"

#include "probe/verify_targets.h"

#include <cerrno>
#include <system_error>
#include <vector>

namespace mmc::probe {

namespace {

// The target as the canary meets it: counts what was acknowledged.
class Counted : public VerifyTarget {
public:
    explicit Counted(VerifyTarget& t) : t_(t) {}
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
    VerifyTarget& t_;
};

// A card that write-protected itself answers a write with an error (EIO
// from the kernel's MMC driver until the card is probed again) and still
// reads; a dead one answers neither.
bool still_reads(VerifyTarget& t)
{
    std::vector<uint8_t> one(t.io_unit());
    try {
        return t.read(0, one);
    } catch (const std::exception&) {
        return false;
    }
}

health::CanaryState state_of(VerifyVerdict v)
{
    switch (v) {
    case VerifyVerdict::ok: return health::CanaryState::ok;
    // A few pages cannot tell a fake from a loss: either way what was
    // acknowledged is not there.
    case VerifyVerdict::fake:
    case VerifyVerdict::lost_writes: return health::CanaryState::lost_writes;
    case VerifyVerdict::corrupt: return health::CanaryState::corrupt;
    case VerifyVerdict::read_errors: return health::CanaryState::read_errors;
    }
    return health::CanaryState::lost_writes;
}

} // namespace

health::CanaryResult run_canary(VerifyTarget& target, uint64_t sequence)
{
    health::CanaryResult c;
    c.sequence = sequence;
    c.size = target.size();
    if (c.size == 0) throw std::runtime_error("no room for the canary");
    Counted counted(target);
    VerifyOptions o;
    o.pass = sequence;
    o.request_bytes = c.size; // one write: the file system or the device splits it as it likes
    o.stripe_bytes = c.size;
    o.descending = false;
    try {
        const auto r = run_verify(counted, o);
        c.written = counted.written;
        if (r.size < c.size) { // the file system had no room for all of it
            c.size = r.size;
            if (c.size == 0) throw std::runtime_error("no room for the canary (the file system is full)");
        }
        c.state = state_of(r.verdict);
        c.read_back_ok = c.state == health::CanaryState::ok;
        c.lost = r.aliased_bytes + r.lost_bytes + r.corrupt_bytes + r.read_error_bytes;
        c.first_bad_offset = r.first_bad_offset;
    } catch (const std::system_error& e) {
        const int code = e.code().value();
        if (e.code().category() != std::generic_category() && e.code().category() != std::system_category()) throw;
        if (code == EROFS || code == EPERM || code == EACCES) c.state = health::CanaryState::read_only;
        else if (code == EIO) c.state = still_reads(target) ? health::CanaryState::read_only : health::CanaryState::dead;
        else throw;
        c.written = counted.written;
        c.error = e.what();
    }
    return c;
}

health::CanaryResult run_file_canary(const std::filesystem::path& dir, uint64_t sequence)
{
    try {
        FileFill file(dir, health::canary_default_bytes, health::canary_default_bytes, "mmc-health-canary",
                      health::canary_default_bytes);
        auto c = run_canary(file, sequence);
        c.mode = "file";
        c.where = file.where(0).first.string();
        return c; // the file goes with `file`
    } catch (const std::system_error& e) {
        const int code = e.code().value();
        if (code != EROFS && code != EACCES && code != EPERM) throw;
        health::CanaryResult c; // the directory takes no file at all
        c.mode = "file";
        c.where = dir.string();
        c.size = health::canary_default_bytes;
        c.sequence = sequence;
        c.state = health::CanaryState::read_only;
        c.error = e.what();
        return c;
    }
}

health::CanaryResult run_region_canary(DeviceBlocks& device, const std::string& path, uint64_t offset, uint64_t size,
                                       uint64_t sequence)
{
    DeviceVerifyTarget region(device, offset, size);
    auto c = run_canary(region, sequence);
    c.mode = "region";
    c.where = path;
    c.offset = offset;
    return c;
}
} // namespace mmc::probe
