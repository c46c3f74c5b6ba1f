// SSR, the SD status register (512 bits, ACMD13, SD only).
// SD Physical Layer Simplified Specification 9.10, 4.10.2 (Table 4-44 SD
// status fields and the tables after it), 4.14 (erase timeout).
// Bit 511 is the most significant bit of byte 0.
#include "regs/ssr.h"
#include "regs/field_raw.h"

#include "regs/decode.h"
#include "cli/size.h"
#include "regs/units.h"

#include <array>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::regs {

namespace {

// Reserved runs left out: [508:496] (security functions), [427:424],
// [383:378], [345:340], [327:314], [311:0] (manufacturer).
constexpr std::array<FieldSpec, 19> ssr_layout{{
    {"dat_bus_width", 511, 510, "current data bus width (0: 1-bit, 2: 4-bit)"},
    {"secured_mode", 509, 509, "card is in secured mode"},
    {"sd_card_type", 495, 480, "SD memory card type (0: RD/WR, 1: ROM, 2: OTP)"},
    {"size_of_protected_area", 479, 448, "protected area size (bytes on SDHC/SDXC)"},
    {"speed_class", 447, 440, "speed class (0: Class 0, 1: C2, 2: C4, 3: C6, 4: C10)"},
    {"performance_move", 439, 432, "move performance, MB/s (0: sequential write, 255: infinity)"},
    {"au_size", 431, 428, "allocation unit size code"},
    {"erase_size", 423, 408, "AUs erased in ERASE_TIMEOUT (0: not supported)"},
    {"erase_timeout", 407, 402, "erase timeout for ERASE_SIZE AUs, seconds"},
    {"erase_offset", 401, 400, "erase timeout offset, seconds"},
    {"uhs_speed_grade", 399, 396, "UHS speed grade (0: U0, 1: U1, 3: U3)"},
    {"uhs_au_size", 395, 392, "allocation unit size code for UHS modes"},
    {"video_speed_class", 391, 384, "video speed class (0, 6, 10, 30, 60, 90)"},
    {"vsc_au_size", 377, 368, "allocation unit size for video speed class, MB"},
    {"sus_addr", 367, 346, "suspension address for video speed class"},
    {"app_perf_class", 339, 336, "application performance class (1: A1, 2: A2)"},
    {"performance_enhance", 335, 328, "performance enhancement support (CQ, cache, maintenance)"},
    {"discard_support", 313, 313, "discard supported"},
    {"fule_support", 312, 312, "full user area logical erase supported"},
}};

// AU_SIZE and UHS_AU_SIZE codes 1..15 (Table 4-47); 0 is "not defined".
constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;
constexpr std::array<uint64_t, 16> au_bytes{0,         16 * KiB, 32 * KiB, 64 * KiB, 128 * KiB, 256 * KiB,
                                            512 * KiB, 1 * MiB,  2 * MiB,  4 * MiB,  8 * MiB,   12 * MiB,
                                            16 * MiB,  24 * MiB, 32 * MiB, 64 * MiB};

// PERFORMANCE_ENHANCE, SSR bits [335:328] (SD Physical Layer 6.00, Table
// 4-44): bit 0 (SSR bit 328) card initiated maintenance, bit 1 (329) host
// initiated maintenance, bit 2 (330) cache, bits 7:3 (SSR bits [335:331])
// command queue: 0 not supported, n the queue depth minus one (1: depth 2 ...
// 31: depth 32), coded like EXT_CSD's CMDQ_DEPTH. The decoded
// perf_enh_cq_depth is the depth itself, never the code.
constexpr uint64_t perf_card_maintenance = 1u << 0;
constexpr uint64_t perf_host_maintenance = 1u << 1;
constexpr uint64_t perf_cache = 1u << 2;
constexpr int perf_cq_shift = 3;

std::string au_text(uint64_t code)
{
    return code == 0 ? std::string("not defined") : cli::format_bytes_exact(au_bytes[code & 15]);
}

void add_classes(DecodedRegister& r)
{
    // Speed class: codes 0..4 are Class 0, 2, 4, 6, 10.
    static constexpr std::array<int, 5> class_mb_s{0, 2, 4, 6, 10};
    const uint64_t speed = field_raw(r, "speed_class");
    if (speed < class_mb_s.size()) {
        const int mb_s = class_mb_s[speed];
        r.add("speed_class", speed == 0 ? std::string("Class 0") : fmt::format("C{}", mb_s), "Speed class",
              speed == 0 ? "Class 0 (no performance claim)" : fmt::format("Class {} ({} MB/s minimum)", mb_s, mb_s));
        r.add("speed_class_mb_s", int64_t{mb_s}, "Speed class minimum write", fmt::format("{} MB/s", mb_s));
    } else {
        r.add("speed_class", fmt::format("reserved ({})", speed), "Speed class");
        r.add("speed_class_mb_s", int64_t{0}, "Speed class minimum write", "unknown (reserved code)");
        r.warnings.push_back(fmt::format("SPEED_CLASS {} is reserved (0-4 are defined)", speed));
    }

    const uint64_t grade = field_raw(r, "uhs_speed_grade");
    if (grade == 0)
        r.add("uhs_speed_grade", std::string("U0"), "UHS speed grade", "U0 (less than 10 MB/s)");
    else if (grade == 1 || grade == 3)
        r.add("uhs_speed_grade", fmt::format("U{}", grade), "UHS speed grade",
              fmt::format("U{} ({}0 MB/s minimum)", grade, grade));
    else {
        r.add("uhs_speed_grade", fmt::format("reserved ({})", grade), "UHS speed grade");
        r.warnings.push_back(fmt::format("UHS_SPEED_GRADE {} is reserved (0, 1 and 3 are defined)", grade));
    }

    const uint64_t video = field_raw(r, "video_speed_class");
    if (video == 0)
        r.add("video_speed_class", std::string("not supported"), "Video speed class");
    else if (video == 6 || video == 10 || video == 30 || video == 60 || video == 90)
        r.add("video_speed_class", fmt::format("V{}", video), "Video speed class",
              fmt::format("V{} ({} MB/s minimum)", video, video));
    else {
        r.add("video_speed_class", fmt::format("reserved ({})", video), "Video speed class");
        r.warnings.push_back(fmt::format("VIDEO_SPEED_CLASS {} is reserved (0, 6, 10, 30, 60, 90 are defined)", video));
    }

    const uint64_t app = field_raw(r, "app_perf_class");
    if (app == 0)
        r.add("app_perf_class", std::string("not supported"), "Application performance class");
    else if (app <= 2)
        r.add("app_perf_class", fmt::format("A{}", app), "Application performance class");
    else {
        r.add("app_perf_class", fmt::format("reserved ({})", app), "Application performance class");
        r.warnings.push_back(fmt::format("APP_PERF_CLASS {} is reserved (0-2 are defined)", app));
    }

    const uint64_t move = field_raw(r, "performance_move");
    r.add("performance_move_mb_s", static_cast<int64_t>(move), "Move performance",
          move == 0 ? "sequential write (card does not move data)" : move == 255 ? "infinity" : fmt::format("{} MB/s", move));
}

void add_allocation_units(DecodedRegister& r)
{
    const uint64_t au = field_raw(r, "au_size");
    r.add("au_size_bytes", static_cast<int64_t>(au_bytes[au]), "Allocation unit", au_text(au));
    if (au == 0 && field_raw(r, "speed_class") != 0)
        r.warnings.push_back("AU_SIZE is 0 (not defined) although the card claims a speed class");

    const uint64_t uhs_au = field_raw(r, "uhs_au_size");
    r.add("uhs_au_size_bytes", static_cast<int64_t>(au_bytes[uhs_au]), "UHS allocation unit", au_text(uhs_au));
    if (uhs_au >= 1 && uhs_au <= 6)
        r.warnings.push_back(fmt::format("UHS_AU_SIZE {} ({}) is not used by the spec: the UHS AU is 1 MB or more",
                                         uhs_au, au_text(uhs_au)));
    if (uhs_au == 0 && field_raw(r, "uhs_speed_grade") != 0)
        r.warnings.push_back("UHS_AU_SIZE is 0 (not defined) although the card claims a UHS speed grade");

    const uint64_t vsc_au = field_raw(r, "vsc_au_size");
    r.add("vsc_au_size_bytes", static_cast<int64_t>(vsc_au * MiB), "Video speed class AU",
          vsc_au ? cli::format_bytes_exact(vsc_au * MiB) : "not supported");

    // SDSC counts the protected area in MULT * BLOCK_LEN units (from the
    // CSD), SDHC/SDXC in bytes. The SSR alone cannot tell them apart; almost
    // every card that reports an SSR worth decoding is SDHC or SDXC, so this
    // assumes bytes. The raw field keeps the value as the card sent it.
    const uint64_t protected_area = field_raw(r, "size_of_protected_area");
    r.add("size_of_protected_area_bytes", static_cast<int64_t>(protected_area), "Protected area",
          fmt::format("{} (if SDHC/SDXC; SDSC counts in CSD MULT * BLOCK_LEN units)", cli::format_bytes_exact(protected_area)));
}

void add_ssr_erase(DecodedRegister& r)
{
    const uint64_t size = field_raw(r, "erase_size"), timeout = field_raw(r, "erase_timeout"), offset = field_raw(r, "erase_offset");
    const bool supported = size != 0 && timeout != 0;
    const double per_au = supported ? static_cast<double>(timeout) / static_cast<double>(size) : 0.25;
    r.add("erase_timeout_s", per_au, "Erase timeout per AU",
          supported ? fmt::format("{} per AU ({} s for {} AU)", seconds_text(per_au, 3), timeout, size)
                    : "not specified by the card; 250 ms per AU assumed");
    r.add("erase_offset_s", static_cast<int64_t>(supported ? offset : 0), "Erase timeout offset",
          supported ? fmt::format("{} s", offset) : "not used (erase timeout calculation not supported)");
    if (size == 0 && timeout != 0)
        r.warnings.push_back(
            fmt::format("ERASE_SIZE is 0 but ERASE_TIMEOUT is {}; the spec requires 0 when ERASE_SIZE is 0", timeout));
}

void add_performance_enhance(DecodedRegister& r)
{
    const uint64_t perf = field_raw(r, "performance_enhance");
    const bool cache = perf & perf_cache;
    const auto cq = static_cast<int64_t>(perf >> perf_cq_shift); // the code: depth - 1
    const int64_t depth = cq ? cq + 1 : 0;
    r.add("perf_enh_card_maintenance", (perf & perf_card_maintenance) != 0, "Card initiated maintenance");
    r.add("perf_enh_host_maintenance", (perf & perf_host_maintenance) != 0, "Host initiated maintenance");
    r.add("perf_enh_cache_support", cache, "Cache support");
    r.add("perf_enh_cq_depth", depth, "Command queue",
          cq ? fmt::format("supported, queue depth {} (code {})", depth, cq) : "not supported");

    if (field_raw(r, "app_perf_class") == 2 && (!cache || cq == 0))
        r.warnings.push_back(fmt::format("A2 card without {} (PERFORMANCE_ENHANCE 0x{:02x}); A2 requires both cache "
                                         "and command queue support",
                                         !cache && cq == 0 ? "cache or command queue" : !cache ? "cache" : "command queue",
                                         perf));
}

std::string ssr_summary(const DecodedRegister& r)
{
    std::vector<std::string> classes{std::get<std::string>(r.find("speed_class")->value)};
    if (field_raw(r, "uhs_speed_grade")) classes.push_back(std::get<std::string>(r.find("uhs_speed_grade")->value));
    if (field_raw(r, "video_speed_class")) classes.push_back(std::get<std::string>(r.find("video_speed_class")->value));
    if (field_raw(r, "app_perf_class")) classes.push_back(std::get<std::string>(r.find("app_perf_class")->value));

    std::vector<std::string> features;
    if (field_raw(r, "discard_support")) features.emplace_back("discard");
    if (field_raw(r, "fule_support")) features.emplace_back("FULE");
    if (field_raw(r, "performance_enhance") & perf_cache) features.emplace_back("cache");
    if (const auto cq = field_raw(r, "performance_enhance") >> perf_cq_shift) features.push_back(fmt::format("CQ depth {}", cq + 1));

    return fmt::format("SD status: {}, AU {}, {} bus{}{}", fmt::join(classes, " "), au_text(field_raw(r, "au_size")),
                       r.find("bus_width_text")->text, features.empty() ? "" : ", ", fmt::join(features, ", "));
}

} // namespace

