#include "rpmb/frame.h"

#include <algorithm>
#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdexcept>

namespace mmc::rpmb {

std::string result_name(uint16_t r)
{
    static constexpr const char* names[] = {"success",         "general failure", "authentication failure",
                                            "counter failure", "address failure", "write failure",
                                            "read failure",    "authentication key not yet programmed"};
    const uint16_t code = r & result::code_mask;
    std::string name = code < std::size(names) ? names[code] : fmt::format("unknown result 0x{:04x}", r);
    if (r & result::counter_expired) name = "write counter expired; " + name;
    return name;
}

Nonce Frame::nonce() const
{
    Nonce n;
    std::copy_n(bytes_.begin() + at::nonce, nonce_bytes, n.begin());
    return n;
}

void Frame::set_nonce(const Nonce& n) { std::copy(n.begin(), n.end(), bytes_.begin() + at::nonce); }

uint32_t Frame::be(std::size_t at, int n) const
{
    uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | bytes_[at + static_cast<std::size_t>(i)];
    return v;
}

void Frame::set_be(std::size_t at, int n, uint32_t v)
{
    for (int i = n - 1; i >= 0; --i, v >>= 8) bytes_[at + static_cast<std::size_t>(i)] = static_cast<uint8_t>(v);
}

Mac hmac_sha256(std::span<const uint8_t> key, std::span<const uint8_t> message)
{
    Mac mac{};
    unsigned length = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), message.data(), message.size(), mac.data(), &length) ||
        length != mac.size())
        throw std::runtime_error("HMAC-SHA256 failed in libcrypto");
    return mac;
}

Mac frames_mac(const Key& key, std::span<const Frame> frames)
{
    std::vector<uint8_t> message;
    message.reserve(frames.size() * (frame_bytes - mac_from));
    for (const auto& f : frames) message.insert(message.end(), f.mac_input().begin(), f.mac_input().end());
    return hmac_sha256(key, message);
}

bool same_mac(std::span<const uint8_t, key_bytes> a, std::span<const uint8_t, key_bytes> b)
{
    return CRYPTO_memcmp(a.data(), b.data(), key_bytes) == 0;
}

} // namespace mmc::rpmb
