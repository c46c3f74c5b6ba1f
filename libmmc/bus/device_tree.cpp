#include "bus/device_tree.h"
#include "bus/parse_text.h"
#include "cli/size.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <fmt/format.h>
#include <unordered_map>

namespace mmc::bus {

bool DeviceTree::has(std::string_view flag) const { return std::find(flags.begin(), flags.end(), flag) != flags.end(); }

bool DeviceTree::sdhci_binding() const
{
    return std::any_of(compatible.begin(), compatible.end(), [](const std::string& c) {
        return c.find("sdhc") != std::string::npos || c.find("dwcmshc") != std::string::npos || c == "brcm,bcm2711-emmc2";
    });
}

bool DeviceTree::is_compatible(std::string_view c) const
{
    return std::find(compatible.begin(), compatible.end(), c) != compatible.end();
}

std::string DeviceTree::overlay_target() const
{
    if (!label.empty()) return "&" + label;
    if (node.size() > 1 && node[0] == '&') return node;
    if (!path.empty() && path[0] == '/' && path != "/") return "&{" + path + "}";
    return "&mmcN";
}

const std::vector<std::string_view>& device_tree_flags()
{
    static const std::vector<std::string_view> flags{
        "no-1-8-v",        "sd-uhs-sdr12",      "sd-uhs-sdr25",      "sd-uhs-sdr50",      "sd-uhs-sdr104",
        "sd-uhs-ddr50",    "mmc-ddr-3_3v",      "mmc-ddr-1_8v",      "mmc-ddr-1_2v",      "mmc-hs200-1_8v",
        "mmc-hs200-1_2v",  "mmc-hs400-1_8v",    "mmc-hs400-1_2v",    "mmc-hs400-enhanced-strobe",
        "cap-sd-highspeed", "cap-mmc-highspeed", "non-removable",    "no-sd",             "no-mmc",
        "no-sdio",         "cap-sdio-irq",      "broken-cd",         "disable-wp",        "full-pwr-cycle",
        "sdhci-caps-mask", // a value, read for its presence: it masks controller capabilities
    };
    return flags;
}

namespace {

// Limits no real tree approaches (a whole board's tree has a few thousand
// nodes, a node a few dozen properties); they keep hostile text linear.
constexpr std::size_t max_depth = 64;
constexpr std::size_t max_nodes = 100'000;
constexpr std::size_t max_props = 1'000;
// Every node keeps its full path, so a long name above many nodes was copied
// into each: 4 MiB of text naming one node above 2000 empty ones asked for
// 8 GiB. A whole board's paths come to well under 1 MiB.
constexpr std::size_t max_path_bytes = 16u << 20;

struct Node {
    std::string name;                 // "mmc@fe2c0000", "/", "&sdmmc"
    std::vector<std::string> labels;
    std::string path;
    std::vector<std::pair<std::string, std::string>> props; // name, raw value text ("" for a boolean)
    bool merged = false;              // an overlay reference folded into its target
    bool truncated = false;           // the text ends inside this node

    const std::string* prop(std::string_view n) const
    {
        for (const auto& p : props)
            if (p.first == n) return &p.second;
        return nullptr;
    }
    void set(std::string n, std::string v)
    {
        for (auto& p : props)
            if (p.first == n) {
                p.second = std::move(v);
                return;
            }
        props.emplace_back(std::move(n), std::move(v));
    }
    void erase(std::string_view n)
    {
        std::erase_if(props, [&](const auto& p) { return p.first == n; });
    }
};

// "lbl1: lbl2: name" -> labels and the rest.
std::string_view strip_labels(std::string_view s, std::vector<std::string>* labels)
{
    for (;;) {
        s = trim_space(s);
        std::size_t i = 0;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
        if (i == 0 || i >= s.size() || s[i] != ':') return s;
        if (labels) labels->emplace_back(s.substr(0, i));
        s.remove_prefix(i + 1);
    }
}

// A single cell "<0x8f0d180>" or "<150000000>"; nullopt for expressions,
// several cells or references.
std::optional<uint32_t> one_cell(std::string_view v)
{
    v = trim_space(v);
    if (v.size() < 2 || v.front() != '<' || v.back() != '>') return std::nullopt;
    v = trim_space(v.substr(1, v.size() - 2));
    int base = 10;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        base = 16;
        v.remove_prefix(2);
    }
    uint32_t out = 0;
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out, base);
    if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size()) return std::nullopt;
    return out;
}

