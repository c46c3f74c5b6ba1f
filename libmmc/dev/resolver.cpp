#include "dev/resolver.h"

#include "dev/discovery.h"
#include "dev/sysfs_ancestor.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <regex>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace mmc::dev {

namespace {

using Why = DeviceError::Why;

bool present(const fs::path& p)
{
    std::error_code ec;
    return fs::exists(p, ec);
}

[[noreturn]] void fail(Why why, std::string_view typed, std::string reason, cli::Remedy remedy = cli::Remedy::none)
{
    throw DeviceError(why, std::string(typed), std::move(reason), remedy);
}

const std::regex& card_name() { static const std::regex re(R"(mmc\d+:[0-9a-fA-F]{4})"); return re; }
const std::regex& host_name() { static const std::regex re(R"(mmc\d+)"); return re; }

// The card directory a sysfs path lies in: the component named mmcN:RRRR.
std::optional<fs::path> card_ancestor(const fs::path& p) { return last_ancestor_named(p, card_name()); }

// The host directory a sysfs path lies in: mmc_host/mmcN.
std::optional<fs::path> host_ancestor(const fs::path& p)
{
    fs::path acc, prev;
    std::optional<fs::path> found;
    for (const auto& part : p) {
        acc /= part;
        if (std::regex_match(part.string(), host_name()) && prev.filename() == "mmc_host") found = acc;
        prev = acc;
    }
    return found;
}

Target card_target(const fs::path& card_dir, const SysRoots& roots, std::string partition = {})
{
    Card c = read_card(card_dir, roots);
    Host h = c.host;
    return {std::move(c), std::move(h), std::move(partition)};
}

// The card in a host's slot; an empty slot is no_card.
Target host_target(const fs::path& host_dir, std::string_view typed, const SysRoots& roots)
{
    Host h = read_host(host_dir, roots);
    std::vector<fs::path> cards;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(h.syspath, ec))
        if (std::regex_match(e.path().filename().string(), card_name())) cards.push_back(e.path());
    std::sort(cards.begin(), cards.end());
    if (cards.empty()) fail(Why::no_card, typed, "an MMC host with no card (empty slot?)");
    return card_target(resolve_path(cards.front()), roots);
}

// Where a name leads: a block device's sysfs directory, or an MMC host or
// card (which may have no block device: SDIO).
struct Lead {
    std::optional<fs::path> block;
    std::optional<Target> mmc;
    std::string path; // the node to open, when a block device
};

bool is_sysfs_path(const std::string& typed, const SysRoots& roots)
{
    return typed.rfind(roots.sysfs.string() + "/", 0) == 0 || typed.rfind("/sys/", 0) == 0;
}

// "/dev/mmcblk0" -> "mmcblk0" (also under the tests' /dev root); anything else unchanged.
std::string without_dev(const std::string& typed, const SysRoots& roots)
{
    const std::string prefix = roots.dev.string() + "/";
    if (typed.rfind(prefix, 0) == 0) return typed.substr(prefix.size());
    if (typed.rfind("/dev/", 0) == 0) return typed.substr(5);
    return typed;
}

Lead from_sysfs_path(const std::string& typed, const SysRoots& roots)
{
    if (!present(typed)) fail(Why::not_found, typed, "no such device");
    const fs::path real = resolve_path(typed);
    const fs::path as_block = roots.sysfs / "class" / "block" / real.filename();
    if (present(real / "dev") && present(as_block) && resolve_path(as_block) == real)
        return {real, std::nullopt, (roots.dev / real.filename()).string()};
    if (auto card = card_ancestor(real)) return {std::nullopt, card_target(*card, roots), {}};
    if (auto host = host_ancestor(real)) return {std::nullopt, host_target(*host, typed, roots), {}};
    fail(Why::not_block, typed, "not a block device");
}

// A path the system is asked about: it must be a block device sysfs knows.
Lead from_device_node(const std::string& typed, const ResolveOptions& o)
{
    struct stat st {};
    if (::stat(typed.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) fail(Why::not_found, typed, "no such device");
        fail(Why::not_found, typed, std::strerror(errno));
    }
    // A file or a directory could be measured as a file; /dev/null could not.
    const bool file_like = S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
    if (!S_ISBLK(st.st_mode))
        fail(Why::not_block, typed, "not a block device",
             o.file_alternative && file_like ? cli::Remedy::use_file : cli::Remedy::none);
    const auto sys = block_syspath(st.st_rdev, o.roots);
    if (!sys)
        fail(Why::not_found, typed,
             fmt::format("no block device {}:{} in {}", major(st.st_rdev), minor(st.st_rdev), o.roots.sysfs.string()));
    return {*sys, std::nullopt, typed};
}

