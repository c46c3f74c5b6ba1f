#include "dev/bus_evidence.h"
#include "dev/system.h"
#include "regs/register_facts.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

namespace mmc::dev {

namespace {

std::optional<uint32_t> hex_attr(const fs::path& path)
{
    auto text = read_attr(path);
    if (!text) return std::nullopt;
    std::string s = *text;
    if (s.rfind("0x", 0) == 0) s.erase(0, 2);
    uint32_t v = 0;
    if (std::from_chars(s.data(), s.data() + s.size(), v, 16).ec != std::errc()) return std::nullopt;
    return v;
}

// Device-tree cells are big-endian 32-bit numbers.
std::optional<uint32_t> dt_u32(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) return std::nullopt;
    return uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | b[3];
}

void add_card_capabilities(bus::Evidence& e, const regs::CardRegisters& regs)
{
    if (const auto ocr = regs::ocr_facts(regs); ocr && ocr->busy)
        e.s18a = ocr->s18a; // only a raw R3 OCR carries S18A
    if (const auto ssr = regs::ssr_facts(regs)) e.uhs_speed_grade = ssr->uhs_speed_grade.code;
    if (const auto sw = regs::switch_facts(regs)) {
        // Group 1 support bits: 0 SDR12, 1 SDR25, 2 SDR50, 3 SDR104, 4 DDR50.
        static constexpr bus::Mode modes[] = {bus::Mode::sdr12, bus::Mode::sdr25, bus::Mode::sdr50, bus::Mode::sdr104,
                                              bus::Mode::ddr50};
        for (int bit = 0; bit < 5; ++bit)
            if (sw->fun_grp1_support >> bit & 1) e.sd_bus_speeds_supported.push_back(modes[bit]);
    }
    if (const auto ext = regs::ext_csd_facts(regs)) {
        e.device_type = ext->device_type;
        e.strobe_support = ext->strobe_support;
    }
}

} // namespace

namespace {

// A property file is small; a file bigger than this is not a property.
constexpr std::size_t max_property_bytes = 64 * 1024;
// Nodes searched for the vqmmc regulator's phandle; a board's tree has a few thousand.
constexpr std::size_t max_nodes_searched = 50'000;

std::optional<std::string> property_bytes(const fs::path& path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    const auto size = fs::file_size(path, ec);
    if (ec || size > max_property_bytes) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) return std::nullopt;
    return bytes;
}

// "a\0b\0" -> {"a", "b"}
std::vector<std::string> string_list(const std::string& bytes)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        const auto end = bytes.find('\0', pos);
        const auto s = bytes.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (!s.empty()) out.push_back(s);
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return out;
}

// The root of the tree a node directory sits in: the highest ancestor that
// still looks like a device-tree node (it has "#address-cells", "name" or
// "compatible"). A copied single node is its own root.
fs::path tree_root(const fs::path& node)
{
    fs::path root = node;
    std::error_code ec;
    for (fs::path p = node.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
        if (!fs::exists(p / "#address-cells", ec) && !fs::exists(p / "name", ec) && !fs::exists(p / "compatible", ec)) break;
        root = p;
    }
    return root;
}

// The node whose phandle (or linux,phandle) is `phandle`, breadth first.
std::optional<fs::path> node_with_phandle(const fs::path& root, uint32_t phandle)
{
    std::vector<fs::path> queue{root};
    std::size_t seen = 0;
    std::error_code ec;
    for (std::size_t i = 0; i < queue.size() && seen < max_nodes_searched; ++i, ++seen) {
        for (const char* key : {"phandle", "linux,phandle"})
            if (fs::exists(queue[i] / key, ec) && dt_u32(queue[i] / key) == phandle) return queue[i];
        for (fs::directory_iterator it(queue[i], ec), end; !ec && it != end; it.increment(ec))
            if (it->is_directory(ec) && !it->is_symlink(ec)) queue.push_back(it->path());
    }
    return std::nullopt;
}

// The node's label from the tree's __symbols__, "" when it has none: a
// tree built with dtc -@ (the Raspberry Pi firmware's, most vendors')
// lists every label there as a property whose value is the node's path,
// which is what an overlay's target = <&label> is resolved against.
// Several labels for one node: the first by name, so the answer is stable.
std::string symbol_label(const fs::path& root, const std::string& path)
{
    std::error_code ec;
    std::vector<std::string> labels;
    std::size_t seen = 0;
    for (fs::directory_iterator it(root / "__symbols__", ec), end; !ec && it != end && seen < max_nodes_searched; it.increment(ec), ++seen) {
        const std::string name = it->path().filename().string();
        if (name == "name" || name == "phandle") continue;
        if (const auto bytes = property_bytes(it->path()); bytes && string_list(*bytes) == std::vector<std::string>{path})
            labels.push_back(name);
    }
    std::sort(labels.begin(), labels.end());
    return labels.empty() ? std::string() : labels.front();
}

} // namespace

