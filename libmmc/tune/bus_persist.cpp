// The persistent forms of a bus mode. The device-tree properties of each
// mode are bus/mode_caps.h's table (the same the doctor reads); the
// Raspberry Pi lines are those its firmware's overlay README documents
// (sd_overclock: "Clock (in MHz) to use when the MMC framework requests
// 50MHz", bcm2835-sdhost only; dtoverlay=NAME loads overlays/NAME.dtbo);
// the SDHCI quirk bits are drivers/mmc/host/sdhci.h's (NO_1_8_V 1<<2,
// BROKEN_HS200 1<<6, BROKEN_DDR50 1<<7).
#include "tune/bus_persist.h"

#include "bus/mode_caps.h"
#include "cli/size.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using bus::Mode;

constexpr uint32_t quirk2_no_1_8_v = 1u << 2;
constexpr uint32_t quirk2_broken_hs200 = 1u << 6;
constexpr uint32_t quirk2_broken_ddr50 = 1u << 7;

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

PersistentForm dt_overlay(const bus::Evidence& e, const PersistTarget& t)
{
    const auto& dt = *e.dt;
    std::vector<std::string> props;
    const bool step_down = mode_rank(t.family, t.mode) < mode_rank(t.family, t.mode_in_use);
    if (!step_down)
        for (const auto& f : flags_of(t.family, t.mode))
            if (!dt.has(f)) props.push_back(f + ";");
    auto blocking = in_the_way(dt, t.family, t.mode);
    // Stepping down from a 1.8 V mode to one that is not: no-1-8-v says it
    // (it is a property to add), where the controller's own caps would
    // otherwise offer the faster modes again.
    if (step_down && bus::low_voltage_mode(t.mode_in_use) && !bus::low_voltage_mode(t.mode) && !dt.has("no-1-8-v")) {
        props.push_back("no-1-8-v;");
        std::erase_if(blocking, [&](const std::string& p) {
            for (const auto& row : bus::mode_flags(t.family))
                if (row.dt_flag == p && bus::low_voltage_mode(row.mode)) return true;
            return false;
        });
    }
    if (t.clock_hz) props.push_back(fmt::format("max-frequency = <{}>;", *t.clock_hz));
    PersistentForm f;
    f.kind = "dt-overlay";
    std::string target;
    if (dt.path.size() > 1)
        target = fmt::format("target-path = \"{}\";", dt.path);
    else if (!dt.label.empty())
        target = fmt::format("target = <&{}>;", dt.label);
    else {
        target = fmt::format("target-path = \"/{}\";", dt.node.empty() || dt.node[0] == '&' ? "PATH-OF-" + e.host : dt.node);
        f.cannot_express = "the node's path in the running tree is not known: put the host's path (ls /proc/device-tree) in target-path. ";
    }
    std::string body;
    for (const auto& p : props) body += "\t\t\t" + p + "\n";
    f.text = fmt::format("/dts-v1/;\n/plugin/;\n\n/ {{\n\tfragment@0 {{\n\t\t{}\n\t\t__overlay__ {{\n{}\t\t}};\n\t}};\n}};\n", target, body);
    f.scope = fmt::format("the host's node {} only; compile with dtc -@ -I dts -O dtb and load it at boot (the boot loader's "
                          "overlay list)",
                          dt.path.empty() ? dt.overlay_target() : dt.path);
    if (!blocking.empty())
        f.cannot_express += fmt::format("an overlay cannot delete a property: remove {} from the host's node in the board's .dts "
                                        "(or add /delete-property/ {}; there) and rebuild its .dtb",
                                        join(blocking, ", "), join(blocking, "; /delete-property/ "));
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

std::optional<PersistentForm> module_option(const PersistTarget& t, const std::string& host)
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
    f.scope = fmt::format("global to every SDHCI host on this machine, not only {}", host.empty() ? "this one" : host);
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
        // Nothing to add and nothing in the way: the node offers the mode
        // already (the card or tuning stops it), and no overlay changes that.
        if (auto f = dt_overlay(e, t); f.text.find("\t\t\t") != std::string::npos || !f.cannot_express.empty()) out.push_back(f);
        if (is_raspberry_pi_host(*e.dt))
            if (auto f = raspberry_pi(e, t)) out.push_back(*f);
    } else if (e.dt_absent || e.pci_id) {
        if (auto f = module_option(t, e.host)) out.push_back(*f);
    }
    return out;
}

} // namespace mmc::tune
