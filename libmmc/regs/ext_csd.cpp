// EXT_CSD, the extended CSD register of eMMC devices (512 bytes).
// JESD84-B51 (eMMC 5.1), 7.4 (Extended CSD register), EXT_CSD_REV 0-8.
// Byte offsets checked against the Linux kernel's include/linux/mmc/mmc.h and
// mmc-utils' mmc.h; every field `mmc extcsd read` prints is in the table.
#include "regs/decode.h"
#include "cli/size.h"
#include "regs/units.h"
#include "regs/field_raw.h"

#include <array>
#include <cctype>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

constexpr FieldSpec byte_field(std::string_view name, int hi, int lo, std::string_view meaning)
{
    return {name, hi, lo, meaning, true};
}

// Properties segment [505:192], then modes segment [191:0], highest byte
// first as JESD84 lists them. Multi-byte fields are little-endian. Left out:
// write-only triggers (BKOPS_START 164, SANITIZE_START 165, TCASE_SUPPORT 132)
// and the fields wider than 8 bytes (VENDOR_PROPRIETARY_HEALTH_REPORT
// [301:270], VENDOR_SPECIFIC_FIELD [127:64]), which are given as hex strings.
// CONTEXT_CONF [51:37] is one byte per context ID, so it is 15 fields.
constexpr std::array ext_csd = {
    byte_field("ext_security_err", 505, 505, "extended security error code"),
    byte_field("s_cmd_set", 504, 504, "supported command sets (bit 0: standard MMC)"),
    byte_field("hpi_features", 503, 503, "HPI supported (bit 0), implemented with CMD12 (bit 1) or CMD13"),
    byte_field("bkops_support", 502, 502, "background operations supported"),
    byte_field("max_packed_reads", 501, 501, "max commands in a packed read"),
    byte_field("max_packed_writes", 500, 500, "max commands in a packed write"),
    byte_field("data_tag_support", 499, 499, "data tag supported"),
    byte_field("tag_unit_size", 498, 498, "tag unit size, log2 of sectors"),
    byte_field("tag_res_size", 497, 497, "resources for tagged data"),
    byte_field("context_capabilities", 496, 496, "max context ID and large unit multiplier"),
    byte_field("large_unit_size_m1", 495, 495, "large unit size in MiB, minus 1"),
    byte_field("ext_support", 494, 494, "extended partition attributes supported"),
    byte_field("supported_modes", 493, 493, "FFU (bit 0) and vendor specific mode (bit 1) supported"),
    byte_field("ffu_features", 492, 492, "FFU features"),
    byte_field("operation_codes_timeout", 491, 491, "mode operation codes timeout, 100 us x 2^n"),
    byte_field("ffu_arg", 490, 487, "argument for FFU data writes"),
    byte_field("barrier_support", 486, 486, "cache barrier supported"),
    byte_field("cmdq_support", 308, 308, "command queuing supported"),
    byte_field("cmdq_depth", 307, 307, "command queue depth, minus 1 (bits 4:0)"),
    byte_field("number_of_fw_sectors_correctly_programmed", 305, 302, "firmware sectors programmed in FFU"),
    byte_field("device_life_time_est_typ_b", 269, 269, "life time used, type B memory, 10% steps"),
    byte_field("device_life_time_est_typ_a", 268, 268, "life time used, type A memory, 10% steps"),
    byte_field("pre_eol_info", 267, 267, "reserved blocks consumed: normal, warning, urgent"),
    byte_field("optimal_read_size", 266, 266, "optimal read size, 4 KiB units"),
    byte_field("optimal_write_size", 265, 265, "optimal write size, 4 KiB units"),
    byte_field("optimal_trim_unit_size", 264, 264, "optimal trim unit, 4 KiB x 2^(n-1)"),
    byte_field("device_version", 263, 262, "device version (vendor defined)"),
    byte_field("firmware_version", 261, 254, "firmware version (vendor defined)"),
    byte_field("pwr_cl_ddr_200_360", 253, 253, "power class, HS400 at VCC 3.6 V"),
    byte_field("cache_size", 252, 249, "volatile cache size"),
    byte_field("generic_cmd6_time", 248, 248, "default CMD6 timeout, 10 ms units"),
    byte_field("power_off_long_time", 247, 247, "long power-off notification timeout, 10 ms units"),
    byte_field("bkops_status", 246, 246, "background operations urgency"),
    byte_field("correctly_prg_sectors_num", 245, 242, "sectors programmed before an aborted reliable write"),
    byte_field("ini_timeout_ap", 241, 241, "first init timeout after partitioning, 100 ms units"),
    byte_field("cache_flush_policy", 240, 240, "cache flushed in FIFO order (bit 0)"),
    byte_field("pwr_cl_ddr_52_360", 239, 239, "power class, DDR 52 MHz at VCC 3.6 V"),
    byte_field("pwr_cl_ddr_52_195", 238, 238, "power class, DDR 52 MHz at VCC 1.95 V"),
    byte_field("pwr_cl_200_360", 237, 237, "power class, 200 MHz at VCC 3.6 V"),
    byte_field("pwr_cl_200_195", 236, 236, "power class, 200 MHz at VCC 1.95 V"),
    byte_field("min_perf_ddr_w_8_52", 235, 235, "min write performance, 8 bit DDR 52 MHz"),
    byte_field("min_perf_ddr_r_8_52", 234, 234, "min read performance, 8 bit DDR 52 MHz"),
    byte_field("trim_mult", 232, 232, "TRIM timeout, 300 ms units"),
    byte_field("sec_feature_support", 231, 231, "secure erase/trim, bad block, GC, sanitize support"),
    byte_field("sec_erase_mult", 230, 230, "secure erase timeout, in erase timeouts"),
    byte_field("sec_trim_mult", 229, 229, "secure TRIM timeout, in erase timeouts"),
    byte_field("boot_info", 228, 228, "alternative, DDR and high speed boot supported"),
    byte_field("boot_size_mult", 226, 226, "boot partition size, 128 KiB units"),
    byte_field("acc_size", 225, 225, "access size, 512 bytes x 2^(n-1)"),
    byte_field("hc_erase_grp_size", 224, 224, "high-capacity erase unit size, 512 KiB units"),
    byte_field("erase_timeout_mult", 223, 223, "high-capacity erase timeout, 300 ms units"),
    byte_field("rel_wr_sec_c", 222, 222, "reliable write sector count"),
    byte_field("hc_wp_grp_size", 221, 221, "high-capacity write protect group, in erase units"),
    byte_field("s_c_vcc", 220, 220, "sleep current on VCC, 1 uA x 2^n"),
    byte_field("s_c_vccq", 219, 219, "sleep current on VCCQ, 1 uA x 2^n"),
    byte_field("production_state_awareness_timeout", 218, 218, "production state awareness timeout, 100 us x 2^n"),
    byte_field("s_a_timeout", 217, 217, "sleep/awake timeout, 100 ns x 2^n"),
    byte_field("sleep_notification_time", 216, 216, "sleep notification timeout, 10 us x 2^n"),
    byte_field("sec_count", 215, 212, "device density, 512-byte sectors"),
    byte_field("secure_wp_info", 211, 211, "secure write protect supported (bit 0), enabled (bit 1)"),
    byte_field("min_perf_w_8_52", 210, 210, "min write performance, 8 bit 52 MHz"),
    byte_field("min_perf_r_8_52", 209, 209, "min read performance, 8 bit 52 MHz"),
    byte_field("min_perf_w_8_26_4_52", 208, 208, "min write performance, 8 bit 26 MHz / 4 bit 52 MHz"),
    byte_field("min_perf_r_8_26_4_52", 207, 207, "min read performance, 8 bit 26 MHz / 4 bit 52 MHz"),
    byte_field("min_perf_w_4_26", 206, 206, "min write performance, 4 bit 26 MHz"),
    byte_field("min_perf_r_4_26", 205, 205, "min read performance, 4 bit 26 MHz"),
    byte_field("pwr_cl_26_360", 203, 203, "power class, 26 MHz at VCC 3.6 V"),
    byte_field("pwr_cl_52_360", 202, 202, "power class, 52 MHz at VCC 3.6 V"),
    byte_field("pwr_cl_26_195", 201, 201, "power class, 26 MHz at VCC 1.95 V"),
    byte_field("pwr_cl_52_195", 200, 200, "power class, 52 MHz at VCC 1.95 V"),
    byte_field("partition_switch_time", 199, 199, "partition switch timeout, 10 ms units"),
    byte_field("out_of_interrupt_time", 198, 198, "out-of-interrupt busy timeout, 10 ms units"),
    byte_field("driver_strength", 197, 197, "I/O driver strength types supported (bit n: type n)"),
    byte_field("device_type", 196, 196, "bus speed modes supported (CARD_TYPE before 4.5)"),
    byte_field("csd_structure", 194, 194, "CSD structure version"),
    byte_field("ext_csd_rev", 192, 192, "EXT_CSD revision"),
    byte_field("cmd_set", 191, 191, "command set in use"),
    byte_field("cmd_set_rev", 189, 189, "command set revision"),
    byte_field("power_class", 187, 187, "power class selected"),
    byte_field("hs_timing", 185, 185, "timing interface (bits 3:0), driver strength (bits 7:4)"),
    byte_field("strobe_support", 184, 184, "enhanced strobe supported (HS400)"),
    byte_field("bus_width", 183, 183, "bus width and DDR selected; bit 7 enhanced strobe (write-only)"),
    byte_field("erased_mem_cont", 181, 181, "erased memory reads as 0x00 (0) or 0xff (1)"),
    byte_field("partition_config", 179, 179, "boot ack, boot partition enable, partition access"),
    byte_field("boot_config_prot", 178, 178, "PARTITION_CONFIG protection"),
    byte_field("boot_bus_conditions", 177, 177, "boot bus width and timing"),
    byte_field("erase_group_def", 175, 175, "high-capacity erase and write protect groups enabled"),
    byte_field("boot_wp_status", 174, 174, "boot area write protection status"),
    byte_field("boot_wp", 173, 173, "boot area write protection"),
    byte_field("user_wp", 171, 171, "user area write protection"),
    byte_field("fw_config", 169, 169, "firmware update disabled (bit 0)"),
    byte_field("rpmb_size_mult", 168, 168, "RPMB partition size, 128 KiB units"),
    byte_field("wr_rel_set", 167, 167, "reliable writes for user area (bit 0) and GP partitions"),
    byte_field("wr_rel_param", 166, 166, "write reliability parameters"),
    byte_field("bkops_en", 163, 163, "background operations enabled: manual (bit 0), auto (bit 1)"),
    byte_field("rst_n_function", 162, 162, "hardware reset signal function"),
    byte_field("hpi_mgmt", 161, 161, "HPI enabled"),
    byte_field("partitioning_support", 160, 160, "partitioning, enhanced and extended attributes supported"),
    byte_field("max_enh_size_mult", 159, 157, "max enhanced area size, in write protect groups"),
    byte_field("partitions_attribute", 156, 156, "enhanced attribute of user area (bit 0) and GP partitions"),
    byte_field("partition_setting_completed", 155, 155, "partition configuration completed"),
    byte_field("gp_size_mult_4", 154, 152, "general purpose partition 4 size, in write protect groups"),
    byte_field("gp_size_mult_3", 151, 149, "general purpose partition 3 size, in write protect groups"),
    byte_field("gp_size_mult_2", 148, 146, "general purpose partition 2 size, in write protect groups"),
    byte_field("gp_size_mult_1", 145, 143, "general purpose partition 1 size, in write protect groups"),
    byte_field("enh_size_mult", 142, 140, "enhanced user data area size, in write protect groups"),
    byte_field("enh_start_addr", 139, 136, "enhanced user data area start address"),
    byte_field("sec_bad_blk_mgmnt", 134, 134, "secure bad block management enabled"),
    byte_field("production_state_awareness", 133, 133, "production state awareness state"),
    byte_field("periodic_wakeup", 131, 131, "periodic wake-up period and unit"),
    byte_field("program_cid_csd_ddr_support", 130, 130, "CMD26/CMD27 allowed in DDR mode"),
    byte_field("native_sector_size", 63, 63, "native sector size: 512 bytes (0) or 4 KiB (1)"),
    byte_field("use_native_sector", 62, 62, "use native sector size instead of 512-byte emulation"),
    byte_field("data_sector_size", 61, 61, "data sector size: 512 bytes (0) or 4 KiB (1)"),
    byte_field("ini_timeout_emu", 60, 60, "first init timeout after disabling emulation, 100 ms units"),
    byte_field("class_6_ctrl", 59, 59, "class 6 commands: write protect (0) or dynamic capacity (1)"),
    byte_field("dyncap_needed", 58, 58, "write protect groups to release (dynamic capacity)"),
    byte_field("exception_events_ctrl", 57, 56, "exception events enabled"),
    byte_field("exception_events_status", 55, 54, "exception events pending"),
    byte_field("ext_partitions_attribute", 53, 52, "extended attribute of each GP partition, 4 bits each"),
    byte_field("context_conf_15", 51, 51, "context 15 configuration"),
    byte_field("context_conf_14", 50, 50, "context 14 configuration"),
    byte_field("context_conf_13", 49, 49, "context 13 configuration"),
    byte_field("context_conf_12", 48, 48, "context 12 configuration"),
    byte_field("context_conf_11", 47, 47, "context 11 configuration"),
    byte_field("context_conf_10", 46, 46, "context 10 configuration"),
    byte_field("context_conf_9", 45, 45, "context 9 configuration"),
    byte_field("context_conf_8", 44, 44, "context 8 configuration"),
    byte_field("context_conf_7", 43, 43, "context 7 configuration"),
    byte_field("context_conf_6", 42, 42, "context 6 configuration"),
    byte_field("context_conf_5", 41, 41, "context 5 configuration"),
    byte_field("context_conf_4", 40, 40, "context 4 configuration"),
    byte_field("context_conf_3", 39, 39, "context 3 configuration"),
    byte_field("context_conf_2", 38, 38, "context 2 configuration"),
    byte_field("context_conf_1", 37, 37, "context 1 configuration"),
    byte_field("packed_command_status", 36, 36, "packed command error (bit 0), indexed error (bit 1)"),
    byte_field("packed_failure_index", 35, 35, "index of the failed packed command"),
    byte_field("power_off_notification", 34, 34, "power-off notification state"),
    byte_field("cache_ctrl", 33, 33, "cache enabled"),
    byte_field("flush_cache", 32, 32, "flush cache (bit 0), barrier (bit 1); write-only"),
    byte_field("barrier_ctrl", 31, 31, "cache barrier enabled"),
    byte_field("mode_config", 30, 30, "mode: normal (0), FFU (1), vendor specific (0x10)"),
    byte_field("mode_operation_codes", 29, 29, "operation code for the current mode; write-only"),
    byte_field("ffu_status", 26, 26, "FFU result"),
    byte_field("pre_loading_data_size", 25, 22, "data to preload before soldering, in sectors"),
    byte_field("max_pre_loading_data_size", 21, 18, "max data that may be preloaded, in sectors"),
    byte_field("product_state_awareness_enablement", 17, 17, "production state awareness modes and enable"),
    byte_field("secure_removal_type", 16, 16, "supported (bits 3:0) and configured (bits 5:4) removal type"),
    byte_field("cmdq_mode_en", 15, 15, "command queuing enabled"),
};

