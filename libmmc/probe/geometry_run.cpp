#include "probe/geometry_run.h"

#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "dev/identify.h"
#include "probe/register_check.h"
#include "probe/sampler.h"

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::probe {

namespace {

std::string found(const std::optional<uint64_t>& bytes) { return bytes ? cli::format_bytes(*bytes) : "none"; }

OpenAuOptions open_au_options(const Geometry& g, const GeometryRunOptions& o)
{
    OpenAuOptions ao;
    ao.au_bytes = *g.au_bytes;
    ao.page_bytes = *g.page_bytes;
    ao.max_open = o.max_open;
    return ao;
}

// What the open-AU test would write, said instead of writing it.
std::string dry_run_note(uint64_t device_size, const Geometry& g, const GeometryRunOptions& o)
{
    if (!g.page_bytes || !g.au_bytes)
        return fmt::format("dry run: the open-AU test would not run without a page and an AU from the ladder "
                           "(found: page {}, AU {}); nothing was written",
                           found(g.page_bytes), found(g.au_bytes));
    const auto plan = plan_open_aus(device_size, open_au_options(g, o));
    return plan.max_trial ? fmt::format("dry run: the open-AU test would write {} in page-sized blocks to {} AUs, "
                                        "between offset 0 and {}, each block read first and written back; "
                                        "nothing was written",
                                        cli::format_bytes(plan.bytes), plan.aus, cli::format_bytes(plan.end))
                          : fmt::format("dry run: too small for an open-AU test with {} AUs; nothing was written",
                                        cli::format_bytes(*g.au_bytes));
}

} // namespace

ProbedDevice probed_device(const dev::Device& resolved, const dev::SysRoots& roots, bool use_ioctl)
{
    ProbedDevice d;
    d.path = resolved.path;
    d.name = resolved.name;
    if (resolved.is_partition)
        throw cli::UsageError(fmt::format("{} is a partition; name the whole device ({}): boundaries are counted from "
                                          "its start",
                                          d.path, resolved.disk));
    if (!resolved.card) {
        d.not_card = resolved.not_mmc;
        d.in_reader = resolved.is_reader_slot();
        return d;
    }
    d.card = dev::identify(*resolved.card, roots, {use_ioctl});
    if (const uint64_t n = resolved.card->preferred_erase_size) d.preferred_erase = n;
    return d;
}

GeometryReport probe_geometry(const ProbedDevice& d, ReadTimer& reader, const std::function<std::unique_ptr<WriteDevice>()>& open_writer,
                              const GeometryRunOptions& o)
{
    GeometryReport r;
    if (d.card) r.claims = claims_of(*d.card, d.preferred_erase);
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    auto stopped = [&] { return o.stop && o.stop->load(); };

    SampleOptions so;
    so.repeats = o.repeats;
    so.positions = o.positions;
    so.stop = o.stop;
    so.progress = [&](uint64_t done, uint64_t total) {
        if (o.progress)
            o.progress(fmt::format("reading the ladder: {}/{} reads, {}", done, total,
                                   cli::eta_text(static_cast<double>(done), static_cast<double>(total), elapsed())));
    };
    auto reading = read_geometry(reader, so, o.again_if_unclear);
    r.ladder = std::move(reading.ladder);
    r.geometry = std::move(reading.geometry);
    r.read_cache = std::move(reading.read_cache);
    r.interrupted = stopped();

    if (o.dry_run && !r.interrupted) {
        r.notes.push_back(dry_run_note(reader.size(), r.geometry, o));
    } else if (o.open_aus && !r.interrupted) {
        const auto& g = r.geometry;
        if (!g.page_bytes || !g.au_bytes)
            throw std::runtime_error(fmt::format("{}: no open-AU test without a page and an AU from the ladder (found: page {}, AU {})",
                                                 d.path, found(g.page_bytes), found(g.au_bytes)));
        OpenAuOptions ao = open_au_options(g, o);
        ao.stop = o.stop;
        ao.progress = [&](const std::string& what) {
            if (o.progress) o.progress(fmt::format("{} ({} so far)", what, cli::duration_text(elapsed())));
        };
        try {
            const auto writer = open_writer();
            const auto plan = plan_open_aus(writer->size(), ao);
            if (!o.approve_writes || !o.approve_writes(plan, g)) {
                r.seconds = elapsed();
                return r;
            }
            r.open = measure_open_aus(*writer, ao);
        } catch (const std::exception& e) {
            throw std::runtime_error(fmt::format("{}; the blocks written were put back unless said otherwise above", e.what()));
        }
        r.interrupted = r.interrupted || r.open->interrupted;
    }
    r.seconds = elapsed();
    return r;
}

GeometryReport probe_geometry(const ProbedDevice& d, const GeometryRunOptions& o)
{
    BlockReadTimer reader(d.path);
    return probe_geometry(d, reader, [&] { return std::make_unique<BlockWriteDevice>(d.path); }, o);
}

} // namespace mmc::probe
