#include "sim/card.h"

#include "sim/timing.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::sim {

namespace {
const Params& validated(const Params& p)
{
    validate(p);
    return p;
}
} // namespace

Card::Card(const Params& p)
    : p_(validated(p)), fakes_(p), flash_(p, real_size(p)), store_(p.page_bytes, p.erased_byte, p.seed, p.state != StartState::clean)
{
    if (p_.bridge_cache_bytes) bridge_.emplace(p_.bridge_cache_bytes);
}

void Card::check_range(const char* what, uint64_t offset, uint64_t length) const
{
    if (offset > p_.size_bytes || length > p_.size_bytes - offset)
        throw std::out_of_range(fmt::format("{} of {} bytes at {}: beyond the card's {} bytes", what, length, offset, p_.size_bytes));
}

template <class F> void Card::pieces(uint64_t offset, uint64_t length, F f) const
{
    while (length) {
        const uint64_t n = std::min<uint64_t>(length, p_.page_bytes - offset % p_.page_bytes);
        f(offset, fakes_.physical(offset), n);
        offset += n;
        length -= n;
    }
}

template <class F> void Card::storage_runs(uint64_t offset, uint64_t length, F f) const
{
    uint64_t run = 0, run_len = 0;
    pieces(offset, length, [&](uint64_t, std::optional<uint64_t> phys, uint64_t n) {
        if (run_len && (!phys || *phys != run + run_len || *phys / p_.au_bytes != run / p_.au_bytes)) {
            f(run, run_len);
            run_len = 0;
        }
        if (!phys) return;
        if (!run_len) run = *phys;
        run_len += n;
    });
    if (run_len) f(run, run_len);
}

FlashWrites::Work Card::write_flash(FlashWrites& flash, Counters& c, uint64_t start, uint64_t offset,
                                     uint64_t length) const
{
    return flash.write([&](auto f) { storage_runs(offset, length, f); }, c, {start, offset, c.writes.bytes, 0});
}

void Card::fold_idle(uint64_t start)
{
    const uint64_t busy_until = std::max(host_free_, flash_free_);
    if (start > busy_until) flash_.idle(start - busy_until, counters_);
}

// Retires the cached writes the flash has finished by `at`.
uint64_t Card::drained(uint64_t at)
{
    while (!cached_.empty() && cached_.front().done_ns <= at) {
        cached_bytes_ -= cached_.front().bytes;
        cached_.pop_front();
    }
    return cached_bytes_;
}

Card::Retries Card::retries(uint64_t offset, uint64_t length, uint64_t at, bool skip_first_page) const
{
    Retries r;
    const BlockWear& wear = flash_.ftl().wear();
    bool first = true;
    pieces(offset, length, [&](uint64_t logical, std::optional<uint64_t> phys, uint64_t) {
        const bool skip = first && skip_first_page;
        first = false;
        if (!phys || skip) return;
        const unsigned steps = wear.retry_steps(*phys / p_.page_bytes, p_.wear.age_ns + at);
        r.steps += std::min(steps, max_read_retries);
        if (steps > max_read_retries && !r.unreadable) r.unreadable = logical;
    });
    return r;
}

void Card::refuse_at_end_of_life(const char* what, uint64_t offset, uint64_t start, bool changes_data)
{
    if (!flash_.ftl().wear().end_of_life()) return;
    const EndOfLife mode = p_.wear.end_of_life;
    if (mode == EndOfLife::lose_writes || (mode == EndOfLife::read_only && !changes_data)) return;
    const uint64_t end = std::max(start, flash_free_) + p_.timing.command_ns;
    counters_.busy_ns += end - start;
    host_free_ = end;
    if (mode == EndOfLife::dead)
        throw RequestFailed(RequestFailed::Kind::dead, offset, end, fmt::format("{} at {}: the card is dead (worn out)", what, offset));
    ++counters_.wear.refused_writes;
    throw RequestFailed(RequestFailed::Kind::write_protected, offset, end,
                        fmt::format("{} at {}: the card is read-only (worn out)", what, offset));
}

