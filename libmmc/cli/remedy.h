// What a person can do about a refusal, by meaning. Library code (erase/,
// bench/, ...) says which remedy applies and never names a command-line
// flag; the one place that words a remedy with the flag that gives it is
// remedy.cpp, so a renamed option changes one line.
#pragma once

#include <string_view>

namespace mmc::cli {

enum class Remedy {
    none,
    any_device_erase, // not an MMC/SD card: erase it anyway
    any_device_write, // not an MMC/SD card: write to it anyway
    any_device_probe, // not an MMC/SD card: probe it anyway
    any_device_measure, // not an MMC/SD card: measure it anyway (mmc-qualify)
    release_device,   // mounted or held: unmount or release it
    zero_unaligned,   // no whole erase unit: zero the range instead
    destructive,      // a read-only run: allow the writes
    confirm,          // no terminal to ask on: confirm on the command line
    use_file,         // not a block device: measure a file instead
    give_au,          // the AU could not be measured: state it
};

// "use --any-device to erase it anyway"; empty for Remedy::none.
std::string_view remedy_text(Remedy remedy);

} // namespace mmc::cli