constexpr uint64_t kib = 1024;

int64_t as_int(uint64_t v) { return static_cast<int64_t>(v); }

void add_bytes(DecodedRegister& r, std::string key, uint64_t bytes, std::string label)
{
    r.add(std::move(key), as_int(bytes), std::move(label), cli::format_bytes_exact(bytes));
}

void add_ms(DecodedRegister& r, std::string key, uint64_t ms, std::string label)
{
    r.add(std::move(key), as_int(ms), std::move(label), ms ? fmt::format("{} ms", ms) : "not defined");
}

// Names of the set bits; names[i] belongs to bit i, empty names are skipped.
template <std::size_t N>
StringList bit_names(uint64_t value, const std::array<std::string_view, N>& names)
{
    StringList out;
    for (std::size_t i = 0; i < N; ++i)
        if (!names[i].empty() && (value >> i & 1)) out.emplace_back(names[i]);
    return out;
}

std::string list_text(const StringList& l) { return l.empty() ? "none" : value_text(l); }

// MMC specification each EXT_CSD_REV belongs to (JESD84-B51 EXT_CSD_REV).
std::string mmc_version(uint64_t rev)
{
    static constexpr std::array<std::string_view, 9> names{"4.0", "4.1", "4.2", "4.3", "obsolete", "4.41",
                                                           "4.5/4.51", "5.0/5.01", "5.1/5.1A"};
    return rev < names.size() ? std::string(names[rev]) : "unknown";
}

