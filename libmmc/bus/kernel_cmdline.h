// The SDHCI driver's debug quirk options on a kernel command line
// (/proc/cmdline, or a pasted one): sdhci.debug_quirks= and
// sdhci.debug_quirks2=. sdhci.c replaces each SDHCI host's own quirk word
// with a non-zero value (__sdhci_read_caps: host->quirks2 = debug_quirks2),
// so one line can hold every SDHCI host of a machine below what its board
// supports - the Raspberry Pi 4's sdhci.debug_quirks2=4 keeps every card at
// 3.3 V high speed. Pure: text in, the options and what their bits mean out.
#pragma once

#include "bus/modes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus {

// One of the two options as the command line gives it.
struct SdhciQuirkOption {
    std::string name;               // "sdhci.debug_quirks2", as the kernel names it
    std::string written;            // "sdhci.debug_quirks2=4", as the line has it
    std::optional<uint32_t> value;  // nullopt: a value the kernel rejects (it then keeps 0)
};

struct KernelCmdline {
    std::string source;                       // "/proc/cmdline", or the pasted file
    std::optional<SdhciQuirkOption> quirks;   // sdhci.debug_quirks
    std::optional<SdhciQuirkOption> quirks2;  // sdhci.debug_quirks2
};

// Reads the two options as the kernel's parse_args does: words split at
// blanks outside double quotes, "-" and "_" alike in a name, the last of
// a repeated option wins, nothing after a lone "--" (init's arguments), a
// value as kstrtouint reads it (0x hex, 0 octal, else decimal).
KernelCmdline parse_kernel_cmdline(std::string_view text);

// The name of a quirks2 bit (drivers/mmc/host/sdhci.h, SDHCI_QUIRK2_*), ""
// for a bit whose meaning differs between kernel versions.
std::string_view sdhci_quirk2_name(int bit);
// The name of a quirks bit that acts on the bus (SDHCI_QUIRK_*), "" otherwise.
std::string_view sdhci_quirk_name(int bit);

// The bits of quirks2 that stop bus modes in sdhci_setup_host:
// NO_1_8_V drops every 1.8 V mode, BROKEN_HS200 HS200 (and HS400, reached
// through it), BROKEN_DDR50 DDR50.
constexpr uint32_t quirk2_no_1_8_v = 1u << 2;
constexpr uint32_t quirk2_broken_hs200 = 1u << 6;
constexpr uint32_t quirk2_broken_ddr50 = 1u << 7;
// A quirks bit: the controller drives one data line (sdhci_setup_host
// drops MMC_CAP_4_BIT_DATA).
constexpr uint32_t quirk_force_1_bit_data = 1u << 22;

// "SDHCI_QUIRK2_NO_1_8_V, bit 9" for the set bits of a value.
std::string sdhci_quirk2_names(uint32_t value);

} // namespace mmc::bus
