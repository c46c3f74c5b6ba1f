// The bus doctor's evidence from what a user pasted: an ios dump, caps and
// caps2, a kernel version, a device-tree node (DTS text or a copied node
// directory), a kernel log. One reader for mmc-bus --ios and mmc-tune bus
// --ios, so both read the same paste the same way.
#pragma once

#include "bus/doctor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::out {

struct PastedBus {
    std::string ios_file;                    // '-' reads stdin
    std::optional<uint32_t> caps, caps2;
    std::string kernel;
    std::optional<regs::CardFamily> family;
    bool sdio = false;
    std::optional<std::string> dt_file, dt_node, dmesg_file;
    std::optional<std::string> pci;          // "" or "VENDOR:DEVICE"
};

// One Evidence per snapshot in the ios file. Throws std::runtime_error (the
// file and why) for a file that is no dump, a value the kernel would not
// print, a binary or unparseable device tree.
std::vector<bus::Evidence> pasted_bus_evidence(const PastedBus& pasted);

// --caps HEX / --caps2 HEX: a 32-bit hex number, with or without 0x; a
// cli::UsageError naming the option otherwise.
uint32_t caps_option(const char* option, const std::string& text);
// --kernel VERSION: a release as uname prints it; a cli::UsageError otherwise.
std::string kernel_option(const std::string& text);

} // namespace mmc::out