// "\"a\", \"b\"" -> {"a", "b"}
std::vector<std::string> strings_of(std::string_view v)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] != '"') continue;
        std::string s;
        for (++i; i < v.size() && v[i] != '"'; ++i) {
            if (v[i] == '\\' && i + 1 < v.size()) {
                ++i;
                // dtc writes a string list of one property as "a\0b".
                if (v[i] == '0') {
                    out.push_back(std::move(s));
                    s.clear();
                    continue;
                }
            }
            s += v[i];
        }
        out.push_back(std::move(s));
    }
    return out;
}

// A phandle reference: "<&vcc_sdio>", "&vcc_sdio" -> label; "<0x5d>" -> number.
struct Ref {
    std::string label;
    std::optional<uint32_t> phandle;
};
Ref ref_of(std::string_view v)
{
    v = trim_space(v);
    if (!v.empty() && v.front() == '<' && v.back() == '>') v = trim_space(v.substr(1, v.size() - 2));
    if (!v.empty() && v.front() == '&') {
        v.remove_prefix(1);
        std::size_t e = 0;
        while (e < v.size() && (std::isalnum(static_cast<unsigned char>(v[e])) || v[e] == '_')) ++e;
        return {std::string(v.substr(0, e)), std::nullopt};
    }
    return {{}, one_cell(fmt::format("<{}>", v))};
}

// In a paste whose line breaks were lost (all on one line, as web archives
// and forums show it), where a "//" comment that started before `from` ends:
// before the first thing after a blank that begins a statement and is
// never prose - a directive ("/dts-v1/;"), the root or a node opening
// ("/ {", "&sdmmc {", "mmc@fe320000 {", "sdmmc: mmc@1 {"), a property with
// a value ("bus-width = <4>"), "};", another comment, a preprocessor line.
// A boolean property right after a comment cannot be told from prose: it
// stays in the comment.
std::size_t joined_comment_end(std::string_view text, std::size_t from)
{
    const auto token_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || std::strchr(",._+@#-", c) != nullptr; };
    const auto skip_blanks = [&](std::size_t i) {
        while (i < text.size() && is_space(text[i])) ++i;
        return i;
    };
    for (std::size_t at = from + 1; at < text.size(); ++at) {
        if (!is_space(text[at - 1]) || is_space(text[at])) continue;
        const auto rest = text.substr(at);
        for (std::string_view d : {"/dts-v1/", "/plugin/", "/memreserve/", "/delete-node/", "/delete-property/", "/include/", "//", "/*",
                                   "};", "#include", "#define", "#if", "#undef", "#pragma"})
            if (rest.substr(0, d.size()) == d) return at;
        std::size_t i = at;
        if (text[i] == '/' || text[i] == '&') ++i;
        const std::size_t word = i;
        while (i < text.size() && token_char(text[i])) ++i;
        if (i == word && text[at] != '/') continue;
        // "label: name {"
        if (i < text.size() && text[i] == ':' && text[at] != '&') {
            const std::size_t name = skip_blanks(i + 1);
            i = name;
            while (i < text.size() && token_char(text[i])) ++i;
            if (i == name) continue;
        }
        i = skip_blanks(i);
        if (i < text.size() && text[i] == '{') return at;
        if (i < text.size() && text[i] == '=' && text[at] != '/' && text[at] != '&') {
            i = skip_blanks(i + 1);
            if (i < text.size() && std::strchr("<\"[&", text[i]) != nullptr) return at;
        }
    }
    return text.size();
}

// Properties and directives, node by node. One pass over the text; the
// nesting is an explicit stack, so no input recurses.
struct Parser {
    std::vector<Node> nodes;
    std::string error;
    std::size_t path_bytes = 0; // of every node's path, against max_path_bytes

