// CSD, the card-specific data register (128 bits).
// SD: Physical Layer Simplified Specification 9.10, 5.3.2 (CSD 1.0, SDSC),
//     5.3.3 (CSD 2.0, SDHC/SDXC), 5.3.4 (CSD 3.0, SDUC).
// MMC: JESD84-B51, 7.3 (CSD register).
#include "regs/crc7.h"
#include "regs/decode.h"
#include "cli/size.h"
#include "regs/units.h"
#include "regs/field_raw.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

// Fields common to the start of every CSD layout.
constexpr std::array<FieldSpec, 10> head{{
    {"csd_structure", 127, 126, "CSD structure version"},
    {"taac", 119, 112, "data read access time 1"},
    {"nsac", 111, 104, "data read access time 2, in 100 clock cycles"},
    {"tran_speed", 103, 96, "max data transfer rate"},
    {"ccc", 95, 84, "card command classes"},
    {"read_bl_len", 83, 80, "max read data block length, log2 bytes"},
    {"read_bl_partial", 79, 79, "partial blocks for read allowed"},
    {"write_blk_misalign", 78, 78, "write block misalignment"},
    {"read_blk_misalign", 77, 77, "read block misalignment"},
    {"dsr_imp", 76, 76, "DSR implemented"},
}};

// Size fields of SD CSD 1.0 and MMC.
constexpr std::array<FieldSpec, 6> legacy_size{{
    {"c_size", 73, 62, "device size"},
    {"vdd_r_curr_min", 61, 59, "max read current at VDD min"},
    {"vdd_r_curr_max", 58, 56, "max read current at VDD max"},
    {"vdd_w_curr_min", 55, 53, "max write current at VDD min"},
    {"vdd_w_curr_max", 52, 50, "max write current at VDD max"},
    {"c_size_mult", 49, 47, "device size multiplier, log2 minus 2"},
}};

// Erase and write-protect fields of every SD layout.
constexpr std::array<FieldSpec, 4> sd_erase{{
    {"erase_blk_en", 46, 46, "erase single block enable"},
    {"sector_size", 45, 39, "erase sector size, in write blocks minus 1"},
    {"wp_grp_size", 38, 32, "write protect group size, in erase sectors minus 1"},
    {"wp_grp_enable", 31, 31, "write protect group enable"},
}};

// Fields common to the end of every CSD layout.
constexpr std::array<FieldSpec, 8> tail{{
    {"r2w_factor", 28, 26, "write speed factor, log2"},
    {"write_bl_len", 25, 22, "max write data block length, log2 bytes"},
    {"write_bl_partial", 21, 21, "partial blocks for write allowed"},
    {"file_format_grp", 15, 15, "file format group"},
    {"copy", 14, 14, "copy flag (OTP)"},
    {"perm_write_protect", 13, 13, "permanent write protection"},
    {"tmp_write_protect", 12, 12, "temporary write protection"},
    {"file_format", 11, 10, "file format"},
}};

constexpr std::array<FieldSpec, 1> crc{{{"crc", 7, 1, "CRC7"}}};

constexpr std::array<FieldSpec, 1> sd_v2_size{{{"c_size", 69, 48, "device size, in 512 KiB units minus 1"}}};
constexpr std::array<FieldSpec, 1> sd_v3_size{{{"c_size", 75, 48, "device size, in 512 KiB units minus 1"}}};
constexpr std::array<FieldSpec, 1> mmc_spec_vers{{{"spec_vers", 125, 122, "system specification version"}}};
constexpr std::array<FieldSpec, 7> mmc_groups{{
    {"erase_grp_size", 46, 42, "erase group size"},
    {"erase_grp_mult", 41, 37, "erase group size multiplier"},
    {"wp_grp_size", 36, 32, "write protect group size, in erase groups minus 1"},
    {"wp_grp_enable", 31, 31, "write protect group enable"},
    {"default_ecc", 30, 29, "manufacturer default ECC"},
    {"content_prot_app", 16, 16, "content protection application"},
    {"ecc", 9, 8, "ECC code"},
}};

constexpr auto sd_v1 = concat(head, legacy_size, sd_erase, tail, crc);
constexpr auto sd_v2 = concat(head, sd_v2_size, sd_erase, tail, crc);
constexpr auto sd_v3 = concat(head, sd_v3_size, sd_erase, tail, crc);
constexpr auto mmc_csd_layout = concat(head, mmc_spec_vers, legacy_size, mmc_groups, tail, crc);