// DEVICE_LIFE_TIME_EST_TYP_A/B: 1-10 are 10% steps, 11 means exceeded.
std::string life_time_text(uint64_t v)
{
    if (v == 0) return "not defined";
    if (v <= 0x0a) return fmt::format("{}%-{}% device life time used", (v - 1) * 10, v * 10);
    if (v == 0x0b) return "exceeded its maximum estimated device life time";
    return "reserved";
}

std::string life_time_short(uint64_t v)
{
    if (v == 0) return "not defined";
    if (v <= 0x0a) return fmt::format("{}-{}%", (v - 1) * 10, v * 10);
    if (v == 0x0b) return "exceeded";
    return "reserved";
}

std::string pre_eol_text(uint64_t v)
{
    static constexpr std::array<std::string_view, 4> names{"not defined", "normal",
                                                           "warning: 80% of reserved blocks consumed", "urgent"};
    return v < names.size() ? std::string(names[v]) : "reserved";
}

// Boot area write protection of one area in BOOT_WP_STATUS (2 bits).
std::string_view boot_area_wp(uint64_t v)
{
    static constexpr std::array<std::string_view, 4> names{"not protected", "power-on protected",
                                                           "permanently protected", "reserved"};
    return names[v & 3];
}

void add_identity(DecodedRegister& r)
{
    const uint64_t rev = field_raw(r, "ext_csd_rev");
    r.add("mmc_version", mmc_version(rev), "MMC version",
          fmt::format("{} (EXT_CSD rev 1.{})", mmc_version(rev), rev));
    static constexpr std::array<std::string_view, 3> csd_versions{"1.0", "1.1", "1.2"};
    const uint64_t csd = field_raw(r, "csd_structure");
    r.add("csd_structure_version", std::string(csd < 3 ? csd_versions[csd] : "reserved"), "CSD structure version");

    const uint64_t sectors = field_raw(r, "sec_count");
    const bool in_csd = rev < 2 || sectors == 0;
    r.add("capacity_in_csd", in_csd, "Capacity only in CSD",
          in_csd ? "yes: SEC_COUNT is 0 or EXT_CSD predates rev 1.2, read C_SIZE in the CSD" : "no");
    if (!in_csd) {
        add_bytes(r, "capacity_bytes", sectors * 512, "Capacity");
        r.add("capacity_512b_sectors", as_int(sectors), "Capacity in 512-byte sectors");
        // Devices over 2 GiB are sector addressed (JESD84-B51 6.2.4).
        r.add("block_addressed", sectors > (uint64_t{2} << 30) / 512, "Sector addressed");
    }

    std::string fw_hex, fw_ascii;
    bool printable = true;
    for (int i = 254; i <= 261; ++i) {
        const uint8_t b = r.bytes[static_cast<std::size_t>(i)];
        fw_hex += fmt::format("{:02x}", b);
        if (b == 0) continue;
        if (!std::isprint(b)) printable = false;
        fw_ascii += static_cast<char>(b);
    }
    r.add("firmware_version_hex", fw_hex, "Firmware version (bytes 254-261)");
    if (printable && !fw_ascii.empty()) r.add("firmware_version_ascii", fw_ascii, "Firmware version as text");
    r.add("device_version_hex", fmt::format("{:04x}", field_raw(r, "device_version")), "Device version");
}