Lead lead_of(const std::string& typed, const ResolveOptions& o)
{
    const auto& roots = o.roots;
    if (typed.empty()) fail(Why::not_found, typed, "empty device name");
    if (is_sysfs_path(typed, roots)) return from_sysfs_path(typed, roots);

    const std::string name = without_dev(typed, roots);
    if (std::regex_match(name, card_name())) {
        const fs::path dir = roots.sysfs / "bus" / "mmc" / "devices" / name;
        if (!present(dir)) fail(Why::not_found, typed, "no such device");
        return {std::nullopt, card_target(resolve_path(dir), roots), {}};
    }
    if (std::regex_match(name, host_name())) {
        const fs::path dir = roots.sysfs / "class" / "mmc_host" / name;
        if (!present(dir)) fail(Why::not_found, typed, "no such device");
        return {std::nullopt, host_target(resolve_path(dir), typed, roots), {}};
    }
    // A block device's own name. A path on the live system is asked of the
    // system instead (it may be a symlink, or a node of another name); in a
    // fixture tree /dev/NAME is looked up by name.
    const bool path_typed = typed.find('/') != std::string::npos;
    const fs::path by_name = roots.sysfs / "class" / "block" / name;
    if (name.find('/') == std::string::npos && !(path_typed && roots.is_live()) && present(by_name))
        return {resolve_path(by_name), std::nullopt, path_typed ? typed : (roots.dev / name).string()};
    // A bare name that is no device and no file here.
    if (!path_typed && !present(typed)) fail(Why::not_found, typed, "no such device");
    return from_device_node(typed, o);
}

// Why a block device off an MMC host is not a card: a USB disk whose USB
// facts could be read is named for what it is; else explain_non_mmc's guess.
std::string non_mmc_words(const fs::path& syspath, const std::optional<UsbStorage>& usb)
{
    if (usb && usb->reader) return fmt::format("{} is {}: its registers are out of reach", usb->disk, reader_card_words(*usb));
    if (usb && !usb->vid.empty()) return fmt::format("{} is a {}", usb->disk, usb_disk_words(*usb));
    return explain_non_mmc(syspath);
}

uint64_t sectors_in_bytes(const fs::path& attr) { return read_number(attr) * 512; }

// The disk, the partition and its bounds, the partitions beside it, the card.
Device describe(const std::string& typed, const Lead& lead, const SysRoots& roots)
{
    Device d;
    d.typed = typed;
    d.path = lead.path;
    d.syspath = *lead.block;
    d.name = d.syspath.filename().string();
    d.is_partition = present(d.syspath / "partition");
    d.disk_syspath = d.is_partition ? d.syspath.parent_path() : d.syspath;
    d.disk = d.disk_syspath.filename().string();
    d.disk_path = (roots.dev / d.disk).string();
    d.size = sectors_in_bytes(d.syspath / "size");
    d.disk_size = sectors_in_bytes(d.disk_syspath / "size");
    d.start = d.is_partition ? sectors_in_bytes(d.syspath / "start") : 0;
    if (d.disk != d.name) d.siblings.push_back(d.disk);
    std::vector<std::string> partitions;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d.disk_syspath, ec))
        if (present(e.path() / "partition") && e.path().filename() != d.name) partitions.push_back(e.path().filename().string());
    std::sort(partitions.begin(), partitions.end());
    d.siblings.insert(d.siblings.end(), partitions.begin(), partitions.end());

    if (lead.mmc) d.card = lead.mmc->card;
    else if (const auto card = card_ancestor(d.syspath)) d.card = read_card(*card, roots);
    if (!d.card) {
        d.usb = read_usb_storage(d.disk_syspath, roots);
        d.not_mmc = non_mmc_words(d.syspath, d.usb);
    }
    d.queue = read_block_queue(d.disk_syspath);
    if (d.usb) d.provisioning_mode = scsi_provisioning_mode(d.disk_syspath);
    return d;
}