// TAAC and SD TRAN_SPEED share one mantissa table (value x10); 0 is reserved.
constexpr std::array<int, 16> mantissa_x10{0, 10, 12, 13, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80};
// MMC TRAN_SPEED differs in two entries: 2.6 and 5.2, so 0x32 is 26 MHz and
// 0x5a is 52 MHz (JESD84-B51 7.3.7); TAAC keeps the common table.
constexpr std::array<int, 16> mmc_tran_mantissa_x10{0, 10, 12, 13, 15, 20, 26, 30, 35, 40, 45, 52, 55, 60, 70, 80};

double taac_seconds(uint64_t taac)
{
    double unit = 1e-9;
    for (uint64_t i = 0; i < (taac & 7); ++i) unit *= 10;
    return unit * mantissa_x10[(taac >> 3) & 15] / 10.0;
}

// Bits per second; units 100 kbit/s, 1, 10, 100 Mbit/s (4-7 reserved).
int64_t tran_speed_bits(uint64_t tran_speed, CardFamily card)
{
    const auto& mantissa = card == CardFamily::mmc ? mmc_tran_mantissa_x10 : mantissa_x10;
    const uint64_t unit = tran_speed & 7;
    if (unit > 3) return 0;
    int64_t base = 100000;
    for (uint64_t i = 0; i < unit; ++i) base *= 10;
    return base * mantissa[(tran_speed >> 3) & 15] / 10;
}

void add_common(DecodedRegister& r)
{
    const double taac = taac_seconds(field_raw(r, "taac"));
    r.add("taac_ns", static_cast<int64_t>(taac * 1e9 + 0.5), "Read access time (TAAC)", seconds_text(taac));
    const auto nsac = static_cast<int64_t>(field_raw(r, "nsac")) * 100;
    r.add("nsac_clocks", nsac, "Read access clocks (NSAC)", fmt::format("{} clock cycles", nsac));
    const int64_t speed = tran_speed_bits(field_raw(r, "tran_speed"), r.card);
    r.add("tran_speed_bit_per_s", speed, "Max transfer rate", speed ? fmt::format("{} Mbit/s", speed / 1e6) : "reserved");

    IntList classes;
    const uint64_t ccc = field_raw(r, "ccc");
    for (int c = 0; c < 12; ++c)
        if (ccc & (1u << c)) classes.push_back(c);
    r.add("ccc_classes", classes, "Command classes");
    r.add("read_block_bytes", int64_t{1} << field_raw(r, "read_bl_len"), "Read block length",
          cli::format_bytes_exact(uint64_t{1} << field_raw(r, "read_bl_len")));
    r.add("write_block_bytes", int64_t{1} << field_raw(r, "write_bl_len"), "Write block length",
          cli::format_bytes_exact(uint64_t{1} << field_raw(r, "write_bl_len")));
    r.add("r2w_factor_times", int64_t{1} << field_raw(r, "r2w_factor"), "Write/read time factor",
          fmt::format("x{}", 1 << field_raw(r, "r2w_factor")));
    const bool wp = field_raw(r, "perm_write_protect") || field_raw(r, "tmp_write_protect");
    r.add("write_protected", wp, "Write protected",
          field_raw(r, "perm_write_protect") ? "yes (permanent)" : field_raw(r, "tmp_write_protect") ? "yes (temporary)" : "no");
}

// Capacity from C_SIZE, C_SIZE_MULT and READ_BL_LEN (SD CSD 1.0 and MMC).
uint64_t legacy_capacity(const DecodedRegister& r)
{
    return (field_raw(r, "c_size") + 1) << (field_raw(r, "c_size_mult") + 2 + field_raw(r, "read_bl_len"));
}

void add_capacity(DecodedRegister& r, uint64_t bytes, std::string_view key = "capacity_bytes")
{
    r.add(std::string(key), static_cast<int64_t>(bytes), "Capacity", cli::format_bytes_exact(bytes));
    r.add("capacity_512b_sectors", static_cast<int64_t>(bytes / 512), "Capacity in 512-byte sectors");
}