void add_bus(DecodedRegister& r)
{
    static constexpr std::array<std::string_view, 8> modes{"HS26",       "HS52",       "DDR52_1.8V/3V", "DDR52_1.2V",
                                                           "HS200_1.8V", "HS200_1.2V", "HS400_1.8V",    "HS400_1.2V"};
    const StringList types = bit_names(field_raw(r, "device_type"), modes);
    r.add("device_type_modes", types, "Bus speed modes", list_text(types));

    static constexpr std::array<std::string_view, 4> timings{"backwards compatible", "high speed", "HS200", "HS400"};
    const uint64_t hs = field_raw(r, "hs_timing");
    r.add("hs_timing_text", std::string((hs & 15) < 4 ? timings[hs & 15] : "reserved"), "Timing interface");
    if (hs >> 4) r.add("hs_timing_driver_strength", as_int(hs >> 4), "Selected driver strength");

    const uint64_t width = field_raw(r, "bus_width");
    std::string text;
    switch (width & 15) {
    case 0: text = "1 bit"; break;
    case 1: text = "4 bit"; break;
    case 2: text = "8 bit"; break;
    case 5: text = "4 bit DDR"; break;
    case 6: text = "8 bit DDR"; break;
    default: text = "reserved";
    }
    if (width & 0x80) text += ", enhanced strobe";
    r.add("bus_width_text", text, "Bus width");

    IntList strengths;
    for (int i = 0; i < 8; ++i)
        if (field_raw(r, "driver_strength") >> i & 1) strengths.push_back(i);
    r.add("driver_strength_types", strengths, "Driver strength types supported");
}

