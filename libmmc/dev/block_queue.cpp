#include "dev/block_queue.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <unistd.h>

namespace mmc::dev {

BlockQueue read_block_queue(std::string_view disk, const SysRoots& roots)
{
    return read_block_queue(roots.sysfs / "block" / disk);
}

BlockQueue read_block_queue(const fs::path& disk_dir)
{
    const fs::path q = disk_dir / "queue";
    BlockQueue b;
    b.logical_block_size = read_number(q / "logical_block_size");
    b.discard_granularity = read_number(q / "discard_granularity");
    b.discard_max_bytes = read_number(q / "discard_max_bytes");
    b.discard_max_hw_bytes = read_number(q / "discard_max_hw_bytes");
    b.write_zeroes_max_bytes = read_number(q / "write_zeroes_max_bytes");
    b.write_cache_attr = q / "write_cache";
    b.write_cache = read_attr(b.write_cache_attr);
    return b;
}

namespace {

bool scheduler_word(std::string_view w)
{
    if (w.empty() || w.size() > 64) return false;
    for (const char c : w)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
    return true;
}

// One write(2) of the whole value, as echo does: sysfs takes a store at once.
void write_attr_text(const fs::path& path, std::string_view text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC); // as echo VALUE > PATH
    if (fd < 0) throw std::runtime_error(fmt::format("{}: {}", path.string(), std::strerror(errno)));
    const ssize_t n = ::write(fd, text.data(), text.size());
    const int e = errno;
    ::close(fd);
    if (n < 0) throw std::runtime_error(fmt::format("{}: cannot write '{}': {}", path.string(), text, std::strerror(e)));
    if (static_cast<std::size_t>(n) != text.size())
        throw std::runtime_error(fmt::format("{}: short write of '{}'", path.string(), text));
}

} // namespace

QueueSettings parse_scheduler_list(std::string_view text)
{
    QueueSettings s;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\n' && text[j] != '\t') ++j;
        std::string_view w = text.substr(i, j - i);
        i = j;
        const bool current = w.size() >= 2 && w.front() == '[' && w.back() == ']';
        if (current) w = w.substr(1, w.size() - 2);
        if (!scheduler_word(w)) continue;
        s.schedulers.emplace_back(w);
        if (current && s.scheduler.empty()) s.scheduler = std::string(w);
    }
    return s;
}

QueueSettings read_queue_settings(const fs::path& disk_dir)
{
    const fs::path q = disk_dir / "queue";
    const auto list = read_attr(q / "scheduler");
    if (!list) throw std::runtime_error(fmt::format("{}: cannot read it", (q / "scheduler").string()));
    QueueSettings s = parse_scheduler_list(*list);
    const auto ra = read_attr(q / "read_ahead_kb");
    if (!ra || ra->empty() || ra->find_first_not_of("0123456789") != std::string::npos)
        throw std::runtime_error(fmt::format("{}: cannot read a number from it", (q / "read_ahead_kb").string()));
    s.read_ahead_kb = read_number(q / "read_ahead_kb");
    return s;
}

void write_scheduler(const fs::path& disk_dir, std::string_view scheduler)
{
    const fs::path path = disk_dir / "queue" / "scheduler";
    if (!scheduler_word(scheduler)) throw std::runtime_error(fmt::format("{}: '{}' is not a scheduler's name", path.string(), scheduler));
    write_attr_text(path, scheduler);
    const auto back = read_attr(path);
    // The kernel brackets the one in force; a queue with no choice (or a
    // fixture's plain file) reads the bare word.
    const auto now = back ? parse_scheduler_list(*back) : QueueSettings{};
    const bool bare = now.scheduler.empty() && now.schedulers.size() == 1 && now.schedulers[0] == scheduler;
    if (now.scheduler != scheduler && !bare)
        throw std::runtime_error(fmt::format("{}: wrote '{}', reads back '{}'", path.string(), scheduler, back.value_or("")));
}

void write_read_ahead_kb(const fs::path& disk_dir, uint64_t kb)
{
    const fs::path path = disk_dir / "queue" / "read_ahead_kb";
    write_attr_text(path, std::to_string(kb));
    // The kernel keeps pages: a value that is not a whole page reads back
    // rounded down to one. Anything else is a refusal.
    const uint64_t back = read_number(path);
    const uint64_t page_kb = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) / 1024;
    if (back != kb && back != kb / page_kb * page_kb)
        throw std::runtime_error(fmt::format("{}: wrote {}, reads back {}", path.string(), kb, back));
}

std::string scsi_provisioning_mode(const fs::path& disk_syspath)
{
    const fs::path scsi = disk_syspath.parent_path().parent_path();
    return read_attr(scsi / "scsi_disk" / scsi.filename() / "provisioning_mode").value_or("");
}

AttrReading loop_direct_io(std::string_view loop, const SysRoots& roots)
{
    AttrReading r{roots.sysfs / "block" / loop / "loop" / "dio", std::nullopt};
    r.value = read_attr(r.path);
    return r;
}

std::optional<std::string> cpu_governor(int cpu, const SysRoots& roots)
{
    auto g = read_attr(roots.sysfs / "devices" / "system" / "cpu" / fmt::format("cpu{}", cpu) / "cpufreq" /
                       "scaling_governor");
    if (!g || g->empty()) return std::nullopt;
    return g;
}

} // namespace mmc::dev