void decode_sd_csd(DecodedRegister& r, std::span<const uint8_t> reg)
{
    const int structure = static_cast<int>(reg[0] >> 6);
    r.fields = read_bit_fields(reg, csd_table(CardFamily::sd, structure));

    uint64_t capacity = 0;
    std::string_view version, family;
    switch (structure) {
    case 0:
        version = "1.0", family = "SDSC";
        capacity = legacy_capacity(r);
        break;
    case 1:
        version = "2.0";
        capacity = (field_raw(r, "c_size") + 1) * 512 * 1024;
        // SDHC is up to 32 GB; C_SIZE 0x00FFFF and above is SDXC (5.3.3).
        family = field_raw(r, "c_size") >= 0xffff ? "SDXC" : "SDHC";
        break;
    case 2:
        version = "3.0", family = "SDUC";
        capacity = (field_raw(r, "c_size") + 1) * 512 * 1024;
        break;
    default:
        version = "reserved";
        r.warnings.push_back("CSD_STRUCTURE 3 is reserved for SD cards; fields decoded with the 1.0 layout");
        capacity = legacy_capacity(r);
    }
    add_capacity(r, capacity);
    if (!family.empty()) r.add("capacity_class", std::string(family), "Capacity class");
    r.add("csd_version", std::string(version), "CSD version");
    add_common(r);

    const uint64_t sector_blocks = field_raw(r, "sector_size") + 1;
    const uint64_t write_block = uint64_t{1} << field_raw(r, "write_bl_len");
    r.add("erase_sector_bytes", static_cast<int64_t>(sector_blocks * write_block), "Erase sector size",
          cli::format_bytes_exact(sector_blocks * write_block));

    if (structure >= 1 && field_raw(r, "read_bl_len") != 9)
        r.warnings.push_back(fmt::format("READ_BL_LEN is {} but CSD {} fixes it at 9 (512 bytes)", field_raw(r, "read_bl_len"), version));
    if (structure >= 1 && field_raw(r, "taac") != 0x0e)
        r.warnings.push_back(fmt::format("TAAC is 0x{:02x} but CSD {} fixes it at 0x0e (1 ms)", field_raw(r, "taac"), version));

    r.summary = fmt::format("CSD {}: {} {}, {}", version, family.empty() ? "SD" : family, cli::format_bytes_exact(capacity),
                            r.find("tran_speed_bit_per_s")->text);
}

void decode_mmc_csd(DecodedRegister& r, std::span<const uint8_t> reg)
{
    r.fields = read_bit_fields(reg, csd_table(CardFamily::mmc, 0));

    static constexpr std::array<std::string_view, 5> spec_names{"1.0-1.2", "1.4", "2.0-2.2", "3.1-3.31", "4.x/5.x"};
    const uint64_t spec = field_raw(r, "spec_vers");
    r.add("spec_version", std::string(spec < spec_names.size() ? spec_names[spec] : "reserved"),
          "System specification");

    // C_SIZE 0xFFF with C_SIZE_MULT 7 marks a card over 2 GB whose size is
    // in EXT_CSD SEC_COUNT (JESD84-B51 7.3.12).
    const bool placeholder = field_raw(r, "c_size") == 0xfff && field_raw(r, "c_size_mult") == 7;
    const uint64_t capacity = legacy_capacity(r);
    r.add("capacity_bytes_from_csd", static_cast<int64_t>(capacity), "Capacity (CSD)",
          placeholder ? fmt::format("{} placeholder: the real size is in EXT_CSD SEC_COUNT", cli::format_bytes_exact(capacity))
                      : cli::format_bytes_exact(capacity));
    r.add("csd_capacity_is_placeholder", placeholder, "Capacity only in EXT_CSD");
    if (!placeholder) add_capacity(r, capacity);
    add_common(r);

    const uint64_t group_blocks = (field_raw(r, "erase_grp_size") + 1) * (field_raw(r, "erase_grp_mult") + 1);
    r.add("erase_group_size_blocks", static_cast<int64_t>(group_blocks), "Erase group size",
          fmt::format("{} write blocks ({})", group_blocks, cli::format_bytes_exact(group_blocks << field_raw(r, "write_bl_len"))));

    r.summary = fmt::format("MMC CSD, spec {}: {}", r.find("spec_version")->text,
                            placeholder ? std::string("capacity in EXT_CSD") : cli::format_bytes_exact(capacity));
}

} // namespace

std::span<const FieldSpec> csd_table(CardFamily card, int csd_structure)
{
    if (card == CardFamily::mmc) return mmc_csd_layout;
    if (csd_structure == 1) return sd_v2;
    if (csd_structure == 2) return sd_v3;
    return sd_v1;
}

DecodedRegister decode_csd(std::span<const uint8_t> reg, CardFamily card)
{
    require_size(RegKind::csd, reg);
    DecodedRegister r{RegKind::csd, card, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    if (card == CardFamily::sd)
        decode_sd_csd(r, reg);
    else
        decode_mmc_csd(r, reg);
    add_crc7_check(r);
    return r;
}

} // namespace mmc::regs
