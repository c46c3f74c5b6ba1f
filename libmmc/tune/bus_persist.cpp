// The persistent forms of a bus mode. The device-tree properties of each
// mode are bus/mode_caps.h's table (the same the doctor reads); the
// Raspberry Pi lines are those its firmware's overlay README documents
// (sd_overclock: "Clock (in MHz) to use when the MMC framework requests
// 50MHz", bcm2835-sdhost only; dtoverlay=NAME loads overlays/NAME.dtbo);
// the SDHCI quirk bits are bus/kernel_cmdline.h's. Where the command line
// lives is the boot firmware's: the Raspberry Pi firmware reads
// cmdline.txt on the boot partition (its config.txt documentation,
// "cmdline"); elsewhere the boot loader holds it.
#include "tune/bus_persist.h"

#include "bus/mode_caps.h"
#include "cli/size.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using bus::Mode;

using bus::quirk2_broken_ddr50;
using bus::quirk2_broken_hs200;
using bus::quirk2_no_1_8_v;

long mode_rank(regs::CardFamily f, Mode m)
{
    const auto& modes = bus::family_modes(f);
    return std::find(modes.begin(), modes.end(), m) - modes.begin();
}

// The property that offers a mode, at 1.8 V where there is a choice.
std::vector<std::string> flags_of(regs::CardFamily f, Mode m)
{
    std::vector<std::string> out;
    for (const auto& row : bus::mode_flags(f))
        if (row.mode == m && !row.cap.empty() && row.dt_flag.find("1_2v") == std::string_view::npos &&
            row.dt_flag.find("3_3v") == std::string_view::npos)
            out.emplace_back(row.dt_flag);
    if (m == Mode::hs400es) out.insert(out.begin(), "mmc-hs400-1_8v");
    return out;
}

// The node's properties that offer a mode faster than `m` (a step-down
// must delete them) and those that forbid `m` (no-1-8-v for a 1.8 V mode).
std::vector<std::string> in_the_way(const bus::DeviceTree& dt, regs::CardFamily f, Mode m)
{
    std::vector<std::string> out;
    for (const auto& row : bus::mode_flags(f))
        if (mode_rank(f, row.mode) > mode_rank(f, m) && dt.has(row.dt_flag) &&
            std::find(out.begin(), out.end(), row.dt_flag) == out.end())
            out.emplace_back(row.dt_flag);
    if (bus::low_voltage_mode(m) && dt.has("no-1-8-v")) out.emplace_back("no-1-8-v");
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep)
{
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : std::string(sep)) + i;
    return out;
}

// What the node needs for the target: properties to set (an overlay can)
// and properties to delete (only an edit of the board's .dts can; a
// delete whose binding has a neutral value is also set to it in the
// overlay).
struct NodeEdit {
    std::vector<std::string> set;    // "sd-uhs-sdr104;", "max-frequency = <100000000>;"
    std::vector<std::string> remove; // property names
    std::vector<std::string> set_in_overlay_only; // "sdhci-caps-mask = <0x0 0x0>;": a delete's neutral value
};

NodeEdit node_edit(const bus::DeviceTree& dt, const PersistTarget& t)
{
    NodeEdit n;
    const bool step_down = mode_rank(t.family, t.mode) < mode_rank(t.family, t.mode_in_use);
    // The mode in use needs no property to offer it: it runs already.
    if (!step_down && t.mode != t.mode_in_use)
        for (const auto& f : flags_of(t.family, t.mode))
            if (!dt.has(f)) n.set.push_back(f + ";");
    n.remove = in_the_way(dt, t.family, t.mode);
    // Stepping down from a 1.8 V mode to one that is not: no-1-8-v says it
    // (it is a property to add), where the controller's own caps would
    // otherwise offer the faster modes again.
    if (step_down && bus::low_voltage_mode(t.mode_in_use) && !bus::low_voltage_mode(t.mode) && !dt.has("no-1-8-v")) {
        n.set.push_back("no-1-8-v;");
        std::erase_if(n.remove, [&](const std::string& p) {
            for (const auto& row : bus::mode_flags(t.family))
                if (row.dt_flag == p && bus::low_voltage_mode(row.mode)) return true;
            return false;
        });
    }
    if (t.clock_hz) n.set.push_back(fmt::format("max-frequency = <{}>;", *t.clock_hz));
    for (const auto& c : t.changes) {
        if (c.value) {
            n.set.push_back(fmt::format("{} = <{}>;", bus::to_string(c.property), *c.value));
        } else if (const std::string name(bus::to_string(c.property)); std::find(n.remove.begin(), n.remove.end(), name) == n.remove.end()) {
            n.remove.push_back(name);
            if (!c.neutral.empty()) n.set_in_overlay_only.push_back(fmt::format("{} = {};", name, c.neutral));
        }
    }
    return n;
}

