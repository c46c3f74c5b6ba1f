// The RPMB data frame (JESD84-B51 6.6.22, Table 18 "Data Frame Files for
// RPMB"): 512 bytes, every request and response of the replay protected
// memory block. The standard numbers the bytes [511:0] with byte 511 sent
// first; here they are held in the order they travel, so the standard's
// byte N is frame[511 - N]. Multi-byte fields are big-endian.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mmc::rpmb {

inline constexpr std::size_t frame_bytes = 512;
inline constexpr std::size_t block_bytes = 256; // the data of one frame: the RPMB's unit of access
inline constexpr std::size_t key_bytes = 32;
inline constexpr std::size_t nonce_bytes = 16;

// Where each field starts in the frame as sent (the standard's byte ranges
// in comments).
namespace at {
inline constexpr std::size_t stuff = 0;          // [511:316] 196 bytes
inline constexpr std::size_t key_mac = 196;      // [315:284] 32
inline constexpr std::size_t data = 228;         // [283:28] 256
inline constexpr std::size_t nonce = 484;        // [27:12] 16
inline constexpr std::size_t write_counter = 500; // [11:8] 4
inline constexpr std::size_t address = 504;      // [7:6] 2
inline constexpr std::size_t block_count = 506;  // [5:4] 2
inline constexpr std::size_t result = 508;       // [3:2] 2
inline constexpr std::size_t req_resp = 510;     // [1:0] 2
} // namespace at
// The MAC covers the data field to the end of the frame: [283:0].
inline constexpr std::size_t mac_from = at::data;

// Request message types (Table 19); a response is the request's type << 8.
enum class Request : uint16_t {
    program_key = 0x0001,
    read_counter = 0x0002,
    authenticated_write = 0x0003,
    authenticated_read = 0x0004,
    result_read = 0x0005,
    configuration_write = 0x0006, // authenticated device configuration (secure write protection)
    configuration_read = 0x0007,
};
constexpr uint16_t response_of(Request r) { return static_cast<uint16_t>(static_cast<uint16_t>(r) << 8); }

// Operation results (Table 20). The low bits say what happened; bit 7 is
// set besides, on any result, once the write counter has expired.
namespace result {
inline constexpr uint16_t ok = 0x0000;
inline constexpr uint16_t general_failure = 0x0001;
inline constexpr uint16_t authentication_failure = 0x0002;
inline constexpr uint16_t counter_failure = 0x0003;
inline constexpr uint16_t address_failure = 0x0004;
inline constexpr uint16_t write_failure = 0x0005;
inline constexpr uint16_t read_failure = 0x0006;
inline constexpr uint16_t key_not_programmed = 0x0007;
inline constexpr uint16_t counter_expired = 0x0080;
inline constexpr uint16_t code_mask = 0x007f;
} // namespace result

// "authentication failure", "write counter expired; general failure",
// "unknown result 0x0042": every result named.
std::string result_name(uint16_t result);
// The operation succeeded (the expiry bit aside: an expired counter still
// reads).
constexpr bool succeeded(uint16_t r) { return (r & result::code_mask) == result::ok; }

using Key = std::array<uint8_t, key_bytes>;
using Nonce = std::array<uint8_t, nonce_bytes>;
using Mac = std::array<uint8_t, key_bytes>;

class Frame {
public:
    Frame() { bytes_.fill(0); }
    explicit Frame(Request type) : Frame() { set_req_resp(static_cast<uint16_t>(type)); }

    std::span<const uint8_t, key_bytes> key_mac() const { return std::span<const uint8_t, key_bytes>(&bytes_[at::key_mac], key_bytes); }
    std::span<uint8_t, key_bytes> key_mac() { return std::span<uint8_t, key_bytes>(&bytes_[at::key_mac], key_bytes); }
    std::span<const uint8_t, block_bytes> data() const { return std::span<const uint8_t, block_bytes>(&bytes_[at::data], block_bytes); }
    std::span<uint8_t, block_bytes> data() { return std::span<uint8_t, block_bytes>(&bytes_[at::data], block_bytes); }
    Nonce nonce() const;
    void set_nonce(const Nonce& n);
    uint32_t write_counter() const { return be(at::write_counter, 4); }
    void set_write_counter(uint32_t v) { set_be(at::write_counter, 4, v); }
    uint16_t address() const { return static_cast<uint16_t>(be(at::address, 2)); }
    void set_address(uint16_t v) { set_be(at::address, 2, v); }
    uint16_t block_count() const { return static_cast<uint16_t>(be(at::block_count, 2)); }
    void set_block_count(uint16_t v) { set_be(at::block_count, 2, v); }
    uint16_t result() const { return static_cast<uint16_t>(be(at::result, 2)); }
    void set_result(uint16_t v) { set_be(at::result, 2, v); }
    uint16_t req_resp() const { return static_cast<uint16_t>(be(at::req_resp, 2)); }
    void set_req_resp(uint16_t v) { set_be(at::req_resp, 2, v); }

    // The bytes the MAC covers: [283:0].
    std::span<const uint8_t> mac_input() const { return std::span<const uint8_t>(bytes_).subspan(mac_from); }
    const std::array<uint8_t, frame_bytes>& bytes() const { return bytes_; }
    std::array<uint8_t, frame_bytes>& bytes() { return bytes_; }

private:
    uint32_t be(std::size_t at, int n) const;
    void set_be(std::size_t at, int n, uint32_t v);
    std::array<uint8_t, frame_bytes> bytes_;
};

// HMAC-SHA256 (RFC 2104, FIPS 180-4) with the key over the MAC input of each
// frame in order: the MAC of a request, a response, or the last frame of a
// multi-block read.
Mac frames_mac(const Key& key, std::span<const Frame> frames);
// HMAC-SHA256 of any bytes: one place for the one primitive, OpenSSL's
// libcrypto (which the toolkit already links for the bundles' hashes).
Mac hmac_sha256(std::span<const uint8_t> key, std::span<const uint8_t> message);
// Compared in constant time: a MAC check must not say how much matched.
bool same_mac(std::span<const uint8_t, key_bytes> a, std::span<const uint8_t, key_bytes> b);

} // namespace mmc::rpmb
