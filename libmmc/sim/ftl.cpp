#include "sim/ftl.h"

#include <algorithm>
#include <bit>

namespace mmc::sim {

Ftl::Ftl(const Params& p, uint64_t physical_bytes)
    : t_(p.timing), page_bytes_(p.page_bytes), au_bytes_(p.au_bytes), pages_per_au_(p.au_bytes / p.page_bytes),
      pages_(physical_bytes / p.page_bytes), aus_((pages_ + pages_per_au_ - 1) / pages_per_au_),
      open_limit_(p.open_aus), reserve_aus_((p.sustained.gc_reserve_bytes + p.au_bytes - 1) / p.au_bytes),
      fat_aus_(std::min(aus_, (p.fat_area_bytes + p.au_bytes - 1) / p.au_bytes)), wear_(p, aus_)
{
    const bool all_valid = p.state != StartState::clean;
    valid_.assign((pages_ + 63) / 64, all_valid ? ~uint64_t{0} : 0);
    if (all_valid && pages_ % 64) valid_.back() = (uint64_t{1} << (pages_ % 64)) - 1;
    uint8_t start = 0;
    if (p.state == StartState::clean) start = erased_flag;
    if (p.state == StartState::fragmented) start = fragmented_flag;
    flags_.assign(aus_, start);
    if (start == erased_flag) erased_aus_ = aus_;
}

uint64_t Ftl::au_pages(uint64_t au) const { return std::min(pages_per_au_, pages_ - au * pages_per_au_); }

void Ftl::set_valid(uint64_t page, bool v)
{
    const uint64_t bit = uint64_t{1} << (page % 64);
    if (v) valid_[page / 64] |= bit;
    else valid_[page / 64] &= ~bit;
}

uint64_t Ftl::copy_valid(uint64_t first_page, uint64_t end_page, Counters& c)
{
    uint64_t n = 0;
    for (uint64_t p = first_page; p < end_page; ++p) n += valid(p);
    c.pages_copied += n;
    return n * (t_.page_read_ns + t_.page_program_ns);
}

uint64_t Ftl::erase(uint64_t au, Counters& c)
{
    ++c.erases;
    wear_.erased(au);
    return t_.block_erase_ns;
}

Ftl::OpenAu* Ftl::find_open(uint64_t au)
{
    for (auto& o : open_)
        if (o.au == au) return &o;
    return nullptr;
}

uint64_t Ftl::full_merge(uint64_t au, Counters& c)
{
    const uint64_t start = au * pages_per_au_;
    return copy_valid(start, start + au_pages(au), c) + erase(au, c);
}

uint64_t Ftl::close(std::size_t i, Counters& c)
{
    const OpenAu o = open_[i];
    open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(i));
    ++c.merges;
    const uint64_t start = o.au * pages_per_au_;
    if (o.in_order) return copy_valid(start + o.used, start + au_pages(o.au), c);
    return full_merge(o.au, c);
}

uint64_t Ftl::take_block(uint64_t au, Counters& c)
{
    if (!(flags_[au] & erased_flag)) return erase(au, c);
    flags_[au] &= ~erased_flag;
    --erased_aus_;
    if (erased_aus_ < reserve_aus_) ++c.blocks_made_free; // below the reserve: one made up
    return 0;
}

uint64_t Ftl::open(uint64_t au, Counters& c)
{
    uint64_t ns = 0;
    if (open_.size() >= open_limit_) ns += close(0, c);
    ns += take_block(au, c);
    open_.push_back({au, 0, true});
    return ns;
}

uint64_t Ftl::write_fat_area(uint64_t au, uint64_t first, uint64_t last, bool ends_on_page, Counters& c)
{
    const uint64_t start = au * pages_per_au_, n = last - first + 1;
    uint64_t ns = 0;
    auto log = std::find_if(fat_logs_.begin(), fat_logs_.end(), [au](const OpenAu& o) { return o.au == au; });
    if (log == fat_logs_.end()) {
        ns += take_block(au, c);
        fat_logs_.push_back({au, 0, true});
        log = fat_logs_.end() - 1;
    }
    if (log->used + n > au_pages(au)) { // full: the AU's valid pages merged into a block, a fresh log
        ++c.merges;
        ns += full_merge(au, c) + erase(au, c);
        *log = {au, 0, true};
    }
    // Page-mapped: every write takes log pages, wherever it goes.
    log->in_order = log->in_order && first - start == log->used;
    log->used += n;
    // Written in order to its very end: the log is the AU's block, nothing to copy.
    if (log->in_order && log->used == au_pages(au) && ends_on_page) fat_logs_.erase(log);
    return ns;
}

