// Erase methods: what a card and its host offer (Capabilities, read from the
// card's registers and the block queue, never from the card's answers),
// choosing a method or refusing one with the register that forbids it, the
// erase unit and chunk bound each method needs, the card command sequences
// with their busy timeouts, and one executor interface with the block-layer
// ioctls and the MMC command sequences behind it.
#pragma once

#include "dev/mmc_ioctl.h"
#include "erase/plan.h"
#include "regs/card_facts.h"
#include "regs/register.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmc::erase {

// Everything method choice, alignment and timeouts depend on.
struct Capabilities {
    std::optional<regs::CardFamily> family; // nullopt: not an MMC/SD card (a loop device, a USB reader)
    std::string name;        // block device name, "mmcblk0", "loop0"
    std::string kind;        // "SD card", "eMMC", "loop device", ... for messages

    // Raw card commands: possible only on the whole user area of an MMC/SD
    // card with CAP_SYS_RAWIO; raw_unavailable says why not.
    bool raw_channel = false;
    std::string raw_unavailable;

    bool block_addressed = true;       // false: SDSC (CSD structure 0), byte-addressed eMMC
    bool erase_class = false;          // CSD CCC class 5 (erase)
    std::optional<uint8_t> erased_byte; // SCR DATA_STAT_AFTER_ERASE / EXT_CSD ERASED_MEM_CONT

    // SD: the SSR (ACMD13) when it could be read, and what it says.
    std::optional<regs::DecodedRegister> ssr;
    std::string ssr_source;            // "ioctl", "sysfs"
    uint64_t au_bytes = 0;             // SSR AU_SIZE (0: not defined)
    bool sd_discard_support = false;   // SSR DISCARD_SUPPORT
    bool fule_support = false;         // SSR FULE_SUPPORT
    uint64_t preferred_erase_bytes = 0; // sysfs preferred_erase_size

    // eMMC: EXT_CSD fields (when EXT_CSD could be read).
    bool have_ext_csd = false;
    int ext_csd_rev = 0;
    uint8_t sec_feature_support = 0;
    uint64_t hc_erase_group_bytes = 0; // HC_ERASE_GRP_SIZE x 512 KiB
    bool hc_erase_group_def = false;   // ERASE_GROUP_DEF bit 0
    uint32_t erase_timeout_mult = 0, trim_mult = 0, sec_erase_mult = 0, sec_trim_mult = 0;
    uint64_t csd_erase_group_bytes = 0; // MMC CSD (ERASE_GRP_SIZE+1) x (ERASE_GRP_MULT+1) x write block
    uint32_t csd_write_timeout_ms = 0;  // MMC CSD TAAC x 10 << R2W_FACTOR, for legacy erase groups

    // A card in a USB reader: only what the reader passes on
    // reaches the card. provisioning_mode is the SCSI disk's (sd.c): "full"
    // (no discard), "unmap", "writesame_16", "writesame_10", "disabled".
    bool usb_reader = false;
    std::string provisioning_mode;

    // Block queue limits.
    uint64_t logical_block = 512;
    uint64_t discard_granularity = 0;
    uint64_t discard_max_bytes = 0;
    uint64_t discard_max_hw_bytes = 0;
    uint64_t write_zeroes_max_bytes = 0;
};

// SEC_FEATURE_SUPPORT bits (JESD84-B51 7.4.96).
inline constexpr uint8_t sec_er_en = 1u << 0;      // SECURE_ER_EN
inline constexpr uint8_t sec_gb_cl_en = 1u << 4;   // SEC_GB_CL_EN: TRIM
inline constexpr uint8_t sec_sanitize = 1u << 6;   // SEC_SANITIZE

// The method chosen and why, or a refusal that names the register.
// Selection::why of a method the caller asked for (the text view leaves it out).
inline constexpr const char* requested_method = "requested";
struct Selection {
    Method method = Method::discard;
    std::string why; // "auto: raw CMD38 ERASE on an SD card", requested_method
};
struct MethodRefused : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A reader that passes no discard: why it cannot return the card to its
// erased state, why an overwrite does not either, and what would.
std::string reader_cannot_erase(const Capabilities& caps);

// Why `m` cannot be used, from the registers and queue limits alone; nullopt
// when it can. whole_device: the range is the whole user area (FULE needs it).
std::optional<std::string> refusal(Method m, const Capabilities& caps, bool whole_device);

// auto picks, in order: raw `erase` on an MMC/SD card whose CSD has the
// erase class and whose channel is open; block-layer `discard` where the
// queue offers it; `zeroout`. Throws MethodRefused for a refused request.
Selection select_method(Method requested, const Capabilities& caps, bool whole_device);