    void parse(std::string_view text)
    {
        std::vector<std::size_t> stack;
        std::string stmt;
        std::size_t i = 0;
        bool line_start = true, stmt_blank = true;
        // All on one line: a paste whose line breaks were lost.
        const bool joined = trim_space(text).find('\n') == std::string_view::npos;
        char inside = 0; // '>' or ']' while in cells or bytes
        const auto statement_end = [&](char how) {
            const auto s = trim_space(stmt);
            if (how == '{') {
                if (stack.size() >= max_depth) {
                    error = fmt::format("nested deeper than {} nodes; not a device tree", max_depth);
                    return false;
                }
                if (nodes.size() >= max_nodes) {
                    error = fmt::format("more than {} nodes; not a device tree of one board", max_nodes);
                    return false;
                }
                Node n;
                n.name = std::string(strip_labels(s, &n.labels));
                if (n.name.empty()) n.name = "?";
                const std::string parent = stack.empty() ? "" : nodes[stack.back()].path;
                n.path = n.name == "/" || n.name[0] == '&' ? n.name : (parent == "/" ? "" : parent) + "/" + n.name;
                path_bytes += n.path.size();
                if (path_bytes > max_path_bytes) {
                    error = fmt::format("node paths longer than {} in all; not a device tree of one board", cli::format_bytes(max_path_bytes));
                    return false;
                }
                nodes.push_back(std::move(n));
                stack.push_back(nodes.size() - 1);
            } else if (how == ';' && !s.empty() && !stack.empty()) {
                if (nodes[stack.back()].props.size() >= max_props) {
                    error = fmt::format("node {} has more than {} properties; not a device tree", nodes[stack.back()].name, max_props);
                    return false;
                }
                property(nodes[stack.back()], s);
            } else if (how == '}') {
                if (!stack.empty()) stack.pop_back();
            }
            stmt.clear();
            stmt_blank = true;
            return true;
        };
        while (i < text.size()) {
            const char c = text[i];
            if (c == '\n') {
                line_start = true;
                stmt += ' ';
                ++i;
                continue;
            }
            if (inside) {
                // Cells and bytes: no comments or strings; a brace or
                // semicolon ends a malformed value.
                if (c != ';' && c != '{' && c != '}') {
                    stmt += c;
                    if (c == inside) inside = 0;
                    ++i;
                    continue;
                }
                inside = 0;
            }
            if ((line_start || joined) && c == '#' && stmt_blank) {
                // Preprocessor lines ("#include", "#define"); "#address-cells" is a property.
                std::size_t e = i + 1;
                while (e < text.size() && std::isalpha(static_cast<unsigned char>(text[e]))) ++e;
                const auto word = text.substr(i + 1, e - i - 1);
                static constexpr std::array<std::string_view, 9> cpp{"include", "define", "if",    "ifdef", "ifndef",
                                                                     "else",    "endif",  "undef", "pragma"};
                if (std::find(cpp.begin(), cpp.end(), word) != cpp.end()) {
                    if (joined && word != "include") {
                        error = fmt::format("the paste has lost its line breaks and holds a #{} line: where it ends cannot be told; "
                                            "give the text with its line breaks (or dtc's output, which has no such lines)",
                                            word);
                        return;
                    }
                    if (joined) {
                        // "#include <dt-bindings/gpio/gpio.h>" or "#include \"board.dtsi\"": the file name ends it.
                        std::size_t open = e;
                        while (open < text.size() && is_space(text[open])) ++open;
                        const char close = open < text.size() && text[open] == '<' ? '>' : '"';
                        const auto end = open < text.size() ? text.find(close, open + 1) : std::string_view::npos;
                        i = end == std::string_view::npos ? text.size() : end + 1;
                        continue;
                    }
                    const auto nl = text.find('\n', i);
                    i = nl == std::string_view::npos ? text.size() : nl;
                    continue;
                }
            }
            if (!is_space(c)) line_start = false;
            if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
                const auto nl = joined ? std::string_view::npos : text.find('\n', i);
                i = joined ? joined_comment_end(text, i + 2) : nl == std::string_view::npos ? text.size() : nl;
                continue;
            }
            if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
                const auto end = text.find("*/", i + 2);
                i = end == std::string_view::npos ? text.size() : end + 2;
                stmt += ' ';
                continue;
            }
            if (c == '"') {
                // A string, escapes and all, goes into the statement whole.
                std::size_t j = i + 1;
                while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
                j = std::min(j, text.size() - 1);
                stmt.append(text.substr(i, j - i + 1));
                stmt_blank = false;
                i = j + 1;
                continue;
            }
            if (c == '{' || c == ';' || c == '}') {
                if (!statement_end(c)) return;
                ++i;
                continue;
            }
            if (c == '<') inside = '>';
            if (c == '[') inside = ']';
            if (!is_space(c)) stmt_blank = false;
            stmt += c;
            ++i;
        }
        // A pasted excerpt often breaks off: keep what was read, and say so.
        for (auto idx : stack) nodes[idx].truncated = true;
    }

    static void property(Node& n, std::string_view s)
    {
        if (s.rfind("/delete-property/", 0) == 0) {
            n.erase(trim_space(s.substr(17)));
            return;
        }
        if (s.front() == '/') return; // /dts-v1/, /plugin/, /delete-node/, /memreserve/
        const auto eq = s.find('=');
        const auto name = strip_labels(eq == std::string_view::npos ? s : s.substr(0, eq), nullptr);
        n.set(std::string(trim_space(name)), eq == std::string_view::npos ? std::string() : std::string(trim_space(s.substr(eq + 1))));
    }

    // "&label { }" folded into "label: node { }"; a node written twice, once.
    // Indexed by path and label so a tree of any size merges in one pass.
    void merge()
    {
        std::unordered_map<std::string, std::size_t> first_by_path, first_by_label;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            Node& n = nodes[i];
            std::optional<std::size_t> target;
            const auto find = [](const auto& map, const std::string& key) -> std::optional<std::size_t> {
                const auto it = map.find(key);
                if (it == map.end()) return std::nullopt;
                return it->second;
            };
            if (n.name.size() > 1 && n.name[0] == '&' && n.name[1] != '{')
                target = find(first_by_label, n.name.substr(1));
            else if (n.name.rfind("&{", 0) == 0 && n.name.back() == '}')
                target = find(first_by_path, n.name.substr(2, n.name.size() - 3));
            else
                target = find(first_by_path, n.path);
            if (!target) {
                if (n.name[0] != '&') {
                    first_by_path.emplace(n.path, i);
                    for (const auto& l : n.labels) first_by_label.emplace(l, i);
                }
                continue;
            }
            Node& t = nodes[*target];
            for (const auto& p : n.props) t.set(p.first, p.second);
            for (const auto& l : n.labels) {
                t.labels.push_back(l);
                first_by_label.emplace(l, *target);
            }
            n.merged = true;
        }
    }

    const Node* by_phandle(uint32_t ph) const
    {
        for (const auto& n : nodes) {
            if (n.merged) continue;
            for (const char* key : {"phandle", "linux,phandle"})
                if (const auto* v = n.prop(key); v && one_cell(*v) == ph) return &n;
        }
        return nullptr;
    }
};

