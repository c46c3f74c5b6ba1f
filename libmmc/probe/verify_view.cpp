#include "probe/verify_view.h"

#include "cli/size.h"
#include "version.h"

#include <fmt/format.h>

namespace mmc::probe {

namespace {

std::string what_kind_means(FaultKind k)
{
    switch (k) {
    case FaultKind::aliasing: return "holds the data written to another address";
    case FaultKind::lost: return "the write was not kept";
    case FaultKind::corrupt: return "the data came back with bits changed";
    case FaultKind::read_error: return "the card could not read it";
    }
    return "";
}

std::string verdict_sentence(const VerifyResult& r)
{
    switch (r.verdict) {
    case VerifyVerdict::ok: return "ok: every byte read back as written";
    case VerifyVerdict::fake: return fmt::format("fake: the storage ends at {}", cli::format_bytes_exact(r.real_capacity));
    case VerifyVerdict::lost_writes: return "lost writes: the card acknowledged writes it did not keep";
    case VerifyVerdict::corrupt: return "corrupt: data came back changed";
    case VerifyVerdict::read_errors: return "read errors: parts of the card cannot be read";
    }
    return "";
}

} // namespace

std::string verify_plan_text(const VerifyWhere& w, uint64_t bytes)
{
    if (w.file_system)
        return fmt::format("Verify {}: fill {} of free space with files of ours, read them back past the page cache,\n"
                           "then remove them (Ctrl-C removes them too). Nothing else is touched.\n",
                           w.target, cli::format_bytes_exact(bytes));
    return fmt::format("Verify {}: write all {} with a pattern naming each sector's address, read it back\n"
                       "and check it. Everything on the device is destroyed.\n",
                       w.target, cli::format_bytes_exact(bytes));
}

std::string verify_result_text(const VerifyWhere& w, const VerifyResult& r)
{
    std::string out = fmt::format("{}: {}\n", w.target, verdict_sentence(r));
    if (r.first_bad_offset) {
        out += fmt::format(" first bad     {} ({}: {}", *r.first_bad_offset, to_string(*r.first_bad_kind),
                           what_kind_means(*r.first_bad_kind));
        if (r.first_bad_holds) out += fmt::format(", that of {}", *r.first_bad_holds);
        out += ")\n";
    }
    out += fmt::format(" real capacity {}\n", cli::format_bytes_exact(r.real_capacity));
    out += fmt::format(" written       {}\n verified      {}\n", cli::format_bytes_exact(r.bytes_written),
                       cli::format_bytes_exact(r.bytes_verified));
    if (r.first_bad_offset)
        out += fmt::format(" bad bytes     {} aliased, {} lost, {} corrupt, {} unreadable\n", r.aliased_bytes, r.lost_bytes,
                           r.corrupt_bytes, r.read_error_bytes);
    out += fmt::format(" time          {:.1f} s", r.seconds);
    if (r.seconds > 0 && r.bytes_written + r.bytes_verified)
        out += fmt::format(" ({:.1f} MB/s written and read)", double(r.bytes_written + r.bytes_verified) / r.seconds / 1e6);
    out += "\n";
    return out;
}

namespace {

// What every verify document starts with: the tool, the command and where.
nlohmann::ordered_json verify_head(const VerifyWhere& w)
{
    nlohmann::ordered_json doc;
    doc["tool"] = "mmc-probe";
    doc["version"] = mmc::version;
    doc["command"] = "verify";
    doc["target"] = w.target;
    doc["mode"] = w.file_system ? "file_system" : "device";
    return doc;
}

} // namespace

nlohmann::ordered_json verify_document(const VerifyWhere& w, const VerifyResult& r)
{
    auto doc = verify_head(w);
    doc["interrupted"] = r.interrupted;
    doc["verdict"] = r.interrupted ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(to_string(r.verdict));
    doc["first_bad_offset"] = r.first_bad_offset ? nlohmann::ordered_json(*r.first_bad_offset) : nlohmann::ordered_json(nullptr);
    doc["first_bad_kind"] = r.first_bad_kind ? nlohmann::ordered_json(to_string(*r.first_bad_kind)) : nlohmann::ordered_json(nullptr);
    doc["first_bad_holds"] = r.first_bad_holds ? nlohmann::ordered_json(*r.first_bad_holds) : nlohmann::ordered_json(nullptr);
    doc["real_capacity"] = r.real_capacity;
    doc["size"] = r.size;
    doc["bytes_written"] = r.bytes_written;
    doc["bytes_verified"] = r.bytes_verified;
    doc["bad_bytes"] = {{"aliasing", r.aliased_bytes}, {"lost", r.lost_bytes}, {"corrupt", r.corrupt_bytes}, {"read_error", r.read_error_bytes}};
    doc["seconds"] = r.seconds;
    doc["write_seconds"] = r.write_seconds;
    doc["read_seconds"] = r.read_seconds;
    return doc;
}

nlohmann::ordered_json verify_dry_run_document(const VerifyWhere& w, uint64_t bytes)
{
    auto doc = verify_head(w);
    doc["dry_run"] = true;
    doc["size"] = bytes;
    return doc;
}

int verify_exit_status(VerifyVerdict v)
{
    switch (v) {
    case VerifyVerdict::ok: return 0;
    case VerifyVerdict::fake: return 10;
    case VerifyVerdict::lost_writes: return 14;
    case VerifyVerdict::corrupt: return 15;
    case VerifyVerdict::read_errors: return 16;
    }
    return 1;
}

} // namespace mmc::probe
