// The RPMB operations against a modelled device (rpmb_model.h): the flows
// of JESD84-B51 6.6.22.4 exactly, each refusal by its result, and answers
// the host must not believe (a tampered MAC, a replayed nonce).
#include "rpmb/inputs.h"
#include "rpmb/operations.h"
#include "rpmb_model.h"

#include <gtest/gtest.h>

namespace {

using namespace mmc::rpmb;
using mmc::rpmb::test::ModelDevice;

Key key_of(uint8_t seed)
{
    Key k;
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(seed + i);
    return k;
}

Nonce nonce_of(uint8_t seed)
{
    Nonce n;
    n.fill(seed);
    return n;
}

// Nonces 1, 2, 3, ...: each transaction its own.
struct CountingNonces {
    uint8_t next = 1;
    Nonce operator()() { return nonce_of(next++); }
};

std::array<uint8_t, block_bytes> block_filled(uint8_t v)
{
    std::array<uint8_t, block_bytes> b;
    b.fill(v);
    return b;
}

std::optional<uint16_t> result_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.result;
    }
    ADD_FAILURE() << "no error";
    return uint16_t{0xffff};
}

TEST(RpmbOperations, KeyNotProgrammedUntilProgrammed)
{
    ModelDevice d(16);
    const auto before = read_counter(d, nonce_of(9), nullptr);
    EXPECT_FALSE(before.key_programmed);
    const Key k = key_of(1);
    EXPECT_EQ(result_of([&] { write_block(d, k, 0, block_filled(1), 0); }), result::key_not_programmed);
    CountingNonces nonces;
    EXPECT_EQ(result_of([&] { read_blocks(d, k, 0, 1, nonces); }), result::key_not_programmed);

    program_key(d, k);
    ASSERT_TRUE(d.key);
    EXPECT_EQ(*d.key, k);
    // Key programming is a reliable write, then a result read request.
    ASSERT_GE(d.sent.size(), 2u);
    const auto& program = d.sent[d.sent.size() - 2];
    EXPECT_EQ(program.request, 0x0001);
    EXPECT_TRUE(program.reliable);
    EXPECT_EQ(d.sent.back().request, 0x0005);
    EXPECT_FALSE(d.sent.back().reliable);

    const auto after = read_counter(d, nonce_of(9), &k);
    EXPECT_TRUE(after.key_programmed);
    EXPECT_TRUE(after.mac_verified);
    EXPECT_EQ(after.write_counter, 0u);
}

TEST(RpmbOperations, KeyProgrammedOnlyOnce)
{
    ModelDevice d(16);
    program_key(d, key_of(1));
    EXPECT_EQ(result_of([&] { program_key(d, key_of(2)); }), result::write_failure);
    EXPECT_EQ(*d.key, key_of(1));
}

TEST(RpmbOperations, CounterIncrementsPerWriteAndDataReadsBack)
{
    ModelDevice d(16);
    const Key k = key_of(7);
    program_key(d, k);
    uint32_t counter = read_counter(d, nonce_of(3), &k).write_counter;
    counter = write_block(d, k, 4, block_filled(0x44), counter);
    EXPECT_EQ(counter, 1u);
    // The authenticated write is a reliable write, then a result read request.
    ASSERT_GE(d.sent.size(), 2u);
    EXPECT_EQ(d.sent[d.sent.size() - 2].request, 0x0003);
    EXPECT_TRUE(d.sent[d.sent.size() - 2].reliable);
    counter = write_block(d, k, 5, block_filled(0x55), counter);
    EXPECT_EQ(counter, 2u);
    EXPECT_EQ(d.write_counter, 2u);
    EXPECT_EQ(read_counter(d, nonce_of(4), &k).write_counter, 2u);
    EXPECT_EQ(d.block(4), block_filled(0x44));

    CountingNonces nonces;
    const auto data = read_blocks(d, k, 4, 2, nonces);
    ASSERT_EQ(data.size(), 512u);
    EXPECT_EQ(data[0], 0x44);
    EXPECT_EQ(data[255], 0x44);
    EXPECT_EQ(data[256], 0x55);
    EXPECT_EQ(data[511], 0x55);
}

TEST(RpmbOperations, LongReadsCutIntoTransactionsEachWithItsNonce)
{
    ModelDevice d(200);
    const Key k = key_of(7);
    program_key(d, k);
    write_block(d, k, 130, block_filled(0x13), 0);
    CountingNonces nonces;
    const auto data = read_blocks(d, k, 0, 150, std::ref(nonces));
    ASSERT_EQ(data.size(), 150u * block_bytes);
    EXPECT_EQ(data[130 * block_bytes], 0x13);
    EXPECT_EQ(data[129 * block_bytes], 0);
    EXPECT_EQ(nonces.next, 4); // 64 + 64 + 22 frames: three nonces used
}

