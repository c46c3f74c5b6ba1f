// What a user asks mmc-tune emmc to set, by name and value, before anything
// is known about the device: the options' values parsed and checked for
// form only (the device's support and sizes are the planner's, plan.h).
// Pure.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::tune {

// The settings mmc-tune emmc takes, by identity: the library
// decides and words by these, and the front end (tools/mmc-tune/emmc.cpp)
// names each by the option that asks for it, so that no library file spells
// an option. permanent: the request's qualifier that means a one-time
// change; partitioning: the partitioning as a whole (its completion), which
// no one option asks for.
enum class Setting { volatile_cache, bkops, boot_partition, boot_ack, boot_bus, rst_n, boot_wp, enhanced_area, gp,
                     write_reliability, sanitize, permanent, partitioning, extcsd_write, sector_emulation };

// What asked for a change, a refusal or a row: a setting, two given
// together (`with`: the boot partition and its acknowledgement), or one
// general-purpose partition (gp: `partition`, 1-4).
struct SettingName {
    Setting setting = Setting::partitioning;
    std::optional<Setting> with = std::nullopt;
    int partition = 0;
    SettingName() = default;
    SettingName(Setting s, std::optional<Setting> w = std::nullopt, int part = 0) : setting(s), with(w), partition(part) {}
    bool operator==(const SettingName&) const = default;
};

// The front end's names for them: "--volatile-cache", "--gp 2",
// "--boot-partition/--boot-ack".
using SettingNames = std::function<std::string(const SettingName&)>;

// A setting named inside the library's words (a note, a refusal's reason,
// a value's error): a mark that named() replaces with the front end's name.
std::string mention(const SettingName& s);
// The words with each mention named.
std::string named(std::string_view words, const SettingNames& names);

// A value an option does not take; the message (with mentions) names the
// option and what it takes ("--volatile-cache maybe: expected on or off").
struct SettingError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

enum class Bkops { off, automatic, manual };
// PARTITION_CONFIG BOOT_PARTITION_ENABLE [5:3]: 0 none, 1 boot0, 2 boot1, 7 user.
enum class BootPartition { none = 0, boot1 = 1, boot2 = 2, user = 7 };
enum class BootMode { sdr = 0, sdr_hs = 1, ddr = 2 }; // BOOT_BUS_CONDITIONS BOOT_MODE [4:3]
enum class BootWp { power_on, permanent };

struct BootBus {
    int width = 1; // 1, 4 or 8 bits
    BootMode mode = BootMode::sdr;
    // RESET_BOOT_BUS_CONDITIONS: keep the boot bus after boot (true) or
    // fall back to 1 bit SDR (false); none: as the device has it.
    std::optional<bool> retain = std::nullopt;
    bool operator==(const BootBus&) const = default;
};

// An area of the user partition, in bytes.
struct Area {
    uint64_t offset = 0;
    uint64_t size = 0;
    bool operator==(const Area&) const = default;
};

// One byte of the modes segment written as given (--extcsd-write).
struct RawWrite {
    int index = 0;
    uint8_t value = 0;
    bool operator==(const RawWrite&) const = default;
};

// WR_REL_SET bits: 0 the user area, 1-4 GP1-GP4.
enum class RelPart { user = 0, gp1 = 1, gp2 = 2, gp3 = 3, gp4 = 4 };

struct Request {
    std::optional<bool> cache;
    std::optional<Bkops> bkops;
    std::optional<BootPartition> boot_partition;
    std::optional<bool> boot_ack;
    std::optional<BootBus> boot_bus;
    std::optional<bool> rst_n;
    std::optional<BootWp> boot_wp;
    int boot_wp_area = 0; // with boot_wp: 1 or 2, that boot partition alone; 0 both
    std::optional<Area> enhanced_area;
    std::array<std::optional<uint64_t>, 4> gp{}; // bytes, GP1..GP4
    std::vector<RelPart> write_reliability;
    bool sanitize = false;
    std::vector<RawWrite> extcsd_writes;       // emmc_extra.h
    std::optional<bool> sector_emulation;      // 512-byte emulation (USE_NATIVE_SECTOR off: on)
    bool permanent = false; // --permanent: one-time changes are meant

    bool empty() const;
    bool partitions() const; // any setting that is part of the one-time partitioning
};

// Parsers of the options' values; each throws SettingError mentioning the setting.
bool parse_on_off(Setting setting, std::string_view value);
Bkops parse_bkops(std::string_view value);
BootPartition parse_boot_partition(std::string_view value);
BootBus parse_boot_bus(std::string_view value);
BootWp parse_boot_wp(std::string_view value);
Area parse_area(std::string_view value);                        // "OFFSET,SIZE" with size suffixes
std::pair<int, uint64_t> parse_gp(std::string_view value);       // "N,SIZE", N 1-4
std::vector<RelPart> parse_rel_parts(std::string_view value);    // "user,gp1,..."

// The words the options take, for a configuration file and messages.
std::string_view to_string(Bkops b);
std::string_view to_string(BootPartition b);
std::string to_string(const BootBus& b);
std::string_view to_string(BootWp b);
std::string_view to_string(RelPart p);

} // namespace mmc::tune