bool looks_like_host_compatible(std::string_view c)
{
    if (c.find("pwrseq") != std::string_view::npos || c.find("regulator") != std::string_view::npos) return false;
    for (const char* part : {"mmc", "sdhci", "mshc", "sdhc", "msdc", ",mci", "-mci", "sdio"})
        if (c.find(part) != std::string_view::npos) return true;
    return false;
}

bool is_host_shaped(const Node& n)
{
    for (const auto& f : device_tree_flags())
        if (f != "full-pwr-cycle" && n.prop(f)) return true;
    for (const char* p : {"vqmmc-supply", "max-sd-hs-hz", "mmc-ddr-1_8v", "cd-gpios"})
        if (n.prop(p)) return true;
    if (const auto* c = n.prop("compatible"))
        for (const auto& s : strings_of(*c))
            if (looks_like_host_compatible(s)) return true;
    // By name: "mmc@fe320000", "sdhci@7e300000", an overlay's "&sdmmc".
    std::string_view base = n.name;
    if (base.size() > 1 && base[0] == '&' && base[1] != '{') return base.find("mmc") != std::string_view::npos ||
                                                                      base.find("sdhc") != std::string_view::npos ||
                                                                      base.find("sdio") != std::string_view::npos;
    base = base.substr(0, base.find('@'));
    for (const char* name : {"mmc", "sdhci", "sdmmc", "emmc", "sdio", "dwmmc", "mshc", "sd"})
        if (base == name) return true;
    return false;
}

bool is_host(const Node& n) { return !n.merged && is_host_shaped(n); }

// True when `path` lies inside a node in `hosts` ("/mmc@1/wifi@1" inside
// "/mmc@1"): the child nodes of a host are the cards and SDIO functions on
// its bus (mmc-card.yaml, the Wi-Fi chip's binding), never a second host.
bool inside_a_host(const std::string& path, const std::vector<std::string>& hosts)
{
    for (const auto& h : hosts)
        if (path.size() > h.size() + 1 && path.compare(0, h.size(), h) == 0 && path[h.size()] == '/') return true;
    return false;
}

bool matches(const Node& n, std::string_view select)
{
    if (n.name == select || n.path == select) return true;
    if (std::find(n.labels.begin(), n.labels.end(), select) != n.labels.end()) return true;
    if (n.name.size() > 1 && n.name[0] == '&' && std::string_view(n.name).substr(1) == select) return true;
    const auto at = n.name.find('@');
    if (at != std::string::npos && std::string_view(n.name).substr(at + 1) == select) return true;
    return n.path.size() > select.size() && n.path.compare(n.path.size() - select.size(), select.size(), select) == 0 &&
           n.path[n.path.size() - select.size() - 1] == '/';
}