bool Card::losing_writes() const
{
    return flash_.ftl().wear().end_of_life() && p_.wear.end_of_life == EndOfLife::lose_writes;
}

uint64_t Card::read(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns)
{
    return read(offset, out, arrival_ns, false);
}

uint64_t Card::read_on(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns)
{
    return read(offset, out, arrival_ns, true);
}

uint64_t Card::read(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns, bool continues)
{
    check_range("read", offset, out.size());
    if (bridge_ && bridge_->answer(offset, out)) { // the reader's RAM: no card time
        host_free_ = std::max(arrival_ns, host_free_) + bus_ns(p_.timing, out.size());
        return host_free_;
    }
    const uint64_t start = continues ? host_free_ : std::max(arrival_ns, host_free_);
    refuse_at_end_of_life("read", offset, start, false);
    fold_idle(start);
    uint64_t service = read_service_ns(p_, offset, out.size());
    const bool same_page = continues && offset % p_.page_bytes != 0;
    if (continues) {
        service -= p_.timing.command_ns;
        if (same_page) service -= p_.timing.page_read_ns;
        if (offset % p_.au_bytes == 0) service += p_.timing.au_cross_ns;
    }
    const Retries retried = retries(offset, out.size(), start, same_page);
    service += retried.steps * p_.timing.page_read_ns;
    counters_.wear.read_retries += retried.steps;
    const uint64_t end = std::max(start, flash_free_) + service;
    pieces(offset, out.size(), [&](uint64_t logical, std::optional<uint64_t> phys, uint64_t n) {
        const auto dst = out.subspan(logical - offset, n);
        if (!phys) {
            fakes_.limbo_read(logical, dst);
            counters_.limbo_bytes_read += n;
            return;
        }
        const uint64_t page = *phys / p_.page_bytes;
        store_.read(page, static_cast<uint32_t>(*phys % p_.page_bytes), dst, flash_.ftl().valid(page));
    });
    if (!out.empty()) {
        const uint64_t last = offset + out.size() - 1;
        counters_.pages_read += last / p_.page_bytes - offset / p_.page_bytes + (same_page ? 0 : 1);
        counters_.au_crossings += last / p_.au_bytes - offset / p_.au_bytes + (continues && offset % p_.au_bytes == 0);
    }
    if (bridge_) bridge_->remember(offset, out);
    if (!continues) ++counters_.reads.requests;
    counters_.reads.bytes += out.size();
    counters_.reads.busy_ns += end - start;
    counters_.busy_ns += end - start;
    host_free_ = end;
    if (retried.unreadable) {
        ++counters_.wear.read_errors;
        throw RequestFailed(RequestFailed::Kind::read_error, *retried.unreadable, std::max(end, arrival_ns),
                            fmt::format("read at {}: uncorrectable bit errors", *retried.unreadable));
    }
    return std::max(end, arrival_ns);
}

