// What a person hands the RPMB commands, checked before any device is
// touched: the key file (exactly 32 bytes; its bytes never appear in a
// message), the data file (whole 256-byte blocks), a block range and
// whether it lies inside the RPMB partition.
#pragma once

#include "rpmb/frame.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mmc::rpmb {

// The key in a file of exactly 32 bytes. Throws cli::InputError (a
// failure) naming the file and its size otherwise.
Key read_key_file(const std::string& path);

// The blocks to write: a file of whole 256-byte blocks, at most `cap`
// bytes (the RPMB partition's size). Throws cli::InputError otherwise.
std::vector<uint8_t> read_data_file(const std::string& path, uint64_t cap);

struct BlockRange {
    uint32_t first = 0;
    uint32_t count = 1;
};
// "N" or "N,COUNT" (decimal or 0x hex); throws std::invalid_argument with
// the reason (the caller makes it a usage error).
BlockRange parse_block_range(const std::string& text);

// The RPMB partition holds size_bytes / 256 blocks, addressed by 16 bits.
// Throws std::out_of_range saying which block lies outside.
void check_range(const BlockRange& range, uint64_t size_bytes);

// RPMB_SIZE_MULT x 128 KiB, from the EXT_CSD's decoder (regs/ext_csd.cpp).
uint64_t rpmb_size_bytes(std::span<const uint8_t> ext_csd);

} // namespace mmc::rpmb