void add_partitions(DecodedRegister& r)
{
    add_bytes(r, "boot_partition_bytes", field_raw(r, "boot_size_mult") * 128 * kib, "Boot partition size (each)");
    add_bytes(r, "rpmb_bytes", field_raw(r, "rpmb_size_mult") * 128 * kib, "RPMB partition size");
    const uint64_t erase_group = field_raw(r, "hc_erase_grp_size") * 512 * kib;
    const uint64_t wp_group = erase_group * field_raw(r, "hc_wp_grp_size");
    add_bytes(r, "hc_erase_group_bytes", erase_group, "High-capacity erase unit");
    add_bytes(r, "hc_wp_group_bytes", wp_group, "High-capacity write protect group");
    add_bytes(r, "max_enh_size_bytes", field_raw(r, "max_enh_size_mult") * wp_group, "Max enhanced area size");
    add_bytes(r, "enh_size_bytes", field_raw(r, "enh_size_mult") * wp_group, "Enhanced user data area size");
    // ENH_START_ADDR is in bytes on byte-addressed devices, sectors otherwise.
    const auto* addressed = r.find("block_addressed");
    const bool sectors = addressed && std::get<bool>(addressed->value);
    add_bytes(r, "enh_start_bytes", field_raw(r, "enh_start_addr") * (sectors ? 512 : 1), "Enhanced area start");
    IntList gp;
    std::string gp_text;
    for (int i = 1; i <= 4; ++i) {
        const uint64_t bytes = field_raw(r, fmt::format("gp_size_mult_{}", i)) * wp_group;
        gp.push_back(as_int(bytes));
        gp_text += fmt::format("{}GP{} {}", i > 1 ? ", " : "", i, bytes ? cli::format_bytes_exact(bytes) : "none");
    }
    r.add("gp_partition_bytes", gp, "General purpose partitions", gp_text);

    static constexpr std::array<std::string_view, 3> support{"partitioning_en", "enh_attribute_en", "ext_attribute_en"};
    const StringList flags = bit_names(field_raw(r, "partitioning_support"), support);
    r.add("partitioning_support_flags", flags, "Partitioning support", list_text(flags));

    const uint64_t config = field_raw(r, "partition_config");
    r.add("boot_ack", bool(config >> 6 & 1), "Boot acknowledge");
    static constexpr std::array<std::string_view, 8> enable{"not enabled", "boot0",    "boot1",    "reserved",
                                                            "reserved",    "reserved", "reserved", "user"};
    r.add("boot_partition_enable", std::string(enable[config >> 3 & 7]), "Boot partition enabled");
    static constexpr std::array<std::string_view, 8> access{"user", "boot0", "boot1", "rpmb",
                                                            "gp1",  "gp2",   "gp3",   "gp4"};
    r.add("partition_access", std::string(access[config & 7]), "Partition accessed");

    const uint64_t wp = field_raw(r, "boot_wp_status");
    r.add("boot_wp_status_text", fmt::format("boot0 {}, boot1 {}", boot_area_wp(wp), boot_area_wp(wp >> 2)),
          "Boot area write protection");

    static constexpr std::array<std::string_view, 3> boot{"alt_boot_mode", "ddr_boot_mode", "hs_boot_mode"};
    const StringList boot_flags = bit_names(field_raw(r, "boot_info"), boot);
    r.add("boot_info_flags", boot_flags, "Boot modes supported", list_text(boot_flags));
}