uint64_t Card::write(uint64_t offset, std::span<const uint8_t> data, uint64_t arrival_ns)
{
    check_range("write", offset, data.size());
    const uint64_t start = std::max(arrival_ns, host_free_);
    refuse_at_end_of_life("write", offset, start, true);
    if (losing_writes()) { // acknowledged as if cached; nothing reaches the flash
        const uint64_t end = start + transfer_ns(p_.timing, data.size());
        ++counters_.wear.lost_writes;
        counters_.wear.lost_write_bytes += data.size();
        ++counters_.writes.requests;
        counters_.writes.bytes += data.size();
        counters_.writes.busy_ns += end - start;
        counters_.busy_ns += end - start;
        host_free_ = end;
        return end;
    }
    fold_idle(start);
    // The data first, while the FTL still knows which pages held data before.
    pieces(offset, data.size(), [&](uint64_t logical, std::optional<uint64_t> phys, uint64_t n) {
        const auto src = data.subspan(logical - offset, n);
        if (!phys) {
            fakes_.limbo_write(logical, src);
            counters_.limbo_bytes_written += n;
            return;
        }
        const uint64_t page = *phys / p_.page_bytes;
        store_.write(page, static_cast<uint32_t>(*phys % p_.page_bytes), src, flash_.ftl().valid(page));
    });
    if (bridge_) bridge_->remember(offset, data);
    const FlashWrites::Work work = write_flash(flash_, counters_, start, offset, data.size());
    const uint64_t flash = work.ns + work.stall_ns;
    const uint64_t transfer = transfer_ns(p_.timing, data.size());

    uint64_t end;
    if (p_.cache_bytes && data.size() <= p_.cache_bytes) {
        uint64_t room_at = start; // wait until the cache has room for this write
        while (drained(room_at) + data.size() > p_.cache_bytes) room_at = cached_.front().done_ns;
        counters_.cache_wait_ns += room_at - start;
        end = room_at + transfer;
        flash_free_ = std::max(flash_free_, end) + flash;
        cached_.push_back({flash_free_, data.size()});
        cached_bytes_ += data.size();
    } else {
        end = std::max(start, flash_free_) + transfer + flash;
        flash_free_ = end;
    }
    ++counters_.writes.requests;
    counters_.writes.bytes += data.size();
    counters_.writes.busy_ns += end - start;
    counters_.busy_ns += end - start;
    host_free_ = end;
    return end;
}

uint64_t Card::discard(uint64_t offset, uint64_t length, uint64_t arrival_ns)
{
    check_range("discard", offset, length);
    const uint64_t start = std::max(arrival_ns, host_free_);
    refuse_at_end_of_life("discard", offset, start, true);
    if (bridge_ && !losing_writes()) bridge_->forget(offset, length);
    fold_idle(start);
    uint64_t flash = 0;
    if (!losing_writes()) storage_runs(offset, length, [&](uint64_t phys, uint64_t n) {
        flash += flash_.ftl().discard(phys, n, counters_, [&](uint64_t page) { store_.drop(page); });
    });
    const uint64_t end = std::max(start, flash_free_) + p_.timing.command_ns + flash;
    ++counters_.discards.requests;
    counters_.discards.bytes += length;
    counters_.discards.busy_ns += end - start;
    counters_.busy_ns += end - start;
    host_free_ = end;
    return end;
}

uint64_t Card::flush(uint64_t arrival_ns)
{
    const uint64_t start = std::max(arrival_ns, host_free_);
    refuse_at_end_of_life("flush", 0, start, false);
    fold_idle(start);
    const uint64_t end = std::max(start, flash_free_) + p_.timing.command_ns;
    ++counters_.flushes.requests;
    counters_.flushes.busy_ns += end - start;
    counters_.busy_ns += end - start;
    host_free_ = end;
    return end;
}

const Counters& Card::counters() const
{
    flash_.ftl().summarize(counters_.aus);
    const BlockWear& wear = flash_.ftl().wear();
    counters_.wear.erase_counts = wear.erase_counts();
    counters_.wear.remapped_blocks = wear.remapped();
    counters_.wear.spare_blocks_left = wear.spares_left();
    counters_.wear.end_of_life = wear.end_of_life();
    counters_.pages_stored = store_.pages_stored();
    return counters_;
}

nlohmann::json Card::counters_json() const
{
    nlohmann::json j = to_json(counters());
    if (bridge_) j["bridge_cache"] = bridge_->counters_json();
    return j;
}

uint64_t Card::predict_read(uint64_t offset, uint64_t length) const
{
    check_range("read", offset, length);
    return read_service_ns(p_, offset, length) + retries(offset, length, host_free_, false).steps * p_.timing.page_read_ns;
}

uint64_t Card::predict_write(uint64_t offset, uint64_t length) const
{
    check_range("write", offset, length);
    FlashWrites scratch = flash_;
    Counters ignored;
    const FlashWrites::Work work = write_flash(scratch, ignored, host_free_, offset, length);
    return transfer_ns(p_.timing, length) + work.ns + work.stall_ns;
}

} // namespace mmc::sim