// A node path that names a real place in a tree: more than the root's
// child a pasted fragment gets by being written at the top.
bool full_path(const bus::DeviceTree& dt) { return dt.path.size() > 1 && dt.path.find('/', 1) != std::string::npos; }

std::string path_words(const bus::DeviceTree& dt, const std::string& host)
{
    return full_path(dt) ? fmt::format("target-path = \"{}\"", dt.path)
                         : fmt::format("target-path = \"<{}'s node path: ls /proc/device-tree>\"", host.empty() ? "the host" : host);
}

PersistentForm dt_overlay(const bus::Evidence& e, const NodeEdit& n)
{
    const auto& dt = *e.dt;
    PersistentForm f;
    f.kind = "dt-overlay";
    // By label where the tree has one: the fragment then applies wherever
    // the board puts the node, as long as the base tree carries its
    // symbols (built with dtc -@).
    std::string target;
    if (!dt.label.empty()) {
        target = fmt::format("target = <&{}>;", dt.label);
        // A label read from the running tree's __symbols__ resolves there;
        // one read from a source file may not be in the tree that boots.
        if (!dt.label_in_symbols)
            f.cannot_express = fmt::format("target = <&{}> needs a base tree built with its symbols (dtc -@, as the Raspberry Pi "
                                       "firmware's and most vendor trees are); on one without __symbols__ (Debian's), use {} instead. ",
                                       dt.label, path_words(dt, e.host));
    } else if (dt.path.size() > 1) {
        target = fmt::format("target-path = \"{}\";", dt.path);
    } else {
        target = fmt::format("target-path = \"/{}\";", dt.node.empty() || dt.node[0] == '&' ? "PATH-OF-" + e.host : dt.node);
        f.cannot_express = "the node's path in the running tree is not known: put the host's path (ls /proc/device-tree) in target-path. ";
    }
    std::string body;
    for (const auto& p : n.set) body += "\t\t\t" + p + "\n";
    for (const auto& p : n.set_in_overlay_only) body += "\t\t\t" + p + "\n";
    f.text = fmt::format("/dts-v1/;\n/plugin/;\n\n/ {{\n\tfragment@0 {{\n\t\t{}\n\t\t__overlay__ {{\n{}\t\t}};\n\t}};\n}};\n", target, body);
    f.scope = fmt::format("the host's node {} only; compile with dtc -@ -I dts -O dtb and load it at boot (the boot loader's "
                          "overlay list)",
                          dt.label.empty() && !dt.path.empty() ? dt.path : dt.overlay_target());
    std::vector<std::string> cannot;
    for (const auto& p : n.remove)
        if (std::none_of(n.set_in_overlay_only.begin(), n.set_in_overlay_only.end(),
                         [&](const std::string& s) { return s.rfind(p + " ", 0) == 0; }))
            cannot.push_back(p);
    if (!cannot.empty())
        f.cannot_express += fmt::format("an overlay cannot delete a property: remove {} from the host's node in the board's .dts "
                                        "(the dts-edit below) and rebuild its .dtb",
                                        join(cannot, ", "));
    while (!f.cannot_express.empty() && f.cannot_express.back() == ' ') f.cannot_express.pop_back();
    return f;
}

// The same change as an edit of the board's .dts: appended after the
// node's own definition, dtc merges it and /delete-property/ removes what
// an overlay cannot.
PersistentForm dts_edit(const bus::Evidence& e, const NodeEdit& n)
{
    const auto& dt = *e.dt;
    PersistentForm f;
    f.kind = "dts-edit";
    const std::string ref = !dt.label.empty() ? "&" + dt.label : dt.path.size() > 1 ? "&{" + dt.path + "}" : "&{/PATH-OF-" + e.host + "}";
    std::string body;
    for (const auto& p : n.remove) body += "\t/delete-property/ " + p + ";\n";
    for (const auto& p : n.set) body += "\t" + p + "\n";
    f.text = fmt::format("{} {{\n{}}};\n", ref, body);
    f.scope = fmt::format("the board's .dts: append it (after the node's own definition) and rebuild the .dtb with dtc; the "
                          "way to delete {}, which an overlay applied at boot cannot",
                          join(n.remove, ", "));
    return f;
}

