#include "tune/queue_udev.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

// A value udev compares as written: no glob character, quote, backslash,
// control character or the | that separates alternatives.
bool literal_value(const std::string& v)
{
    if (v.empty() || v.size() > 4096) return false;
    for (const unsigned char c : v)
        if (c < 0x20 || c == 0x7f || c == '*' || c == '?' || c == '[' || c == ']' || c == '|' || c == '"' || c == '\\')
            return false;
    return true;
}

bool hex_digits(const std::string& v)
{
    for (const char c : v)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    return !v.empty();
}

// FNV-1a, 32 bits: a short stable name for a value that is not one.
std::string short_hash(const std::string& v)
{
    uint32_t h = 2166136261u;
    for (const unsigned char c : v) h = (h ^ c) * 16777619u;
    return fmt::format("{:08x}", h);
}

std::optional<DeviceMatch> by_value(const std::string& key, const std::string& value, const std::string& label,
                                    std::string& why)
{
    if (!literal_value(value)) {
        why = fmt::format("its {} cannot be matched exactly by udev (it holds a glob character, a quote or a control "
                          "character)",
                          label);
        return std::nullopt;
    }
    return DeviceMatch{{{key, "==", value}}, fmt::format("its {} ({})", label, value), "", ""};
}

// A comment stays one comment line: a control character (a newline in a
// card's name) would start a rule line of its own.
std::string comment_safe(std::string s)
{
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return s;
}

} // namespace

std::optional<DeviceMatch> device_match(const dev::DiskIdentity& id, bool is_card, std::string& why)
{
    if (is_card) {
        if (id.cid.size() != 32 || !hex_digits(id.cid)) {
            why = id.cid.empty() ? "the card's CID cannot be read from sysfs" : fmt::format("the card's CID '{}' is not 32 hex digits", id.cid);
            return std::nullopt;
        }
        DeviceMatch m{{{"KERNEL", "!=", "mmcblk*boot*"}, {"ATTRS{cid}", "==", id.cid}},
                      fmt::format("the card's CID {} ({}{})", id.cid, id.card_name.empty() ? "unnamed" : id.card_name,
                                  id.card_serial.empty() ? "" : ", serial " + id.card_serial),
                      "this card in any MMC/SD slot, whatever mmcblk number it gets; no other card (the CID holds the "
                      "manufacturer, name, serial and date); the user area only, not an eMMC's boot partitions",
                      "cid-" + id.cid};
        return m;
    }
    if (!id.id_wwn.empty()) {
        auto m = by_value("ENV{ID_WWN}", id.id_wwn, "world wide name (udev ID_WWN)", why);
        if (m) {
            m->scope = "this disk wherever it is attached; no other disk";
            m->name = "wwn-" + short_hash(id.id_wwn);
        }
        return m;
    }
    if (!id.id_serial.empty()) {
        auto m = by_value("ENV{ID_SERIAL}", id.id_serial, "serial (udev ID_SERIAL)", why);
        if (m) {
            m->scope = "this disk wherever it is attached; for a USB card reader the serial is the reader's, so "
                       "any card in this reader matches, and this card in another reader does not";
            m->name = "serial-" + short_hash(id.id_serial);
        }
        return m;
    }
    if (!id.loop_backing_file.empty()) {
        auto m = by_value("ATTR{loop/backing_file}", id.loop_backing_file, "loop backing file", why);
        if (m) {
            m->keys.insert(m->keys.begin(), {"KERNEL", "==", "loop*"});
            m->scope = "the loop device attached to this file, whichever loopN it is; a loop device attached to "
                       "another file does not match (a simulated card's file lives as long as its mmc-sim run)";
            m->name = "loop-" + short_hash(id.loop_backing_file);
        }
        return m;
    }
    why = "nothing identifies it across reboots (no card CID, no udev serial or WWN, not a loop device)";
    return std::nullopt;
}

std::string udev_rule(const DeviceMatch& match, const QueueSetting& setting, const std::string& comment)
{
    std::string line = R"(ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk")";
    for (const auto& k : match.keys) line += fmt::format(", {}{}\"{}\"", k.key, k.op, k.value);
    if (!setting.scheduler.empty()) line += fmt::format(", ATTR{{queue/scheduler}}=\"{}\"", setting.scheduler);
    line += fmt::format(", ATTR{{queue/read_ahead_kb}}=\"{}\"", setting.read_ahead_kb);
    std::string text;
    for (std::size_t at = 0; at < comment.size();) {
        const auto nl = comment.find('\n', at);
        text += "# " + comment_safe(comment.substr(at, nl == std::string::npos ? std::string::npos : nl - at)) + "\n";
        at = nl == std::string::npos ? comment.size() : nl + 1;
    }
    text += fmt::format("# matched by {}\n", comment_safe(match.what));
    return text + line + "\n";
}

std::string rule_file_name(const DeviceMatch& match) { return fmt::format("60-mmckit-queue-{}.rules", match.name); }

} // namespace mmc::tune