void add_ext_csd_erase(DecodedRegister& r)
{
    const uint64_t erase_ms = 300 * field_raw(r, "erase_timeout_mult");
    add_ms(r, "erase_timeout_ms", erase_ms, "High-capacity erase timeout");
    add_ms(r, "trim_timeout_ms", 300 * field_raw(r, "trim_mult"), "TRIM timeout");
    // Secure erase/trim timeouts are multiples of the erase timeout.
    add_ms(r, "sec_erase_timeout_ms", erase_ms * field_raw(r, "sec_erase_mult"), "Secure erase timeout");
    add_ms(r, "sec_trim_timeout_ms", erase_ms * field_raw(r, "sec_trim_mult"), "Secure TRIM timeout");

    static constexpr std::array<std::string_view, 7> sec{"secure_er_en", "", "sec_bd_blk_en", "", "sec_gb_cl_en",
                                                         "",             "sec_sanitize"};
    const StringList flags = bit_names(field_raw(r, "sec_feature_support"), sec);
    r.add("sec_feature_flags", flags, "Secure features", list_text(flags));

    static constexpr std::array<std::string_view, 4> removal{
        "erase", "overwrite then erase", "overwrite, complement, then random", "vendor defined"};
    const uint64_t type = field_raw(r, "secure_removal_type");
    const StringList supported = bit_names(type, removal);
    r.add("secure_removal_supported", supported, "Secure removal types supported", list_text(supported));
    r.add("secure_removal_configured", std::string(removal[type >> 4 & 3]), "Secure removal type configured");
}