std::optional<PersistentForm> raspberry_pi(const bus::Evidence& e, const PersistTarget& t)
{
    const auto& dt = *e.dt;
    PersistentForm f;
    f.kind = "config.txt";
    if (dt.is_compatible("brcm,bcm2835-sdhost")) {
        if (!t.clock_hz || t.mode != Mode::hs) {
            f.text = fmt::format("dtoverlay=mmckit-{}\n", e.host.empty() ? "mmc" : e.host);
            f.scope = "loads overlays/mmckit-" + (e.host.empty() ? std::string("mmc") : e.host) +
                      ".dtbo (the dt-overlay above, compiled) at boot";
            f.cannot_express = "the firmware's documented sd_overclock sets only the clock used for a 50 MHz (high speed) "
                               "request; a mode change needs the overlay";
            return f;
        }
        f.text = fmt::format("dtparam=sd_overclock={}\n", *t.clock_hz / 1'000'000);
        // Measured in the Pi lab (tests/lab/rpi-bus-overlay.sh): with
        // brcm,overclock-50 set, mainline's sdhost driver stays at 50 MHz.
        f.scope = "bcm2835-sdhost, the clock it uses when the MMC core asks for 50 MHz; the driver lowers it by itself on "
                  "errors (\"reducing overclock due to errors\"). Only the Raspberry Pi kernel's driver reads it "
                  "(brcm,overclock-50): a mainline kernel, such as Debian's, ignores it";
        return f;
    }
    f.text = fmt::format("dtoverlay=mmckit-{}\n", e.host.empty() ? "mmc" : e.host);
    f.scope = "loads overlays/mmckit-" + (e.host.empty() ? std::string("mmc") : e.host) +
              ".dtbo (the dt-overlay above, compiled) at boot; the firmware documents no dtparam for this host's modes";
    return f;
}

// Where this board's boot firmware keeps the kernel command line, as a
// sentence: it is edited by hand, never by this tool.
std::string cmdline_home(const bus::Evidence& e)
{
    if (e.dt && is_raspberry_pi_host(*e.dt))
        return "the Raspberry Pi firmware reads it from cmdline.txt on the boot partition (/boot/firmware/cmdline.txt on "
               "Raspberry Pi OS bookworm and later, /boot/cmdline.txt before): one line, edited in place; reboot after";
    return "the boot loader holds it: GRUB_CMDLINE_LINUX in /etc/default/grub (then update-grub), the append line of "
           "extlinux/extlinux.conf (U-Boot's distro boot), extraargs in /boot/armbianEnv.txt on Armbian, or U-Boot's "
           "bootargs; reboot after";
}

PersistentForm kernel_cmdline(const bus::Evidence& e, const bus::CmdlineChange& c)
{
    PersistentForm f;
    f.kind = "kernel-cmdline";
    f.text = c.value ? fmt::format("replace {} with {}=0x{:x}\n", c.written, c.option, *c.value) : fmt::format("remove {}\n", c.written);
    f.scope = fmt::format("the kernel command line (/proc/cmdline shows the running one); {}", cmdline_home(e));
    f.cannot_express = "the option is global: it acts on every SDHCI host of the machine, and a non-zero value replaces "
                       "each SDHCI driver's own quirks";
    return f;
}