bool Ftl::in_order_with(const OpenAu& o, uint64_t page_in_au) const
{
    if (!o.in_order) return false;
    return o.used == 0 || page_in_au == o.used || page_in_au + 1 == o.used;
}

uint64_t Ftl::write_open_au(uint64_t au, uint64_t first, uint64_t last, bool ends_on_page, Counters& c)
{
    const uint64_t start = au * pages_per_au_;
    const uint64_t n = last - first + 1;
    uint64_t ns = 0;
    OpenAu* o = find_open(au);
    if (!o) {
        ns += open(au, c);
    } else { // now the most recently written
        const OpenAu keep = *o;
        open_.erase(open_.begin() + (o - open_.data()));
        open_.push_back(keep);
    }
    OpenAu* w = &open_.back();
    if (!in_order_with(*w, first - start) && w->used + n > au_pages(au)) { // log full: merge, fresh log
        ns += close(open_.size() - 1, c) + erase(au, c);
        open_.push_back({au, 0, true});
        w = &open_.back();
    }
    if (in_order_with(*w, first - start)) {
        if (w->used == 0) ns += copy_valid(start, first, c); // the log starts at this page
        w->used = std::max(w->used, last + 1 - start);
    } else {
        w->in_order = false;
        w->used += n;
    }
    // Written in order to its very end: closed with nothing to copy. (A write
    // ending inside the last page leaves it open for the rest of that page.)
    if (w->in_order && w->used == au_pages(au) && ends_on_page) open_.pop_back();
    return ns;
}

uint64_t Ftl::write(uint64_t offset, uint64_t length, Counters& c)
{
    const uint64_t au = offset / au_bytes_;
    const uint64_t first = offset / page_bytes_;
    const uint64_t last = (offset + length - 1) / page_bytes_;
    const uint64_t n = last - first + 1;
    const uint64_t erases_before = c.erases;
    uint64_t ns = 0;

    if (flags_[au] & fragmented_flag) { // consolidate the scattered data first
        ++c.merges;
        ns += full_merge(au, c);
        flags_[au] &= ~fragmented_flag;
    }
    if (au < fat_aus_) ns += write_fat_area(au, first, last, (offset + length) % page_bytes_ == 0, c);
    else ns += write_open_au(au, first, last, (offset + length) % page_bytes_ == 0, c);

    // Partial pages: the rest of the page is read back when it holds data.
    if (offset % page_bytes_ && valid(first)) ns += t_.page_read_ns;
    if ((offset + length) % page_bytes_ && valid(last) && (last != first || offset % page_bytes_ == 0))
        ns += t_.page_read_ns;

    ns += n * t_.page_program_ns;
    c.pages_programmed += n;
    for (uint64_t p = first; p <= last; ++p) set_valid(p, true);
    c.blocks_made_free += c.erases - erases_before;
    return ns;
}

std::pair<uint64_t, uint64_t> Ftl::covered_pages(uint64_t offset, uint64_t length) const
{
    const uint64_t first = (offset + page_bytes_ - 1) / page_bytes_;
    const uint64_t end = (offset + length) / page_bytes_;
    return {first, std::max(first, end)};
}

uint64_t Ftl::discard_done(uint64_t au, uint64_t first, uint64_t end, Counters& c)
{
    const uint64_t start = au * pages_per_au_;
    if (first != start || end != start + au_pages(au)) return 0; // only pages invalidated
    for (auto* logs : {&open_, &fat_logs_})
        std::erase_if(*logs, [au](const OpenAu& o) { return o.au == au; });
    const bool was_erased = flags_[au] & erased_flag;
    flags_[au] = erased_flag;
    if (!was_erased) ++erased_aus_;
    return was_erased ? 0 : erase(au, c);
}

void Ftl::summarize(AuSummary& s) const
{
    s.total = aus_;
    s.open = open_.size() + fat_logs_.size();
    s.erased = static_cast<uint64_t>(std::count_if(flags_.begin(), flags_.end(), [](uint8_t f) { return f & erased_flag; }));
    s.fragmented =
        static_cast<uint64_t>(std::count_if(flags_.begin(), flags_.end(), [](uint8_t f) { return f & fragmented_flag; }));
    s.valid_pages = 0;
    for (uint64_t w : valid_) s.valid_pages += static_cast<uint64_t>(std::popcount(w));
}

} // namespace mmc::sim
