#include "erase/plan.h"
#include "erase/method_table.h"

#include <array>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

namespace mmc::erase {

namespace {

uint64_t round_up(uint64_t v, uint64_t unit) { return (v + unit - 1) / unit * unit; }
uint64_t round_down(uint64_t v, uint64_t unit) { return v / unit * unit; }

} // namespace

// A method's name and kind are its row of the method table (method_table.h).
std::string_view to_string(Method m)
{
    for (const auto& row : method_table())
        if (row.method == m) return row.name;
    return "unknown";
}

std::optional<Method> method_from_string(std::string_view name)
{
    for (const auto& row : method_table())
        if (row.name == name) return row.method;
    return std::nullopt;
}

std::span<const Method> all_methods()
{
    static const std::vector<Method> every = [] {
        std::vector<Method> out;
        for (const auto& row : method_table())
            if (row.method != Method::automatic) out.push_back(row.method);
        return out;
    }();
    return every;
}

bool is_block_layer(Method m) { return facts(m).layer == Layer::block; }
bool is_raw(Method m) { return facts(m).layer == Layer::card; }

std::string_view to_string(EdgeAction a)
{
    switch (a) {
    case EdgeAction::none: return "none";
    case EdgeAction::left_alone: return "left alone";
    case EdgeAction::zeroed: return "zeroed";
    }
    return "none";
}

uint64_t chunk_size(uint64_t unit, uint64_t max_chunk)
{
    if (max_chunk == 0) return 0;
    const uint64_t n = max_chunk / unit;
    return (n ? n : 1) * unit;
}

Plan make_plan(const PlanInput& in)
{
    if (in.logical_block == 0 || in.erase_unit == 0) throw PlanError("erase unit and logical block must not be 0");
    if (in.device_bytes == 0) throw PlanError("the device is empty (size 0)");
    if (in.range.offset >= in.device_bytes)
        throw PlanError(fmt::format("offset {} is beyond the end of the device ({} bytes)", in.range.offset,
                                    in.device_bytes));
    const uint64_t room = in.device_bytes - in.range.offset;
    const uint64_t length = in.range.length.value_or(room);
    if (length == 0) throw PlanError("length is 0: nothing to erase");
    if (length > room)
        throw PlanError(fmt::format("offset {} + length {} runs past the end of the device ({} bytes, {} after the "
                                    "offset)",
                                    in.range.offset, length, in.device_bytes, room));

    Plan p;
    p.range = {in.range.offset, length};
    p.erase_unit = in.erase_unit;

    // Alignment is on the disk, where the card's units are.
    const uint64_t abs_start = in.device_start + p.range.offset;
    const uint64_t abs_end = abs_start + length;
    const uint64_t a_start = round_up(abs_start, in.erase_unit);
    const uint64_t a_end = round_down(abs_end, in.erase_unit);
    const EdgeAction edge = in.zero_unaligned ? EdgeAction::zeroed : EdgeAction::left_alone;
    if (a_end <= a_start) {
        // Not one whole unit inside: the range is all head.
        p.aligned = {p.range.offset, 0};
        p.head = {p.range, edge};
        p.tail = {{p.range.end(), 0}, EdgeAction::none};
        return p;
    }
    p.aligned = {a_start - in.device_start, a_end - a_start};
    p.head.extent = {p.range.offset, p.aligned.offset - p.range.offset};
    p.head.action = p.head.extent.empty() ? EdgeAction::none : edge;
    p.tail.extent = {p.aligned.end(), p.range.end() - p.aligned.end()};
    p.tail.action = p.tail.extent.empty() ? EdgeAction::none : edge;

    p.chunk_bytes = chunk_size(in.erase_unit, in.max_chunk);
    const uint64_t step = p.chunk_bytes ? p.chunk_bytes : p.aligned.length;
    for (uint64_t off = p.aligned.offset; off < p.aligned.end(); off += step)
        p.chunks.push_back({off, std::min(step, p.aligned.end() - off)});
    if (!p.chunk_bytes) p.chunk_bytes = p.aligned.length;
    return p;
}

bool restores_clean(Method m) { return facts(m).restores_clean; }

PartialAus partial_aus(const Plan& plan, uint64_t device_start)
{
    PartialAus r;
    const uint64_t unit = plan.erase_unit;
    if (!unit) return r;
    std::optional<uint64_t> head_au, tail_au;
    if (!plan.head.extent.empty()) {
        head_au = (device_start + plan.head.extent.offset) / unit;
        r.bytes += plan.head.extent.length;
    }
    if (!plan.tail.extent.empty()) {
        tail_au = (device_start + plan.tail.extent.offset) / unit;
        r.bytes += plan.tail.extent.length;
    }
    if (head_au) ++r.count;
    if (tail_au && tail_au != head_au) ++r.count;
    // A range inside one AU that is all head may also end in the next AU.
    if (plan.aligned.empty() && !plan.head.extent.empty()) {
        const uint64_t last_au = (device_start + plan.head.extent.end() - 1) / unit;
        if (last_au != *head_au) ++r.count;
    }
    return r;
}

} // namespace mmc::erase