std::optional<PersistentForm> module_option(const bus::Evidence& e, const PersistTarget& t, const std::string& host)
{
    PersistentForm f;
    f.kind = "module-option";
    const bool step_down = mode_rank(t.family, t.mode) < mode_rank(t.family, t.mode_in_use);
    uint32_t quirks = 0;
    std::vector<std::string> missing;
    if (step_down) {
        if (bus::low_voltage_mode(t.mode_in_use) && !bus::low_voltage_mode(t.mode))
            quirks = quirk2_no_1_8_v;
        else if (t.mode_in_use == Mode::ddr50 && t.mode == Mode::sdr50)
            quirks = quirk2_broken_ddr50;
        else if (t.mode_in_use == Mode::hs200 && !bus::low_voltage_mode(t.mode))
            quirks = quirk2_broken_hs200;
        else
            missing.push_back(fmt::format("no SDHCI quirk steps {} down to {} alone", bus::to_string(t.mode_in_use), bus::to_string(t.mode)));
    } else if (t.mode != t.mode_in_use) {
        missing.push_back(fmt::format("no module option raises a PCI controller to {}: its modes are the controller's own", bus::to_string(t.mode)));
    }
    if (t.clock_hz) missing.push_back("no module option caps the clock: only a debugfs clock write until reboot (a boot script)");
    f.cannot_express = join(missing, "; ");
    if (!quirks) {
        if (f.cannot_express.empty()) return std::nullopt;
        f.scope = host + " only while it lasts";
        return f;
    }
    f.text = fmt::format("sdhci.debug_quirks2=0x{:x}    (kernel command line, sdhci built in)\n"
                         "options sdhci debug_quirks2=0x{:x}    (/etc/modprobe.d/mmckit.conf, sdhci a module)\n",
                         quirks, quirks);
    f.scope = fmt::format("global to every SDHCI host on this machine, not only {}; the command line: {}", host.empty() ? "this one" : host,
                          cmdline_home(e));
    return f;
}

} // namespace

bool is_raspberry_pi_host(const bus::DeviceTree& dt)
{
    return dt.is_compatible("brcm,bcm2835-sdhost") || dt.is_compatible("brcm,bcm2835-sdhci") || dt.is_compatible("brcm,bcm2711-emmc2");
}

std::vector<PersistentForm> persistent_forms(const bus::Evidence& e, const PersistTarget& t)
{
    std::vector<PersistentForm> out;
    if (t.mode == t.mode_in_use && !t.clock_hz) return out;
    if (e.dt) {
        // Nothing to set and nothing in the way: the node offers the mode
        // already (the card or tuning stops it), and no overlay changes that.
        const NodeEdit n = node_edit(*e.dt, t);
        if (n.set.empty() && n.remove.empty()) return out;
        const bool overlay = !n.set.empty() || !n.set_in_overlay_only.empty();
        if (overlay) out.push_back(dt_overlay(e, n));
        if (!n.remove.empty()) out.push_back(dts_edit(e, n));
        if (is_raspberry_pi_host(*e.dt) && overlay)
            if (auto f = raspberry_pi(e, t)) out.push_back(*f);
    } else if (e.dt_absent || e.pci_id) {
        if (auto f = module_option(e, t, e.host)) out.push_back(*f);
    }
    return out;
}