std::span<const FieldSpec> ssr_table() { return ssr_layout; }

DecodedRegister decode_ssr(std::span<const uint8_t> reg)
{
    require_size(RegKind::ssr, reg);
    DecodedRegister r{RegKind::ssr, CardFamily::sd, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_bit_fields(reg, ssr_layout);

    const uint64_t width = field_raw(r, "dat_bus_width");
    r.add("bus_width_text", std::string(width == 0 ? "1-bit" : width == 2 ? "4-bit" : "reserved"), "Current bus width");
    if (width == 1 || width == 3) r.warnings.push_back(fmt::format("DAT_BUS_WIDTH {} is reserved", width));

    const uint64_t type = field_raw(r, "sd_card_type");
    static constexpr std::array<std::string_view, 3> types{"regular SD RD/WR card", "SD ROM card", "OTP card"};
    r.add("card_type_text", type < types.size() ? std::string(types[type]) : fmt::format("reserved (0x{:04x})", type),
          "Card type");
    if (type >= types.size()) r.warnings.push_back(fmt::format("SD_CARD_TYPE 0x{:04x} is reserved", type));

    add_classes(r);
    add_allocation_units(r);
    add_ssr_erase(r);
    add_performance_enhance(r);
    r.summary = ssr_summary(r);
    return r;
}

double sd_erase_timeout_seconds(const DecodedRegister& ssr, uint64_t au_count)
{
    const Field* size = ssr.field("erase_size");
    const Field* timeout = ssr.field("erase_timeout");
    const Field* offset = ssr.field("erase_offset");
    if (ssr.kind != RegKind::ssr || !size || !timeout || !offset)
        throw std::invalid_argument("sd_erase_timeout_seconds needs a decoded SSR");
    const auto count = static_cast<double>(au_count);
    if (size->raw == 0 || timeout->raw == 0) return 0.25 * count;
    return static_cast<double>(timeout->raw) / static_cast<double>(size->raw) * count + static_cast<double>(offset->raw);
}

} // namespace mmc::regs