void add_timing(DecodedRegister& r)
{
    add_ms(r, "generic_cmd6_time_ms", 10 * field_raw(r, "generic_cmd6_time"), "Default CMD6 timeout");
    add_ms(r, "power_off_long_time_ms", 10 * field_raw(r, "power_off_long_time"), "Long power-off timeout");
    add_ms(r, "partition_switch_time_ms", 10 * field_raw(r, "partition_switch_time"), "Partition switch timeout");
    add_ms(r, "out_of_interrupt_time_ms", 10 * field_raw(r, "out_of_interrupt_time"), "Out-of-interrupt timeout");
    add_ms(r, "ini_timeout_ap_ms", 100 * field_raw(r, "ini_timeout_ap"), "Init timeout after partitioning");
    // Exponential timeouts are defined up to 0x17; larger values are reserved.
    const uint64_t sa = field_raw(r, "s_a_timeout");
    if (sa > 0 && sa <= 0x17)
        r.add("sleep_awake_timeout_ns", as_int(uint64_t{100} << sa), "Sleep/awake timeout",
              seconds_text(static_cast<double>(uint64_t{100} << sa) * 1e-9));
    const uint64_t sn = field_raw(r, "sleep_notification_time");
    if (sn > 0 && sn <= 0x17)
        r.add("sleep_notification_time_us", as_int(uint64_t{10} << sn), "Sleep notification timeout",
              seconds_text(static_cast<double>(uint64_t{10} << sn) * 1e-6));
}

void add_features(DecodedRegister& r)
{
    // CACHE_SIZE: JESD84-B51 writes "CACHE_SIZE x 1 kb", read here as KiB like
    // the Linux kernel and the test corpus; mmc-utils divides by 8 (kilobits).
    const uint64_t cache = field_raw(r, "cache_size");
    r.add("cache_size_kib", as_int(cache), "Cache size", cache ? cli::format_bytes_exact(cache * kib) : "no cache");
    r.add("cache_enabled", bool(field_raw(r, "cache_ctrl") & 1), "Cache enabled");

    const bool cmdq = field_raw(r, "cmdq_support") & 1;
    r.add("cmdq_supported", cmdq, "Command queuing supported");
    if (cmdq) r.add("cmdq_depth", as_int((field_raw(r, "cmdq_depth") & 0x1f) + 1), "Command queue depth");

    const uint64_t hpi = field_raw(r, "hpi_features");
    r.add("hpi_text", std::string(!(hpi & 1) ? "not supported" : (hpi & 2) ? "supported, uses CMD12" : "supported, uses CMD13"),
          "High priority interrupt");
    static constexpr std::array<std::string_view, 4> bkops{"no operations required", "operations outstanding (non critical)",
                                                           "operations outstanding (performance impacted)",
                                                           "operations outstanding (critical)"};
    r.add("bkops_status_text", std::string(bkops[field_raw(r, "bkops_status") & 3]), "Background operations status");
    static constexpr std::array<std::string_view, 5> notification{"none", "powered on", "power-off short",
                                                                  "power-off long", "sleep notification"};
    const uint64_t pon = field_raw(r, "power_off_notification");
    r.add("power_off_notification_text", std::string(pon < 5 ? notification[pon] : "reserved"), "Power-off notification");
    static constexpr std::array<std::string_view, 4> reset{"temporarily disabled", "permanently enabled",
                                                           "permanently disabled", "reserved"};
    r.add("rst_n_function_text", std::string(reset[field_raw(r, "rst_n_function") & 3]), "Hardware reset (RST_n)");
    r.add("data_sector_bytes", as_int(field_raw(r, "data_sector_size") & 1 ? 4096 : 512), "Data sector size");
    r.add("native_sector_bytes", as_int(field_raw(r, "native_sector_size") & 1 ? 4096 : 512), "Native sector size");
}

void add_health(DecodedRegister& r)
{
    const uint64_t a = field_raw(r, "device_life_time_est_typ_a");
    const uint64_t b = field_raw(r, "device_life_time_est_typ_b");
    r.add("device_life_time_est_typ_a_text", life_time_text(a), "Life time used, type A");
    r.add("device_life_time_est_typ_b_text", life_time_text(b), "Life time used, type B");
    r.add("pre_eol_text", pre_eol_text(field_raw(r, "pre_eol_info")), "Pre-EOL information");

    auto hex = [&r](int lo, int hi) {
        std::string s;
        for (int i = lo; i <= hi; ++i) s += fmt::format("{:02x}", r.bytes[static_cast<std::size_t>(i)]);
        return s;
    };
    r.add("vendor_proprietary_health_report_hex", hex(270, 301), "Vendor health report (bytes 270-301)");
    r.add("vendor_specific_field_hex", hex(64, 127), "Vendor specific field (bytes 64-127)");
}