DeviceTree to_device_tree(const Node& n, const Parser& p)
{
    DeviceTree dt;
    dt.node = n.name;
    if (n.truncated) dt.notes.push_back("the text ends inside this node (no closing brace): later properties may be missing");
    if (!n.labels.empty()) dt.label = n.labels.front();
    else if (n.name.size() > 1 && n.name[0] == '&' && n.name[1] != '{') dt.label = n.name.substr(1);
    if (n.name[0] != '&') dt.path = n.path;
    if (const auto* v = n.prop("compatible")) dt.compatible = strings_of(*v);
    if (const auto* v = n.prop("status")) {
        const auto s = strings_of(*v);
        if (!s.empty()) dt.status = s.front();
    }
    const auto cell = [&](const char* name, std::optional<uint32_t>& out) {
        if (const auto* v = n.prop(name)) {
            out = one_cell(*v);
            if (!out) dt.notes.push_back(fmt::format("{} = {} is not a plain number; not used", name, v->substr(0, 60)));
        }
    };
    cell("max-frequency", dt.max_frequency);
    cell("max-sd-hs-hz", dt.max_sd_hs_hz);
    cell("brcm,overclock-50", dt.overclock_50_mhz);
    cell("bus-width", dt.bus_width);
    for (const auto& f : device_tree_flags())
        if (n.prop(f)) dt.flags.emplace_back(f);
    if (const auto* v = n.prop("vqmmc-supply")) {
        dt.has_vqmmc_supply = true;
        const Ref ref = ref_of(*v);
        const Node* reg = nullptr;
        if (!ref.label.empty()) {
            for (const auto& m : p.nodes)
                if (!m.merged && std::find(m.labels.begin(), m.labels.end(), ref.label) != m.labels.end()) reg = &m;
        } else if (ref.phandle) {
            reg = p.by_phandle(*ref.phandle);
        }
        if (reg) {
            Regulator r;
            r.node = ref.label.empty() ? reg->name : ref.label;
            if (const auto* name = reg->prop("regulator-name"); name && !strings_of(*name).empty()) r.name = strings_of(*name).front();
            if (const auto* mn = reg->prop("regulator-min-microvolt")) r.min_microvolt = one_cell(*mn);
            if (const auto* mx = reg->prop("regulator-max-microvolt")) r.max_microvolt = one_cell(*mx);
            dt.vqmmc = r;
        } else {
            dt.notes.push_back(fmt::format("vqmmc-supply = {}: the regulator is not in this text", v->substr(0, 60)));
        }
    }
    return dt;
}

} // namespace

DtsParse parse_dts(std::string_view text, std::string_view select)
{
    DtsParse out;
    Parser p;
    p.parse(text);
    if (!p.error.empty()) {
        out.error = p.error;
        return out;
    }
    p.merge();
    // Every host-shaped node's path (an overlay reference folded into its
    // target too: its children were written inside it).
    std::vector<std::string> host_paths;
    for (const auto& n : p.nodes)
        if (is_host_shaped(n)) host_paths.push_back(n.path);
    std::vector<const Node*> hosts;
    for (const auto& n : p.nodes)
        if (is_host(n) && !inside_a_host(n.path, host_paths)) {
            hosts.push_back(&n);
            out.candidates.push_back(n.name);
        }
    const Node* chosen = nullptr;
    if (!select.empty()) {
        for (const auto* n : hosts)
            if (matches(*n, select)) {
                if (chosen) {
                    out.error = fmt::format("'{}' names several MMC host nodes; give the node's full name", select);
                    return out;
                }
                chosen = n;
            }
        if (!chosen) {
            out.error = hosts.empty() ? "no MMC host node in the text"
                                      : fmt::format("no MMC host node '{}' (there are: {})", select, fmt::join(out.candidates, ", "));
            return out;
        }
    } else {
        std::vector<const Node*> enabled;
        for (const auto* n : hosts) {
            const auto* st = n->prop("status");
            const auto s = st ? strings_of(*st) : std::vector<std::string>{};
            if (s.empty() || s.front() == "okay" || s.front() == "ok") enabled.push_back(n);
        }
        const auto& pool = enabled.empty() ? hosts : enabled;
        if (pool.empty()) {
            out.error = "no MMC host node in the text (expected a node with a compatible such as \"...-dw-mshc\" or "
                        "\"...sdhci...\", or properties such as bus-width with cap-sd-highspeed)";
            return out;
        }
        if (pool.size() > 1) {
            std::vector<std::string> names;
            for (const auto* n : pool) names.push_back(n->name);
            out.error = fmt::format("several MMC host nodes ({}); pick one", fmt::join(names, ", "));
            return out;
        }
        chosen = pool.front();
    }
    out.host = to_device_tree(*chosen, p);
    return out;
}

} // namespace mmc::bus
