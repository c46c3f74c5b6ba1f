#include "dev/block_safety.h"

#include "dev/sysfs.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace mmc::dev {

namespace {

struct Node {
    std::string name;
    std::string devno; // "7:0"
    fs::path dir;
};

// /proc/mounts, mountinfo and swaps escape blanks as octal: "\040".
std::string unescape(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
            i += 3;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::vector<std::string> lines_of(const fs::path& p)
{
    std::vector<std::string> out;
    std::ifstream in(p);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

Node node_at(const fs::path& dir) { return {dir.filename().string(), dev::read_attr(dir / "dev").value_or(""), dir}; }

// The block device name a path under /dev names; on the live system symlinks
// such as /dev/disk/by-uuid/... are followed.
std::string dev_name(const std::string& path, bool live)
{
    if (path.rfind("/dev/", 0) != 0) return {};
    if (live) {
        std::error_code ec;
        const auto real = fs::canonical(path, ec);
        if (!ec && real.string().rfind("/dev/", 0) == 0) return real.filename().string();
    }
    return path.substr(5);
}

std::string devno_of_path(const std::string& path, bool live)
{
    if (!live || path.empty() || path[0] != '/') return {};
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return {};
    return fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev));
}

std::string holder_kind(const std::string& holder)
{
    if (holder.rfind("dm-", 0) == 0) return " (device-mapper)";
    if (holder.rfind("md", 0) == 0) return " (md RAID)";
    if (holder.rfind("bcache", 0) == 0) return " (bcache)";
    return "";
}

} // namespace

std::vector<MountEntry> read_mounts(const SafetyRoots& roots)
{
    std::vector<MountEntry> out;
    // mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
    for (const auto& line : lines_of(roots.proc / "self" / "mountinfo")) {
        std::istringstream in(line);
        std::vector<std::string> f;
        for (std::string w; in >> w;) f.push_back(w);
        const auto dash = std::find(f.begin(), f.end(), "-");
        if (f.size() < 5 || dash == f.end() || std::distance(dash, f.end()) < 3) continue;
        out.push_back({unescape(*(dash + 2)), f[2], unescape(f[4])});
    }
    // /proc/mounts: SOURCE MOUNTPOINT FSTYPE OPTIONS 0 0
    for (const auto& line : lines_of(roots.proc / "mounts")) {
        std::istringstream in(line);
        std::string source, mountpoint;
        if (!(in >> source >> mountpoint)) continue;
        out.push_back({unescape(source), "", unescape(mountpoint)});
    }
    return out;
}

std::vector<SafetyProblem> check_safety(const std::string& name, const SafetyRoots& roots)
{
    std::vector<SafetyProblem> problems;
    std::set<std::string> seen;
    auto add = [&](const std::string& device, std::string what) {
        if (seen.insert(what).second) problems.push_back({device, std::move(what)});
    };

    const fs::path link = roots.sysfs / "class" / "block" / name;
    std::error_code ec;
    if (!fs::exists(link, ec)) {
        add(name, fmt::format("{}: no such block device in {}", name, (roots.sysfs / "class" / "block").string()));
        return problems;
    }
    const fs::path dir = dev::resolve_path(link);
    const bool is_partition = fs::exists(dir / "partition", ec);
    const Node target = node_at(dir);
    const Node disk = is_partition ? node_at(dir.parent_path()) : target;

    // What must be idle: the target and its partitions (a disk), or the
    // target and its disk (a partition).
    std::vector<Node> nodes{target};
    if (!is_partition) {
        std::vector<fs::path> parts;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_directory() && fs::exists(e.path() / "partition")) parts.push_back(e.path());
        std::sort(parts.begin(), parts.end());
        for (const auto& p : parts) nodes.push_back(node_at(p));
    } else {
        nodes.push_back(disk);
    }
    // "loop0 is", "loop0p1's disk loop0 is", "loop0 holds loop0p1, which is"
    auto subject = [&](const Node& n) {
        if (n.name == target.name) return fmt::format("{} is", n.name);
        if (is_partition) return fmt::format("{}'s disk {} is", target.name, n.name);
        return fmt::format("{} holds {}, which is", target.name, n.name);
    };
    auto matches = [](const Node& n, const std::string& devno, const std::string& dname) {
        return (!devno.empty() && devno == n.devno) || (!dname.empty() && dname == n.name);
    };

    if (dev::read_attr(dir / "ro").value_or("0") == "1") add(target.name, fmt::format("{} is read-only", target.name));

    const bool live = roots.is_live();
    const auto mounts = read_mounts(roots);
    for (const auto& m : mounts) {
        const std::string dname = dev_name(m.source, live);
        const std::string devno = !m.devno.empty() ? m.devno : devno_of_path(m.source, live);
        for (const auto& n : nodes) {
            if (!matches(n, devno, dname)) continue;
            if (m.mountpoint == "/" && (!is_partition || n.name == target.name))
                add(n.name, fmt::format("{} holds the root filesystem (/ is on {})", target.name, n.name));
            add(n.name, fmt::format("{} mounted on {}", subject(n), m.mountpoint));
        }
    }

    // Swap: /proc/swaps "Filename Type Size Used Priority" after a header.
    const auto swaps = lines_of(roots.proc / "swaps");
    for (std::size_t i = 1; i < swaps.size(); ++i) {
        std::istringstream in(swaps[i]);
        std::string file;
        if (!(in >> file)) continue;
        file = unescape(file);
        const std::string dname = dev_name(file, live);
        const std::string devno = devno_of_path(file, live);
        for (const auto& n : nodes)
            if (matches(n, devno, dname)) add(n.name, fmt::format("{} in use as swap", subject(n)));
    }

    // Holders: device-mapper, md, bcache stacked on top.
    for (const auto& n : nodes) {
        std::vector<std::string> holders;
        for (const auto& e : fs::directory_iterator(n.dir / "holders", ec)) holders.push_back(e.path().filename().string());
        std::sort(holders.begin(), holders.end());
        for (const auto& h : holders) add(n.name, fmt::format("{} held by {}{}", subject(n), h, holder_kind(h)));
    }
    return problems;
}

} // namespace mmc::dev