bus::DeviceTree read_device_tree_dir(const fs::path& node_dir, const std::string& shown_as)
{
    std::error_code ec;
    const fs::path node = fs::canonical(node_dir, ec);
    if (ec || !fs::is_directory(node, ec))
        throw std::runtime_error(fmt::format("{}: not a device-tree node directory", shown_as));
    bus::DeviceTree dt;
    dt.source = shown_as;
    dt.node = node.filename().string();
    // A captured sysfs tree may hold the node as a plain "of_node" directory.
    if (auto name = property_bytes(node / "name"); dt.node == "of_node" && name && !string_list(*name).empty())
        dt.node = string_list(*name).front();
    const fs::path root = tree_root(node);
    if (root != node) {
        dt.path = "/" + fs::relative(node, root, ec).string();
        dt.label = symbol_label(root, dt.path);
        dt.label_in_symbols = !dt.label.empty();
    }
    if (auto c = property_bytes(node / "compatible")) dt.compatible = string_list(*c);
    if (auto st = property_bytes(node / "status"); st && !string_list(*st).empty()) dt.status = string_list(*st).front();
    dt.max_frequency = dt_u32(node / "max-frequency");
    dt.max_sd_hs_hz = dt_u32(node / "max-sd-hs-hz");
    dt.overclock_50_mhz = dt_u32(node / "brcm,overclock-50");
    dt.bus_width = dt_u32(node / "bus-width");
    for (const auto& f : bus::device_tree_flags())
        if (fs::exists(node / std::string(f), ec)) dt.flags.emplace_back(f);
    if (fs::exists(node / "vqmmc-supply", ec)) {
        dt.has_vqmmc_supply = true;
        const auto phandle = dt_u32(node / "vqmmc-supply");
        const auto reg = phandle ? node_with_phandle(root, *phandle) : std::nullopt;
        if (reg) {
            bus::Regulator r;
            r.node = reg->filename().string();
            if (auto n = property_bytes(*reg / "regulator-name"); n && !string_list(*n).empty()) r.name = string_list(*n).front();
            r.min_microvolt = dt_u32(*reg / "regulator-min-microvolt");
            r.max_microvolt = dt_u32(*reg / "regulator-max-microvolt");
            dt.vqmmc = r;
        } else {
            dt.notes.push_back(root == node ? "vqmmc-supply: the regulator is outside this copied node"
                                            : "vqmmc-supply: no node with its phandle in the tree");
        }
    }
    return dt;
}

std::optional<bus::DeviceTree> read_device_tree(const Controller& controller)
{
    const fs::path node = controller.syspath / "of_node";
    std::error_code ec;
    if (!fs::exists(node, ec)) return std::nullopt;
    const fs::path real = fs::canonical(node, ec);
    return read_device_tree_dir(node, ec ? node.string() : real.string());
}

bus::Evidence gather_bus_evidence(const Host& host, const Card* card, const regs::CardRegisters* registers,
                                  const SysRoots& roots, std::string kernel_version)
{
    bus::Evidence e;
    e.host = host.name;
    if (host.ios) e.ios = *host.ios;
    e.caps = hex_attr(roots.debugfs / host.name / "caps");
    e.caps2 = hex_attr(roots.debugfs / host.name / "caps2");
    if (kernel_version.empty() && roots.is_live()) {
        kernel_version = kernel_info().release;
    }
    e.kernel_version = kernel_version;
    e.controller = host.controller.describe();
    e.dt = read_device_tree(host.controller);
    // A host with a parent device but no of_node has no device tree (PCI,
    // ACPI): its caps are the controller's alone.
    std::error_code ec;
    e.dt_absent = !e.dt && fs::exists(host.controller.syspath, ec) && !host.controller.syspath.empty();
    if (roots.is_live()) {
        const std::string text = read_kernel_log().value_or("");
        if (!text.empty()) {
            std::vector<std::string> names{host.name};
            if (!host.controller.syspath.empty()) names.push_back(host.controller.syspath.filename().string());
            e.log = bus::parse_kernel_log(text, names);
            e.kernel_message = e.log->card_message;
        }
        // The running kernel's command line: an sdhci debug quirk there
        // acts on every SDHCI host.
        if (const auto line = read_attr("/proc/cmdline")) {
            e.cmdline = bus::parse_kernel_cmdline(*line);
            e.cmdline->source = "/proc/cmdline";
        }
    }
    if (card) {
        e.card = family_of(card->type);
        e.sdio = card->type == CardType::sdio;
    }
    if (registers) add_card_capabilities(e, *registers);
    return e;
}

} // namespace mmc::dev