void add_warnings(DecodedRegister& r)
{
    auto& w = r.warnings;
    const uint64_t rev = field_raw(r, "ext_csd_rev");
    if (rev > 8) w.push_back(fmt::format("EXT_CSD_REV {} is newer than JESD84-B51 (rev 8); decoded with the 5.1 layout", rev));
    if (rev == 4) w.push_back("EXT_CSD_REV 4 is an obsolete revision");
    if (field_raw(r, "csd_structure") > 2) w.push_back(fmt::format("CSD_STRUCTURE {} is reserved", field_raw(r, "csd_structure")));

    const uint64_t types = field_raw(r, "device_type");
    const uint64_t timing = field_raw(r, "hs_timing") & 15;
    if (timing == 1 && !(types & 0x03)) w.push_back("HS_TIMING selects high speed but DEVICE_TYPE lists neither HS26 nor HS52");
    if (timing == 2 && !(types & 0x30)) w.push_back("HS_TIMING selects HS200 but DEVICE_TYPE lists no HS200 mode");
    if (timing == 3 && !(types & 0xc0)) w.push_back("HS_TIMING selects HS400 but DEVICE_TYPE lists no HS400 mode");
    if ((field_raw(r, "bus_width") & 0x80) && !(field_raw(r, "strobe_support") & 1))
        w.push_back("BUS_WIDTH enables enhanced strobe but STROBE_SUPPORT is 0");

    if (!(field_raw(r, "cmdq_support") & 1)) {
        if (field_raw(r, "cmdq_depth")) w.push_back(fmt::format("CMDQ_DEPTH is {} but CMDQ_SUPPORT is 0", field_raw(r, "cmdq_depth")));
        if (field_raw(r, "cmdq_mode_en") & 1) w.push_back("CMDQ_MODE_EN is set but CMDQ_SUPPORT is 0");
    }
    if ((field_raw(r, "cache_ctrl") & 1) && field_raw(r, "cache_size") == 0) w.push_back("CACHE_CTRL enables a cache but CACHE_SIZE is 0");
    if ((field_raw(r, "erase_group_def") & 1) && field_raw(r, "hc_erase_grp_size") == 0)
        w.push_back("ERASE_GROUP_DEF selects high-capacity erase groups but HC_ERASE_GRP_SIZE is 0");
    if (field_raw(r, "device_life_time_est_typ_a") > 0x0b || field_raw(r, "device_life_time_est_typ_b") > 0x0b)
        w.push_back("DEVICE_LIFE_TIME_EST_TYP_A/B holds a reserved value");
    if (field_raw(r, "pre_eol_info") > 3) w.push_back(fmt::format("PRE_EOL_INFO {} is reserved", field_raw(r, "pre_eol_info")));
    if (field_raw(r, "pre_eol_info") == 3) w.push_back("PRE_EOL_INFO is urgent: reserved blocks are nearly exhausted");
    if (field_raw(r, "device_life_time_est_typ_a") == 0x0b || field_raw(r, "device_life_time_est_typ_b") == 0x0b)
        w.push_back("device life time estimate exceeded");
}

std::string top_speed(uint64_t types)
{
    if (types & 0xc0) return "HS400 capable";
    if (types & 0x30) return "HS200 capable";
    if (types & 0x0c) return "DDR52 capable";
    if (types & 0x02) return "HS52 capable";
    if (types & 0x01) return "HS26 capable";
    return "no high speed mode";
}

std::string ext_csd_summary(const DecodedRegister& r)
{
    const uint64_t rev = field_raw(r, "ext_csd_rev");
    const std::string version = mmc_version(rev);
    std::string s = rev == 4 || rev > 8 ? fmt::format("eMMC (EXT_CSD rev {}, {}): ", rev, version)
                                        : fmt::format("eMMC {} (EXT_CSD rev {}): ", version.substr(0, version.find('/')), rev);
    if (const auto* cap = r.find("capacity_bytes"))
        s += cli::format_bytes(static_cast<uint64_t>(std::get<int64_t>(cap->value)));
    else
        s += "capacity in CSD";
    s += ", " + top_speed(field_raw(r, "device_type"));
    if (rev >= 7)
        s += fmt::format(", life used A {} B {}", life_time_short(field_raw(r, "device_life_time_est_typ_a")),
                         life_time_short(field_raw(r, "device_life_time_est_typ_b")));
    return s;
}

} // namespace

std::span<const FieldSpec> ext_csd_table() { return ext_csd; }

DecodedRegister decode_ext_csd(std::span<const uint8_t> reg)
{
    require_size(RegKind::ext_csd, reg);
    DecodedRegister r{RegKind::ext_csd, CardFamily::mmc, {reg.begin(), reg.end()}, {}, {}, {}, {}};
    r.fields = read_byte_fields(reg, ext_csd);
    add_identity(r);
    add_bus(r);
    add_partitions(r);
    add_ext_csd_erase(r);
    add_timing(r);
    add_features(r);
    add_health(r);
    add_warnings(r);
    r.summary = ext_csd_summary(r);
    return r;
}

} // namespace mmc::regs
