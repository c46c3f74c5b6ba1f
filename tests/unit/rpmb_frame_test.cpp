// The RPMB frame's fields at the offsets of JESD84-B51 Table 18, every
// result named, and HMAC-SHA256 on RFC 4231's vectors.
#include "regs/hex.h"
#include "rpmb/frame.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using namespace mmc::rpmb;
using mmc::regs::to_hex;

std::string bytes_text(std::string_view s) { return std::string(s); }

std::span<const uint8_t> as_bytes(const std::string& s)
{
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(RpmbHmac, Rfc4231Vectors)
{
    const std::string key1(20, '\x0b'), data1 = "Hi There";
    EXPECT_EQ(to_hex(hmac_sha256(as_bytes(key1), as_bytes(data1))),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    const std::string key2 = "Jefe", data2 = "what do ya want for nothing?";
    EXPECT_EQ(to_hex(hmac_sha256(as_bytes(key2), as_bytes(data2))),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    const std::string key3(20, '\xaa'), data3(50, '\xdd');
    EXPECT_EQ(to_hex(hmac_sha256(as_bytes(key3), as_bytes(data3))),
              "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    // Test case 6: a key longer than the hash's block, hashed first.
    const std::string key6(131, '\xaa'), data6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    EXPECT_EQ(to_hex(hmac_sha256(as_bytes(key6), as_bytes(data6))),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    const std::string data7 = bytes_text("This is a test using a larger than block-size key and a larger than block-size data. The key "
                                         "needs to be hashed before being used by the HMAC algorithm.");
    EXPECT_EQ(to_hex(hmac_sha256(as_bytes(key6), as_bytes(data7))),
              "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

Frame sample_write()
{
    Frame f(Request::authenticated_write);
    for (std::size_t i = 0; i < block_bytes; ++i) f.data()[i] = static_cast<uint8_t>(i * 7 + 1);
    Nonce n;
    for (std::size_t i = 0; i < nonce_bytes; ++i) n[i] = static_cast<uint8_t>(0xa0 + i);
    f.set_nonce(n);
    f.set_write_counter(5);
    f.set_address(2);
    f.set_block_count(1);
    return f;
}

TEST(RpmbFrame, FieldsAtTheStandardsOffsetsBigEndian)
{
    Frame f = sample_write();
    f.set_write_counter(0x01020304);
    f.set_address(0x0a0b);
    f.set_block_count(0x0c0d);
    f.set_result(0x0e0f);
    std::fill(f.key_mac().begin(), f.key_mac().end(), uint8_t{0x55});
    const auto& b = f.bytes();
    EXPECT_EQ(b.size(), 512u);
    // Stuff bytes [511:316]: the first 196 bytes sent, zero.
    EXPECT_TRUE(std::all_of(b.begin(), b.begin() + 196, [](uint8_t x) { return x == 0; }));
    EXPECT_EQ(b[195], 0);
    EXPECT_EQ(b[196], 0x55);
    EXPECT_EQ(b[227], 0x55);
    EXPECT_EQ(b[228], 1); // data byte 0
    EXPECT_EQ(b[228 + 255], static_cast<uint8_t>(255 * 7 + 1));
    EXPECT_EQ(b[484], 0xa0); // nonce
    EXPECT_EQ(b[499], 0xaf);
    EXPECT_EQ(to_hex(std::span(b).subspan(500, 12)), "010203040a0b0c0d0e0f0003");
    EXPECT_EQ(f.write_counter(), 0x01020304u);
    EXPECT_EQ(f.address(), 0x0a0b);
    EXPECT_EQ(f.block_count(), 0x0c0d);
    EXPECT_EQ(f.result(), 0x0e0f);
    EXPECT_EQ(f.req_resp(), 0x0003);
    EXPECT_EQ(f.mac_input().size(), 284u);
    EXPECT_EQ(f.mac_input().data(), b.data() + 228);
}

TEST(RpmbFrame, MacCoversDataToTheEndOfEachFrame)
{
    // The expected MAC was computed apart from this code (Python's hmac
    // over bytes 228..511 of the same frame, key 00 01 .. 1f).
    Key key;
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i);
    Frame f = sample_write();
    const std::vector<Frame> one{f};
    EXPECT_EQ(to_hex(frames_mac(key, one)), "8f3068e98d87336957fa59bc91b495c3132d8919d3138ea6ca2700bf936ee19d");
    // The key/MAC field and the stuff bytes are outside it; the nonce and
    // the request type inside.
    Frame g = f;
    g.key_mac()[0] = 0xff;
    g.bytes()[0] = 0xff;
    EXPECT_EQ(frames_mac(key, std::vector<Frame>{g}), frames_mac(key, one));
    g.set_req_resp(4);
    EXPECT_NE(frames_mac(key, std::vector<Frame>{g}), frames_mac(key, one));
    // Two frames: one MAC over both in order, not either alone.
    Frame h = f;
    h.set_address(3);
    const std::vector<Frame> two{f, h}, swapped{h, f};
    EXPECT_NE(frames_mac(key, two), frames_mac(key, swapped));
    std::vector<uint8_t> joined(f.mac_input().begin(), f.mac_input().end());
    joined.insert(joined.end(), h.mac_input().begin(), h.mac_input().end());
    EXPECT_EQ(frames_mac(key, two), hmac_sha256(key, joined));
}

TEST(RpmbFrame, SameMacComparesEveryByte)
{
    Mac a{}, b{};
    EXPECT_TRUE(same_mac(a, b));
    b[31] = 1;
    EXPECT_FALSE(same_mac(a, b));
}

TEST(RpmbFrame, ResponseTypesAndEveryResultNamed)
{
    EXPECT_EQ(response_of(Request::program_key), 0x0100);
    EXPECT_EQ(response_of(Request::read_counter), 0x0200);
    EXPECT_EQ(response_of(Request::authenticated_write), 0x0300);
    EXPECT_EQ(response_of(Request::authenticated_read), 0x0400);
    EXPECT_EQ(response_of(Request::configuration_write), 0x0600);
    EXPECT_EQ(response_of(Request::configuration_read), 0x0700);
    EXPECT_EQ(result_name(0), "success");
    EXPECT_EQ(result_name(1), "general failure");
    EXPECT_EQ(result_name(2), "authentication failure");
    EXPECT_EQ(result_name(3), "counter failure");
    EXPECT_EQ(result_name(4), "address failure");
    EXPECT_EQ(result_name(5), "write failure");
    EXPECT_EQ(result_name(6), "read failure");
    EXPECT_EQ(result_name(7), "authentication key not yet programmed");
    EXPECT_EQ(result_name(0x80), "write counter expired; success");
    EXPECT_EQ(result_name(0x85), "write counter expired; write failure");
    EXPECT_EQ(result_name(0x42), "unknown result 0x0042");
    EXPECT_TRUE(succeeded(0x80));
    EXPECT_FALSE(succeeded(0x82));
}

} // namespace