cli::Remedy any_device_remedy(Purpose purpose)
{
    switch (purpose) {
    case Purpose::erase: return cli::Remedy::any_device_erase;
    case Purpose::probe: return cli::Remedy::any_device_probe;
    case Purpose::write:
    case Purpose::read: break;
    }
    return cli::Remedy::any_device_write;
}

Verdict judge(const Device& d, Purpose purpose, const ResolveOptions& o)
{
    Verdict v;
    // An empty reader slot has nothing to read or write, whatever the purpose.
    if (d.is_reader_slot() && !d.usb->medium_present) {
        v.allowed = false;
        v.why = Why::no_card;
        v.reason = "no card in the reader: " + describe_usb(*d.usb);
        return v;
    }
    if (purpose == Purpose::read) return v;
    if (!d.card && !d.is_reader_slot() && !o.any_device) {
        v.allowed = false;
        v.why = Why::not_mmc;
        v.reason = "not an MMC/SD device: " + d.not_mmc;
        v.remedy = any_device_remedy(purpose);
        return v;
    }
    SafetyRoots safety;
    safety.proc = o.proc;
    safety.sysfs = o.roots.sysfs;
    v.problems = check_safety(d.name, safety);
    if (!v.problems.empty()) {
        std::string list;
        for (const auto& p : v.problems) list += (list.empty() ? "" : "; ") + p.what;
        v.allowed = false;
        v.why = Why::in_use;
        v.reason = "in use: " + list;
        v.remedy = cli::Remedy::release_device;
    }
    return v;
}

} // namespace

DeviceError::DeviceError(Why w, std::string typed_name, std::string why_text, cli::Remedy r)
    : cli::Error(cli::ErrorKind::failure, typed_name.empty() ? why_text : fmt::format("{}: {}", typed_name, why_text), r),
      why(w), typed(std::move(typed_name)), reason(std::move(why_text))
{
}

void Device::require_allowed() const
{
    if (!verdict.allowed) throw DeviceError(verdict.why, typed, verdict.reason, verdict.remedy);
}

std::optional<fs::path> block_syspath(dev_t device, const SysRoots& roots)
{
    std::error_code ec;
    const fs::path p = fs::canonical(roots.sysfs / "dev" / "block" / fmt::format("{}:{}", major(device), minor(device)), ec);
    if (ec) return std::nullopt;
    return p;
}

Device resolve_device(std::string_view typed_in, Purpose purpose, const ResolveOptions& o)
{
    const std::string typed(typed_in);
    Lead lead = lead_of(typed, o);
    if (lead.mmc) {
        const auto& card = *lead.mmc->card;
        if (!card.is_storage()) fail(Why::no_block, typed, "a card with no block device (SDIO?)");
        lead.block = resolve_path(o.roots.sysfs / "class" / "block" / card.block);
        lead.path = card.device_path(o.roots);
    }
    Device d = describe(typed, lead, o.roots);
    d.verdict = judge(d, purpose, o);
    return d;
}

Target resolve(std::string_view typed_in, const SysRoots& roots)
{
    const std::string typed(typed_in);
    ResolveOptions o;
    o.roots = roots;
    const Lead lead = lead_of(typed, o);
    if (lead.mmc) return *lead.mmc; // a card without a block device (SDIO) too
    const bool is_partition = present(*lead.block / "partition");
    if (const auto card = card_ancestor(*lead.block))
        return card_target(*card, roots, is_partition ? lead.block->filename().string() : std::string());
    const fs::path disk = is_partition ? lead.block->parent_path() : *lead.block;
    const auto usb = read_usb_storage(disk, roots);
    if (usb && usb->reader)
        fail(Why::not_mmc, typed, fmt::format("not an MMC/SD device: {}; a USB reader does not pass the card's registers",
                                              describe_usb(*usb)));
    fail(Why::not_mmc, typed, "not an MMC/SD device: " + non_mmc_words(*lead.block, usb));
}

std::string describe_device(const Device& d)
{
    if (d.usb && d.usb->reader) return describe_usb(*d.usb);
    if (d.card) {
        return fmt::format("{}: {} card{} on {}", d.name, to_string(d.card->type), d.card->product.empty() ? "" : " " + d.card->product,
                           d.card->host.name);
    }
    // not_mmc names the device itself ("loop0 is a loop device"): once is enough.
    if (d.not_mmc.rfind(d.name + " ", 0) == 0) return d.not_mmc;
    return fmt::format("{}: {}", d.name, d.not_mmc);
}

} // namespace mmc::dev
