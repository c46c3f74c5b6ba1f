// fdisk -l text to a partition table (fdisk_text.h). Every number is
// checked for what it must be; anything else is a refusal that names the
// line, never a guess.
#include "format/fdisk_text.h"

#include "cli/printable.h"

#include <charconv>
#include <fmt/format.h>
#include <optional>

namespace mmc::format {

namespace {

constexpr uint64_t max_sectors = uint64_t{1} << 40; // 512 TiB: more than any card
constexpr unsigned max_rows = 128;                   // an SD card's table has a handful

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> words(std::string_view s)
{
    std::vector<std::string_view> out;
    while (true) {
        s = trim(s);
        if (s.empty()) return out;
        const auto end = s.find_first_of(" \t");
        out.push_back(s.substr(0, end));
        if (end == std::string_view::npos) return out;
        s.remove_prefix(end);
    }
}

std::optional<uint64_t> number(std::string_view s, int base = 10)
{
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

// The number before `word` in "..., 31116288 sectors" or "..., 15931539456 bytes".
std::optional<uint64_t> number_before(std::string_view line, std::string_view word)
{
    const auto w = words(line);
    for (std::size_t i = 1; i < w.size(); ++i) {
        std::string_view key = w[i];
        if (key.ends_with(',')) key.remove_suffix(1);
        if (key == word) return number(w[i - 1]);
    }
    return std::nullopt;
}

enum class Columns { none, sectors, blocks }; // Start End Sectors Size Id Type | Start End Blocks Id System

struct Reader {
    std::vector<FdiskDisk> disks;
    bool have_disk = false, cylinders = false, gpt = false;
    uint64_t bytes = 0;
    Columns columns = Columns::none;

    FdiskDisk& disk() { return disks.back(); }

    void refuse(std::size_t line, std::string why)
    {
        // The text is anyone's: shown only through printable() (a message may quote it).
        if (disk().refused.empty()) disk().refused = cli::printable(fmt::format("line {}: {}", line, why));
    }

    void start_disk(std::string_view line)
    {
        const auto colon = line.find(':');
        disks.push_back({cli::printable(trim(line.substr(5, colon - 5))), 0, {}, {}});
        have_disk = true;
        cylinders = gpt = false;
        columns = Columns::none;
        bytes = number_before(line.substr(colon + 1), "bytes").value_or(0);
        disk().sectors = number_before(line.substr(colon + 1), "sectors").value_or(bytes / 512);
    }

    void header(std::size_t n, std::string_view line)
    {
        const auto w = words(line);
        auto has = [&](std::string_view name) {
            for (auto x : w)
                if (x == name) return true;
            return false;
        };
        columns = has("Sectors") && has("Id") ? Columns::sectors : has("Blocks") && has("Id") ? Columns::blocks : Columns::none;
        if (gpt || (has("Type") && !has("Id")))
            refuse(n, "a GPT: the SD layout is an MBR's; mmc-format reads MBR tables only");
        else if (columns == Columns::none)
            refuse(n, fmt::format("a table header fdisk -l does not print: '{}'", trim(line)));
    }

    void row(std::size_t n, std::string_view line)
    {
        if (!disk().refused.empty()) return;
        if (cylinders) return refuse(n, "cylinder units: the start and end are not exact sectors; paste `fdisk -l -u` (sectors) instead");
        if (disk().table.partitions.size() >= max_rows) return refuse(n, fmt::format("more than {} partitions", max_rows));
        auto w = words(line);
        Partition p;
        // The number: the device name's trailing digits (mmcblk0p1, sdb5, raspios.img2).
        const std::string_view dev = w[0];
        std::size_t digits = dev.size();
        while (digits > 0 && dev[digits - 1] >= '0' && dev[digits - 1] <= '9') --digits;
        const auto number_ = number(dev.substr(digits));
        if (!number_ || *number_ < 1 || *number_ > 255) return refuse(n, fmt::format("'{}' is not a partition's name", dev));
        p.number = static_cast<unsigned>(*number_);
        for (const Partition& q : disk().table.partitions)
            if (q.number == p.number) return refuse(n, fmt::format("partition {} listed twice", p.number));
        std::size_t i = 1;
        if (i < w.size() && w[i] == "*") {
            p.bootable = true;
            ++i;
        }
        const std::size_t need = columns == Columns::sectors ? 6 : 5; // start end sectors size id type | start end blocks id system
        if (w.size() < i + need) return refuse(n, fmt::format("a partition row with {} columns, expected at least {}", w.size(), i + need));
        const auto start = number(w[i]), end = number(w[i + 1]);
        if (!start || !end || *end > max_sectors) return refuse(n, "the start and end are not sector numbers");
        if (*end < *start) return refuse(n, fmt::format("partition {} ends (sector {}) before it starts ({})", p.number, *end, *start));
        p.start = *start;
        p.sectors = *end - *start + 1;
        if (columns == Columns::sectors) {
            const auto count = number(w[i + 2]);
            if (!count || *count != p.sectors)
                return refuse(n, fmt::format("partition {}: {} sectors listed, {} from its start to its end", p.number, w[i + 2], p.sectors));
        } else {
            std::string_view blocks = w[i + 2]; // 1 KiB blocks, '+' when there is an odd sector more
            if (blocks.ends_with('+')) blocks.remove_suffix(1);
            if (!number(blocks)) return refuse(n, fmt::format("'{}' is not a block count", w[i + 2]));
        }
        const auto id = number(w[i + need - 2], 16);
        if (!id || *id == 0 || *id > 0xff) return refuse(n, fmt::format("'{}' is not a partition type (a hex byte)", w[i + need - 2]));
        p.type = static_cast<uint8_t>(*id);
        if (p.type == 0xEE) return refuse(n, "a GPT (protective MBR, type ee): the SD layout is an MBR's; mmc-format reads MBR tables only");
        disk().table.partitions.push_back(p);
    }

    void line(std::size_t n, std::string_view raw)
    {
        const std::string_view s = trim(raw);
        // "Disk NAME: size...", not "Disk identifier:" or "Disk model:".
        if (const auto colon = s.find(':'); s.starts_with("Disk ") && colon != std::string_view::npos && colon > 5) {
            const std::string_view name = trim(s.substr(5, colon - 5));
            if (name.find(' ') == std::string_view::npos && name != "identifier" && name != "model") {
                start_disk(s);
                return;
            }
        }
        if (!have_disk) return;
        if (s.starts_with("Units")) {
            if (s.find("cylinders") != std::string_view::npos) cylinders = true;
            else if (s.find("sectors of 1 * 512 ") == std::string_view::npos && s.find("sectors of 1 * 512=") == std::string_view::npos)
                refuse(n, fmt::format("'{}': mmc-format checks 512-byte sectors", s));
        } else if (s.starts_with("Disklabel type:")) {
            gpt = trim(s.substr(15)) == "gpt";
        } else if (const auto t = s.find("total "); t != std::string_view::npos && s.find("sectors", t) != std::string_view::npos) {
            if (const auto v = number_before(s.substr(t), "sectors")) disk().sectors = *v; // older fdisk's geometry line
        } else if (s.starts_with("Device") && s.find("Start") != std::string_view::npos) {
            header(n, s);
        } else if (columns != Columns::none && !s.empty() && !s.starts_with("Partition")) {
            // A row: its first word a partition's name (ends in its number);
            // anything else under the header (fdisk's warnings) is skipped.
            const auto w = words(s);
            if (w.size() >= 2 && w[0].back() >= '0' && w[0].back() <= '9') row(n, s);
        } else if (s.empty()) {
            columns = Columns::none;
        }
    }
};

} // namespace

std::vector<FdiskDisk> parse_fdisk_text(std::string_view text)
{
    Reader r;
    std::size_t n = 0;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        r.line(++n, text.substr(0, eol));
        if (eol == std::string_view::npos) break;
        text.remove_prefix(eol + 1);
    }
    std::vector<FdiskDisk> out;
    for (FdiskDisk& d : r.disks) {
        if (d.table.partitions.empty() && d.refused.empty()) continue; // no table listed
        if (d.refused.empty()) {
            if (d.sectors == 0 || d.sectors > max_sectors) d.refused = "its size in sectors is not in the 'Disk' line";
            else
                try {
                    check_partitions(d.table, d.sectors);
                } catch (const TableError& e) {
                    d.refused = e.what();
                }
        }
        out.push_back(std::move(d));
    }
    if (out.empty())
        throw TableError("no partition table in the text: no 'Device ... Start End' rows under a 'Disk NAME: ...' line of fdisk -l");
    return out;
}

FdiskDisk pick_fdisk_disk(const std::vector<FdiskDisk>& disks, std::string_view name)
{
    const FdiskDisk* found = nullptr;
    std::string names;
    for (const FdiskDisk& d : disks) {
        names += (names.empty() ? "" : ", ") + d.name;
        if (name.empty() ? disks.size() == 1 : d.name == name) found = &d;
    }
    if (!found && !name.empty()) throw TableError(fmt::format("no disk '{}' in the text (it lists {})", name, names));
    if (!found) throw TableError(fmt::format("{} disks in the text ({}): name the one to check", disks.size(), names));
    if (!found->refused.empty()) throw TableError(fmt::format("{}: {}", found->name, found->refused));
    return *found;
}

} // namespace mmc::format