TEST(RpmbOperations, WrongKeyIsAnAuthenticationFailureAndAMacMismatch)
{
    ModelDevice d(16);
    const Key k = key_of(7), wrong = key_of(8);
    program_key(d, k);
    EXPECT_EQ(result_of([&] { write_block(d, wrong, 0, block_filled(1), 0); }), result::authentication_failure);
    EXPECT_EQ(d.write_counter, 0u);
    EXPECT_EQ(d.block(0), block_filled(0));
    // A read under the wrong key: the device answers, the host refuses the MAC.
    CountingNonces nonces;
    EXPECT_EQ(result_of([&] { read_blocks(d, wrong, 0, 1, nonces); }), std::nullopt);
    EXPECT_EQ(result_of([&] { read_counter(d, nonce_of(1), &wrong); }), std::nullopt);
}

TEST(RpmbOperations, StaleCounterIsACounterFailure)
{
    ModelDevice d(16);
    const Key k = key_of(7);
    program_key(d, k);
    write_block(d, k, 0, block_filled(1), 0);
    EXPECT_EQ(result_of([&] { write_block(d, k, 0, block_filled(2), 0); }), result::counter_failure);
    EXPECT_EQ(d.block(0), block_filled(1));
}

TEST(RpmbOperations, AddressOutOfRangeIsAnAddressFailure)
{
    ModelDevice d(16);
    const Key k = key_of(7);
    program_key(d, k);
    EXPECT_EQ(result_of([&] { write_block(d, k, 16, block_filled(1), 0); }), result::address_failure);
    CountingNonces nonces;
    EXPECT_EQ(result_of([&] { read_blocks(d, k, 15, 2, nonces); }), result::address_failure);
}

TEST(RpmbOperations, ExpiredCounterRefusesWritesAndIsReported)
{
    ModelDevice d(16);
    const Key k = key_of(7);
    program_key(d, k);
    d.write_counter = 0xffffffff;
    const auto r = read_counter(d, nonce_of(1), &k);
    EXPECT_TRUE(r.counter_expired);
    EXPECT_EQ(r.write_counter, 0xffffffffu);
    EXPECT_EQ(result_of([&] { write_block(d, k, 0, block_filled(1), 0xffffffff); }),
              result::write_failure | result::counter_expired);
}

TEST(RpmbOperations, TamperedResponsesAreRejected)
{
    ModelDevice d(16);
    const Key k = key_of(7);
    program_key(d, k);
    write_block(d, k, 0, block_filled(1), 0);
    d.tamper_next_response = true;
    EXPECT_EQ(result_of([&] { read_counter(d, nonce_of(1), &k); }), std::nullopt);
    d.tamper_next_response = true;
    CountingNonces nonces;
    EXPECT_EQ(result_of([&] { read_blocks(d, k, 0, 2, nonces); }), std::nullopt);
    d.tamper_next_response = true;
    EXPECT_EQ(result_of([&] { write_block(d, k, 1, block_filled(2), 1); }), std::nullopt);
    // Without the tampering the same operations pass.
    EXPECT_EQ(read_counter(d, nonce_of(1), &k).write_counter, 2u);
}

TEST(RpmbOperations, ReplayedNonceIsRejected)
{
    ModelDevice d(16);
    const Key k = key_of(7);
    program_key(d, k);
    d.stale_nonce = true;
    EXPECT_EQ(result_of([&] { read_counter(d, nonce_of(1), &k); }), std::nullopt);
    d.stale_nonce = true;
    CountingNonces nonces;
    EXPECT_EQ(result_of([&] { read_blocks(d, k, 0, 1, nonces); }), std::nullopt);
}

TEST(RpmbOperations, ErrorsNameTheResult)
{
    ModelDevice d(16);
    try {
        write_block(d, key_of(1), 0, block_filled(1), 0);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "authenticated write: authentication key not yet programmed (result 0x0007)");
    }
}

TEST(RpmbInputs, BlockRangesInsideThePartitionOnly)
{
    EXPECT_EQ(parse_block_range("7").first, 7u);
    EXPECT_EQ(parse_block_range("7").count, 1u);
    EXPECT_EQ(parse_block_range("0x10,4").first, 16u);
    EXPECT_EQ(parse_block_range("0x10,4").count, 4u);
    EXPECT_THROW(parse_block_range("-1"), std::invalid_argument);
    EXPECT_THROW(parse_block_range("1,"), std::invalid_argument);
    EXPECT_THROW(parse_block_range("99999999999"), std::invalid_argument);
    const uint64_t four_mib = 4u << 20; // 16384 blocks
    EXPECT_NO_THROW(check_range({16383, 1}, four_mib));
    EXPECT_NO_THROW(check_range({0, 16384}, four_mib));
    EXPECT_THROW(check_range({16384, 1}, four_mib), std::out_of_range);
    EXPECT_THROW(check_range({16380, 5}, four_mib), std::out_of_range);
    // 16 MiB, the most RPMB_SIZE_MULT gives: 65536 blocks, the 16-bit address's all.
    EXPECT_NO_THROW(check_range({65535, 1}, 16u << 20));
    EXPECT_THROW(check_range({65535, 2}, 16u << 20), std::out_of_range);
}

TEST(RpmbOperations, RandomNoncesDiffer)
{
    EXPECT_NE(random_nonce(), random_nonce());
}

} // namespace