namespace {

std::string mode_and_clock(Mode m, std::optional<uint64_t> clock)
{
    return fmt::format("{}{}", bus::to_string(m), clock ? " at " + cli::format_hz(static_cast<double>(*clock)) : "");
}

// The doctor's first limit finding, for a sentence on why nothing is kept.
std::string first_limit(const bus::Diagnosis& d)
{
    for (const auto& f : d.findings)
        if (f.severity == bus::Severity::limit) return f.text;
    return {};
}

// Without trials: what the evidence alone supports, or why nothing.
Persistent untested(const bus::Evidence& e, const bus::Diagnosis& d, const BusPlan& p, std::string_view host)
{
    Persistent r;
    if (!d.cmdline_changes.empty() && d.limit == bus::Limit::board) {
        // A command-line quirk holds the host back: its removal is the
        // form, and nothing in the device tree needs to change for it.
        const auto& c = d.cmdline_changes.front();
        r.forms.push_back(kernel_cmdline(e, c));
        r.for_what = fmt::format("{} once {} is {} (untested on this card: trial it with --apply after the reboot)",
                                 bus::to_string(c.frees.front()), c.written, c.value ? "changed" : "gone");
        return r;
    }
    if (!e.dt) {
        r.none = e.dt_absent || e.pci_id
                     ? "a host with no device tree keeps a mode only by the sdhci module option, global to every SDHCI host: "
                       "given only for a mode trialled clean (--apply)"
                     : fmt::format("no device tree for {} (--dt FILE, or the live tree): a mode is kept by a change to the host's "
                                   "device-tree node, and without the node there is no telling what to change",
                                   host);
        return r;
    }
    // The kernel log shows signal errors at the mode in use: the plan's
    // first lower clock for it is what the evidence supports, untested.
    if (!p.signal_errors.empty() && d.limit != bus::Limit::board) {
        const auto lower = std::find_if(p.steps.begin(), p.steps.end(),
                                        [&](const BusStep& s) { return s.mode == *p.start_mode && s.clock_hz; });
        if (lower != p.steps.end()) {
            PersistTarget t;
            t.family = *p.family;
            t.mode = t.mode_in_use = *p.start_mode;
            t.clock_hz = lower->clock_hz;
            r.forms = persistent_forms(e, t);
            if (!r.forms.empty()) {
                r.for_what = mode_and_clock(t.mode, t.clock_hz) +
                             fmt::format(" (untested on this card: the kernel log shows {}; trial it with --apply first)",
                                         p.signal_errors.size() == 1 ? "a signal error" : "signal errors");
                return r;
            }
        }
    }
    if (d.limit != bus::Limit::board) {
        const std::string limit = first_limit(d);
        r.none = d.limit == bus::Limit::none
                     ? "the bus runs its best already: nothing to keep"
                     : fmt::format("the doctor names the {} as the limit{}, not the board's device tree: no change to it is "
                                   "supported by the evidence",
                                   bus::to_string(d.limit), limit.empty() ? "" : " (" + limit + ")");
        return r;
    }
    PersistTarget t;
    t.family = *p.family;
    t.mode_in_use = *p.start_mode;
    t.mode = t.mode_in_use;
    for (const auto& c : d.board_changes) {
        if (c.property == bus::DtProperty::max_frequency && c.value)
            t.clock_hz = c.value;
        else
            t.changes.push_back(c);
    }
    // The fastest mode the doctor allows above the one in use (the plan
    // lists no mode it rules out, and none trialled past the table).
    const auto above = std::find_if(p.steps.begin(), p.steps.end(),
                                    [](const BusStep& s) { return s.above_in_use && !s.clock_hz && !s.past_table; });
    if (above != p.steps.end()) t.mode = above->mode;
    if (t.mode == t.mode_in_use && !t.clock_hz && t.changes.empty()) {
        r.none = p.ruled_out.empty() ? "the doctor names the board, but no change to its device tree raises the bus"
                                     : fmt::format("every faster mode is ruled out: {} ({})", bus::to_string(p.ruled_out.front().mode),
                                                   p.ruled_out.front().reason);
        return r;
    }
    r.forms = persistent_forms(e, t);
    if (r.forms.empty()) {
        r.none = fmt::format("{} needs no change to the host's node: it offers the mode already", mode_and_clock(t.mode, t.clock_hz));
        return r;
    }
    r.for_what = mode_and_clock(t.mode, t.clock_hz) + " (untested on this card: trial it with --apply first)";
    return r;
}

} // namespace

Persistent persistent_result(const bus::Evidence& e, const bus::Diagnosis& d, const BusPlan& p, const std::optional<TrialRun>& run)
{
    Persistent r;
    const std::string host = p.host.empty() ? "the host" : p.host;
    if (!p.family || !p.start_mode || *p.start_mode == Mode::off) {
        r.none = "no mode in use to start from: nothing to keep";
        return r;
    }
    if (!run) return untested(e, d, p, host);
    if (!run->chosen) {
        r.none = run->trials.empty() ? "no mode was trialled: nothing to keep" : "no trialled mode was clean: nothing to keep";
        return r;
    }
    const auto& c = run->trials[*run->chosen];
    const auto step = std::find_if(p.steps.begin(), p.steps.end(),
                                   [&](const BusStep& s) { return s.mode == c.mode && s.clock_hz == c.clock_asked; });
    if (step != p.steps.end() && step->past_table) {
        r.none = fmt::format("{} ran clean only under --force, past the SoC table's row ({}): it is not kept",
                             bus::to_string(c.mode), step->limited_by);
        return r;
    }
    PersistTarget t;
    t.family = *p.family;
    t.mode_in_use = *p.start_mode;
    t.mode = c.mode;
    t.clock_hz = c.clock_asked;
    // The trial set caps and the clock, under the node's own properties:
    // what masks the mode goes with it; a clock raise was not tried.
    for (const auto& ch : d.board_changes)
        if (!ch.value) t.changes.push_back(ch);
    r.forms = persistent_forms(e, t);
    if (r.forms.empty()) {
        r.none = t.mode == t.mode_in_use && !t.clock_hz ? fmt::format("{} in use is the best clean mode: nothing to change", bus::to_string(c.mode))
                                                        : fmt::format("no persistent form for {} on this host", mode_and_clock(t.mode, t.clock_hz));
        return r;
    }
    r.tested = true;
    r.for_what = mode_and_clock(t.mode, t.clock_hz) + " (trialled clean on this card)";
    return r;
}

} // namespace mmc::tune
