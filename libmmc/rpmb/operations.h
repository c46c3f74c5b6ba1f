// The RPMB operations (JESD84-B51 6.6.22.4): each a transaction of request
// frames and the device's response, the response checked before anything
// in it is believed: its type, the nonce it must echo, and its MAC under
// the key. Every refusal says the device's result by name.
#pragma once

#include "rpmb/transport.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace mmc::rpmb {

// The device answered with a failure result (`result` set), or its answer
// cannot be believed (a MAC or nonce that does not match, the wrong
// response type: `result` empty).
struct Error : std::runtime_error {
    std::optional<uint16_t> result;
    Error(const std::string& message, std::optional<uint16_t> r) : std::runtime_error(message), result(r) {}
};

struct CounterReading {
    bool key_programmed = false;
    uint32_t write_counter = 0;  // when a key is programmed
    bool counter_expired = false;
    bool mac_verified = false;   // a key was given and the response's MAC matched it
};

// A fresh nonce from the kernel's random source: what makes a recorded
// response useless to replay.
Nonce random_nonce();

// Reading the write counter changes nothing on the device. Without a key
// the counter is reported as the device says it; with one the response's
// MAC is checked (a mismatch throws: the wrong key, or a tampered answer).
CounterReading read_counter(Transport& device, const Nonce& nonce, const Key* key);

// Programs the authentication key: once in the device's life.
void program_key(Transport& device, const Key& key);

// Writes one 256-byte block at `address` with the device's current write
// counter; returns the counter after the write, as the MAC-checked result
// says. One block per transaction, which every device accepts (larger
// reliable writes are optional, REL_WR_SEC_C).
uint32_t write_block(Transport& device, const Key& key, uint16_t address, std::span<const uint8_t, block_bytes> data,
                     uint32_t counter);

// Reads `count` blocks from `address`, their MAC checked; the data, count *
// 256 bytes. Each transaction takes a fresh nonce from `nonces`
// (random_nonce on a device).
std::vector<uint8_t> read_blocks(Transport& device, const Key& key, uint16_t address, uint16_t count,
                                 const std::function<Nonce()>& nonces);

// The most frames one authenticated read asks for: larger reads are cut
// into transactions of this many (each with its own nonce and MAC).
inline constexpr uint16_t max_read_frames = 64;

} // namespace mmc::rpmb
