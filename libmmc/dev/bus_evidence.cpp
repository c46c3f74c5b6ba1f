#include "dev/bus_evidence.h"

#include <charconv>
#include <fstream>
#include <sys/klog.h>
#include <sys/utsname.h>

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

uint64_t field_or(const regs::DecodedRegister* r, std::string_view name, uint64_t fallback)
{
    const auto* f = r ? r->field(name) : nullptr;
    return f ? f->raw : fallback;
}

bus::CardKind kind_of(CardType t)
{
    switch (t) {
    case CardType::sd:
    case CardType::sd_combo: return bus::CardKind::sd;
    case CardType::mmc: return bus::CardKind::mmc;
    case CardType::sdio: return bus::CardKind::sdio;
    case CardType::unknown: break;
    }
    return bus::CardKind::unknown;
}

void add_card_capabilities(bus::Evidence& e, const regs::CardRegisters& regs)
{
    using regs::RegKind;
    if (const auto* ocr = regs.get(RegKind::ocr); ocr && field_or(ocr, "busy", 0))
        e.s18a = field_or(ocr, "s18a", 0) != 0; // only a raw R3 OCR carries S18A
    if (const auto* ssr = regs.get(RegKind::ssr)) e.uhs_speed_grade = static_cast<int>(field_or(ssr, "uhs_speed_grade", 0));
    if (const auto* sw = regs.get(RegKind::switch_status)) {
        // Group 1 support bits: 0 SDR12, 1 SDR25, 2 SDR50, 3 SDR104, 4 DDR50.
        static constexpr const char* names[] = {"SDR12", "SDR25", "SDR50", "SDR104", "DDR50"};
        const uint64_t support = field_or(sw, "fun_grp1_support", 0);
        for (int bit = 0; bit < 5; ++bit)
            if (support >> bit & 1) e.sd_bus_speeds_supported.emplace_back(names[bit]);
    }
    if (const auto* ext = regs.get(RegKind::ext_csd)) {
        e.device_type = static_cast<uint8_t>(field_or(ext, "device_type", 0));
        e.strobe_support = field_or(ext, "strobe_support", 0) != 0;
    }
}

} // namespace

std::optional<bus::DeviceTree> read_device_tree(const Controller& controller)
{
    const fs::path node = controller.syspath / "of_node";
    std::error_code ec;
    if (!fs::exists(node, ec)) return std::nullopt;
    bus::DeviceTree dt;
    dt.compatible = controller.compatible;
    dt.max_frequency = dt_u32(node / "max-frequency");
    dt.bus_width = dt_u32(node / "bus-width");
    dt.has_vqmmc_supply = fs::exists(node / "vqmmc-supply", ec);
    static constexpr const char* flags[] = {
        "no-1-8-v",          "sd-uhs-sdr12",       "sd-uhs-sdr25",        "sd-uhs-sdr50",
        "sd-uhs-sdr104",     "sd-uhs-ddr50",       "mmc-ddr-3_3v",        "mmc-ddr-1_8v",
        "mmc-ddr-1_2v",      "mmc-hs200-1_8v",     "mmc-hs200-1_2v",      "mmc-hs400-1_8v",
        "mmc-hs400-1_2v",    "mmc-hs400-enhanced-strobe", "cap-sd-highspeed", "cap-mmc-highspeed",
        "non-removable",     "no-sd",              "no-mmc",              "no-sdio",
    };
    for (const char* f : flags)
        if (fs::exists(node / f, ec)) dt.flags.emplace_back(f);
    return dt;
}

std::string kernel_card_message(const std::string& host)
{
    const int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, nullptr, 0);
    if (size <= 0) return {};
    std::string buf(static_cast<std::size_t>(size), '\0');
    const int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf.data(), size);
    if (n <= 0) return {};
    buf.resize(static_cast<std::size_t>(n));
    // The newest announcement wins: cards are re-announced after a re-plug.
    const std::string needle = host + ": new ";
    std::string found;
    std::size_t pos = 0;
    while ((pos = buf.find(needle, pos)) != std::string::npos) {
        const auto end = buf.find('\n', pos);
        found = buf.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos += needle.size();
    }
    return found;
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
        utsname u{};
        if (uname(&u) == 0) kernel_version = u.release;
    }
    e.kernel_version = kernel_version;
    e.controller = host.controller.describe();
    e.dt = read_device_tree(host.controller);
    if (roots.is_live()) e.kernel_message = kernel_card_message(host.name);
    if (card) e.card = kind_of(card->type);
    if (registers) add_card_capabilities(e, *registers);
    return e;
}

} // namespace mmc::dev
