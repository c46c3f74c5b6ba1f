// The bus doctor's evidence from what a user pasted: an ios dump, caps and
// caps2, a kernel version, a device-tree node (DTS text or a copied node
// directory), a kernel log. One reader for mmc-bus --ios and mmc-tune bus
// --ios, so both read the same paste the same way.
#pragma once

#include "bus/doctor.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
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
    std::optional<std::string> cmdline_file; // a pasted /proc/cmdline
    std::string dmesg_host;                  // the log's host for this dump as the user named it; "" let the evidence pick
    std::optional<std::string> pci;          // "" or "VENDOR:DEVICE"
};

// Which pasted file a failure is about, so the tool names the option that
// gave it (the ios dump, the device tree, the kernel log).
enum class PastedInput { ios, device_tree, kernel_log, kernel_cmdline };

struct PastedInputError : std::runtime_error {
    PastedInputError(PastedInput in, const std::string& what) : std::runtime_error(what), input(in) {}
    PastedInput input;
};

// One Evidence per snapshot in the ios file. Throws PastedInputError (the
// file and why) for a file that cannot be read, that is no dump, a value the
// kernel would not print, a binary or unparseable device tree.
std::vector<bus::Evidence> pasted_bus_evidence(const PastedBus& pasted);

// A caps or caps2 HEX option: a 32-bit hex number, with or without 0x; a
// cli::UsageError naming the option otherwise.
// The log's lines for one host (bus::read_host_log) into `e`: e.log when
// they were read, e.log_note and e.log_needs_host either way. `devices` name the host's
// controller ("fe320000.mmc", a DT node's unit address).
void add_host_log(bus::Evidence& e, std::string_view log, const std::string& dmesg_host, std::vector<std::string> devices);

// A host option's value ("mmc1"), as the kernel names a host; a
// cli::UsageError naming the option otherwise.
std::string host_option(const char* option, const std::string& text);

uint32_t caps_option(const char* option, const std::string& text);
// A kernel command line file (a pasted /proc/cmdline, '-' stdin): its sdhci
// options. Throws what cli::read_input throws.
bus::KernelCmdline read_kernel_cmdline(const std::string& path);
// A kernel VERSION option: a release as uname prints it; a cli::UsageError
// naming the option otherwise.
std::string kernel_option(const char* option, const std::string& text);

} // namespace mmc::out