// The alignment a method needs, in bytes, and where it comes from
// ("SSR AU_SIZE", "sysfs preferred_erase_size", "EXT_CSD HC_ERASE_GRP_SIZE",
// "queue/discard_granularity", "logical block").
struct EraseUnit {
    uint64_t bytes = 512;
    std::string source;
};
EraseUnit erase_unit(Method m, const Capabilities& caps);

// An MMC's erase-group registers, as regs::erase_group_in_use reads them.
regs::EraseGroupRegisters erase_group_registers(const Capabilities& caps);

// The largest chunk a method may be given at once: queue/discard_max_bytes
// for discard and the raw methods (the kernel computes it from the host's
// busy timeout), and a bound that keeps Ctrl-C prompt.
uint64_t chunk_limit(Method m, const Capabilities& caps);

// What a method leaves behind, for verification.
struct Outcome {
    std::optional<uint8_t> declared; // the pattern the registers promise (nullopt: none declared)
    bool zero_only = false;          // zeroout: 0x00 and nothing else
    bool undefined = false;          // the spec allows the old data to remain (SD/eMMC discard)
    std::string basis;               // "SCR DATA_STAT_AFTER_ERASE", "BLKZEROOUT", ...
};
Outcome expected_outcome(Method m, const Capabilities& caps);

// Busy timeouts (milliseconds) for a raw erase of `disk_extent`:
//  SD: the SSR formula, ERASE_TIMEOUT / ERASE_SIZE x AUs + ERASE_OFFSET
//      (250 ms per AU without it; SD DISCARD 250 ms), at least 1 s, as Linux.
//  eMMC: 300 ms x ERASE_TIMEOUT_MULT (ERASE) or TRIM_MULT (TRIM, DISCARD) per
//      erase group touched, x SEC_ERASE_MULT / SEC_TRIM_MULT for the secure
//      arguments, as Linux's mmc_mmc_erase_timeout; at least 1 s.
// `arg` is the CMD38 argument.
uint32_t busy_timeout_ms(const Capabilities& caps, uint32_t arg, const Extent& disk_extent);

// CMD38 arguments.
namespace arg {
inline constexpr uint32_t erase = 0x0;
inline constexpr uint32_t sd_discard = 0x1;
inline constexpr uint32_t sd_fule = 0x2;
inline constexpr uint32_t trim = 0x1;
inline constexpr uint32_t emmc_discard = 0x3;
inline constexpr uint32_t secure_erase = 0x80000000;
inline constexpr uint32_t secure_trim1 = 0x80000001;
inline constexpr uint32_t secure_trim2 = 0x80008000;
} // namespace arg

// CMD6 SWITCH, write byte EXT_CSD[165] SANITIZE_START = 1 (R1b), and the busy
// timeout Linux gives it (MMC_SANITIZE_TIMEOUT_MS: no register defines one).
inline constexpr uint32_t sanitize_switch_arg = 0x03a50100;
inline constexpr uint32_t sanitize_timeout_ms = 240000;

// The command sequences that erase one chunk (`disk_extent`, bytes on the
// disk): each is CMD13 (clears stale status), start (CMD32/CMD35), end
// (CMD33/CMD36), CMD38 with the busy timeout, CMD13 (checked). Secure trim
// is two sequences. Addresses are bytes on SDSC and byte-addressed eMMC,
// 512-byte blocks otherwise; the end address is that of the last block.
std::vector<std::vector<dev::MmcCommand>> erase_sequences(Method m, const Capabilities& caps, uint16_t rca,
                                                          const Extent& disk_extent);
dev::MmcCommand sanitize_command();

// Error bits of an R1 card status, by name; empty when none is set.
std::vector<std::string> r1_errors(uint32_t status, regs::CardFamily family);

// One executor per method: erases one chunk at a time. Throws ExecError.
struct ExecError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Executor {
public:
    virtual ~Executor() = default;
    // Erase `extent` (bytes relative to the opened device).
    virtual void erase(const Extent& extent) = 0;
    // After the last chunk (sanitize sends SANITIZE_START here).
    virtual void finish() {}
    // What runs, e.g. "BLKDISCARD" or "CMD32/CMD33/CMD38 arg 0x0 (ERASE)".
    virtual std::string describe() const = 0;
};

// BLKDISCARD / BLKSECDISCARD / BLKZEROOUT on fd (the device named).
std::unique_ptr<Executor> block_executor(int fd, Method m, const std::string& name);
// Raw card commands through the disk's MMC channel; device_start is where the
// named device begins on the disk (a partition's start).
std::unique_ptr<Executor> mmc_executor(const std::string& disk_path, Method m, const Capabilities& caps, uint16_t rca,
                                       uint64_t device_start);

// What the command sequence of a method is, in words: "CMD32/CMD33/CMD38
// ERASE (arg 0x0)".
std::string describe(Method m, const Capabilities& caps);

} // namespace mmc::erase
