// CID, the card identification register (128 bits).
// SD: Physical Layer Simplified Specification 5.2 (Table 5-2 CID fields).
// MMC/eMMC: JESD84-B51, 7.2 (CID register). This is the layout of MMC system
// specification 2.0 and later; the MMC 1.x layout (24-bit MID, 7-character
// name, HWREV/FWREV) is not decoded.
#include "regs/bitfield.h"
#include "regs/crc7.h"
#include "regs/decode.h"
#include "regs/vendors.h"
#include "regs/field_raw.h"

#include <array>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::regs {

namespace {

constexpr std::array<FieldSpec, 8> sd_cid_layout{{
    {"mid", 127, 120, "manufacturer ID (assigned by SD-3C)"},
    {"oid", 119, 104, "OEM/application ID, 2 ASCII characters"},
    {"pnm", 103, 64, "product name, 5 ASCII characters"},
    {"prv", 63, 56, "product revision, BCD n.m"},
    {"psn", 55, 24, "product serial number"},
    {"reserved_23_20", 23, 20, "reserved"},
    {"mdt", 19, 8, "manufacturing date: year since 2000 [19:12], month [11:8]"},
    {"crc", 7, 1, "CRC7"},
}};

// Bits [119:114] are reserved and not listed; a warning reports them if set.
constexpr std::array<FieldSpec, 8> mmc_cid_layout{{
    {"mid", 127, 120, "manufacturer ID (assigned by JEDEC)"},
    {"cbx", 113, 112, "device/BGA: 0 removable, 1 BGA, 2 POP"},
    {"oid", 111, 104, "OEM/application ID"},
    {"pnm", 103, 56, "product name, 6 ASCII characters"},
    {"prv", 55, 48, "product revision, BCD n.m"},
    {"psn", 47, 16, "product serial number"},
    {"mdt", 15, 8, "manufacturing date: month [15:12], year code [11:8]"},
    {"crc", 7, 1, "CRC7"},
}};

Field& field_ref(DecodedRegister& r, std::string_view name)
{
    for (auto& f : r.fields)
        if (f.spec->name == name) return f;
    throw std::logic_error("CID field missing from table");
}

// An ASCII field as text: trailing NUL padding removed, characters outside
// 0x20-0x7e shown as \xNN. Spaces are kept: they are part of the name the
// card reports ("SD   "), and Linux prints them too.
struct AsciiText {
    std::string text;
    int trailing_nuls = 0;
    bool nonprintable = false;
};

AsciiText ascii_text(uint64_t value, int chars)
{
    std::array<uint8_t, 8> bytes{};
    for (int i = 0; i < chars; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<uint8_t>(value >> (8 * (chars - 1 - i)));
    AsciiText out;
    int end = chars;
    while (end > 0 && bytes[static_cast<std::size_t>(end - 1)] == 0) --end;
    out.trailing_nuls = chars - end;
    for (int i = 0; i < end; ++i) {
        const uint8_t c = bytes[static_cast<std::size_t>(i)];
        if (c >= 0x20 && c <= 0x7e) {
            out.text.push_back(static_cast<char>(c));
        } else {
            out.text += fmt::format("\\x{:02x}", c);
            out.nonprintable = true;
        }
    }
    return out;
}

std::string trim_right(std::string s)
{
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

// Sets the field text and reports what a person should know about it.
std::string set_text(DecodedRegister& r, std::string_view name, std::string_view label, int chars)
{
    Field& f = field_ref(r, name);
    AsciiText t = ascii_text(f.raw, chars);
    if (t.nonprintable)
        r.warnings.push_back(fmt::format("{} has non-printable characters: \"{}\"", label, t.text));
    if (t.trailing_nuls > 0 && t.trailing_nuls < chars)
        r.warnings.push_back(fmt::format("{} \"{}\" is padded with {} NUL byte{} (trimmed)", label, t.text,
                                         t.trailing_nuls, t.trailing_nuls == 1 ? "" : "s"));
    if (t.trailing_nuls == chars) r.warnings.push_back(fmt::format("{} is empty (all NUL bytes)", label));
    f.text = t.text;
    return t.text;
}

std::string add_revision(DecodedRegister& r)
{
    const uint64_t prv = field_raw(r, "prv");
    const int64_t major = static_cast<int64_t>(prv >> 4), minor = static_cast<int64_t>(prv & 0xf);
    r.add("prv_major", major, "Product revision (major)");
    r.add("prv_minor", minor, "Product revision (minor)");
    const std::string revision = fmt::format("{}.{}", major, minor);
    r.add("revision", revision, "Product revision");
    if (major > 9 || minor > 9)
        r.warnings.push_back(fmt::format("PRV 0x{:02x} is not two BCD digits", prv));
    return revision;
}

std::string add_serial(DecodedRegister& r)
{
    const uint64_t psn = field_raw(r, "psn");
    const std::string hex = fmt::format("0x{:08x}", psn);
    r.add("serial_hex", hex, "Serial number", fmt::format("{} ({})", hex, psn));
    return hex;
}

void check_month(DecodedRegister& r, int64_t month)
{
    if (month == 0 || month > 12)
        r.warnings.push_back(fmt::format("manufacturing month {} is not 1-12", month));
}

std::string date_text(int64_t year, int64_t month) { return fmt::format("{:04}-{:02}", year, month); }

void decode_sd_cid(DecodedRegister& r)
{
    const auto mid = static_cast<uint8_t>(field_raw(r, "mid"));
    const std::string manufacturer = sd_manufacturer(mid);
    r.add("manufacturer", manufacturer, "Manufacturer", fmt::format("{} (MID 0x{:02x})", manufacturer, mid));

    const std::string oid = set_text(r, "oid", "OID", 2);
    r.add("oid_ascii", oid, "OEM/application ID", fmt::format("\"{}\" (0x{:04x})", oid, field_raw(r, "oid")));
    const std::string pnm = set_text(r, "pnm", "PNM", 5);
    r.add("product_name", trim_right(pnm), "Product name");

    const std::string revision = add_revision(r);
    const std::string serial = add_serial(r);

    const uint64_t mdt = field_raw(r, "mdt");
    const auto year = static_cast<int64_t>(2000 + (mdt >> 4));
    const auto month = static_cast<int64_t>(mdt & 0xf);
    r.add("mdt_raw", static_cast<int64_t>(mdt), "Manufacturing date (raw)", fmt::format("0x{:03x}", mdt));
    r.add("mdt_year", year, "Manufacturing year");
    r.add("mdt_month", month, "Manufacturing month");
    r.add("date", date_text(year, month), "Manufacturing date");
    check_month(r, month);

    if (const uint64_t reserved = field_raw(r, "reserved_23_20"))
        r.warnings.push_back(fmt::format("reserved bits [23:20] are 0x{:x}, not 0 (some vendors use them)", reserved));

    r.summary = fmt::format("SD CID: {} \"{}\" rev {}, serial {}, made {}", manufacturer, trim_right(pnm), revision,
                            serial, date_text(year, month));
}

// MDT year of an MMC CID, as Linux mmc_decode_ext_csd() fixes it up: the
// 4-bit code counts from 1997; from EXT_CSD_REV 5 (JESD84-B451, eMMC 4.5)
// codes 0-12 mean 2013-2025, and from EXT_CSD_REV 9 (JESD84-B51B, Sept. 2025)
// codes 0-9 and 13-15 move on once more, to 2029-2038 and 2026-2028. The
// steps apply in order: +16 when rev > 4 and year < 2010, then +16 when
// rev >= 9 and year < 2023. (A proposed per-vendor quirk for SanDisk parts
// that report 2010-2012 on rev 5-8 is not applied.)
int64_t mmc_year(uint64_t code, std::optional<int> ext_csd_rev)
{
    auto year = static_cast<int64_t>(1997 + code);
    if (ext_csd_rev && *ext_csd_rev > 4 && year < 2010) year += 16;
    if (ext_csd_rev && *ext_csd_rev >= 9 && year < 2023) year += 16;
    return year;
}

void decode_mmc_cid(DecodedRegister& r, const DecodeContext& ctx)
{
    const auto mid = static_cast<uint8_t>(field_raw(r, "mid"));
    const std::string manufacturer = mmc_manufacturer(mid);
    r.add("manufacturer", manufacturer, "Manufacturer", fmt::format("{} (MID 0x{:02x})", manufacturer, mid));

    static constexpr std::array<std::string_view, 4> forms{"removable", "BGA (embedded)", "POP", "reserved"};
    const uint64_t cbx = field_raw(r, "cbx");
    r.add("card_form", std::string(forms[cbx]), "Device type (CBX)");
    if (cbx == 3) r.warnings.push_back("CBX 3 is reserved");

    // Linux reads bits [119:104] as one 16-bit "oemid", so reserved bits and
    // CBX show up in sysfs: a BGA part with OID 0 prints 0x0100.
    const uint64_t linux_oemid = bits(r.bytes, 119, 104);
    r.add("linux_oemid_16bit", static_cast<int64_t>(linux_oemid), "OEM ID as Linux prints it",
          fmt::format("0x{:04x}", linux_oemid));
    if (const uint64_t reserved = bits(r.bytes, 119, 114))
        r.warnings.push_back(fmt::format("reserved bits [119:114] are 0x{:x}, not 0", reserved));

    const std::string pnm = set_text(r, "pnm", "PNM", 6);
    r.add("product_name", trim_right(pnm), "Product name");

    const std::string revision = add_revision(r);
    const std::string serial = add_serial(r);

    const uint64_t mdt = field_raw(r, "mdt");
    const auto month = static_cast<int64_t>(mdt >> 4);
    const uint64_t code = mdt & 0xf;
    const int64_t pre_v45 = mmc_year(code, std::nullopt);
    const int64_t gt4 = mmc_year(code, 5);
    const int64_t ge9 = mmc_year(code, 9);
    const int64_t year = mmc_year(code, ctx.ext_csd_rev);
    r.add("mdt_raw", static_cast<int64_t>(mdt), "Manufacturing date (raw)", fmt::format("0x{:02x}", mdt));
    r.add("mdt_month", month, "Manufacturing month");
    r.add("mdt_year", year, "Manufacturing year");
    r.add("mdt_year_jedec_pre_v45", pre_v45, "Year if EXT_CSD_REV <= 4 (1997 + code)");
    r.add("mdt_year_if_ext_csd_rev_gt4", gt4, "Year if EXT_CSD_REV 5-8 (eMMC 4.5-5.1)");
    r.add("mdt_year_if_ext_csd_rev_ge9", ge9, "Year if EXT_CSD_REV >= 9 (JESD84-B51B)");
    r.add("mdt_year_rule",
          std::string(!ctx.ext_csd_rev  ? "EXT_CSD_REV unknown: 1997 + code"
                       : *ctx.ext_csd_rev >= 9 ? "EXT_CSD_REV >= 9"
                       : *ctx.ext_csd_rev > 4  ? "EXT_CSD_REV > 4"
                                               : "EXT_CSD_REV <= 4: 1997 + code"),
          "Year rule applied");
    r.add("date", date_text(year, month), "Manufacturing date");
    check_month(r, month);
    if (!ctx.ext_csd_rev && (gt4 != pre_v45 || ge9 != pre_v45))
        r.warnings.push_back(fmt::format("manufacturing year {} assumes EXT_CSD_REV <= 4; it is {} if EXT_CSD_REV "
                                         "is 5-8 (eMMC 4.5-5.1) and {} if it is 9 or more",
                                         pre_v45, gt4, ge9));

    r.summary = fmt::format("MMC CID: {} \"{}\" rev {}, {}, serial {}, made {}", manufacturer, trim_right(pnm),
                            revision, forms[cbx], serial, date_text(year, month));
}

} // namespace

std::span<const FieldSpec> cid_table(CardFamily card)
{
    if (card == CardFamily::mmc) return mmc_cid_layout;
    return sd_cid_layout;
}

DecodedRegister decode_cid(std::span<const uint8_t> reg, CardFamily card, const DecodeContext& ctx)
{
    require_size(RegKind::cid, reg);
    DecodedRegister r{RegKind::cid, card, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_bit_fields(reg, cid_table(card));
    if (card == CardFamily::sd)
        decode_sd_cid(r);
    else
        decode_mmc_cid(r, ctx);
    add_crc7_check(r);
    return r;
}

} // namespace mmc::regs
