#include "sim/params.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace mmc::sim;

TEST(SimParams, DefaultsAreAValidCard)
{
    const Params p = default_params();
    EXPECT_NO_THROW(validate(p));
    EXPECT_EQ(p.size_bytes % p.page_bytes, 0u);
    EXPECT_EQ(p.au_bytes % p.page_bytes, 0u);
}

TEST(SimParams, OptionsTakeSizesTimesAndNames)
{
    Params p = default_params();
    set_option(p, "size", "64G");
    set_option(p, "page", "32k");
    set_option(p, "au", "12M");
    set_option(p, "open-aus", "3");
    set_option(p, "cache", "1M");
    set_option(p, "state", "fragmented");
    set_option(p, "command", "1.5ms");
    set_option(p, "page-read", "800ns");
    set_option(p, "page-program", "2ms");
    set_option(p, "block-erase", "3000us");
    set_option(p, "au-cross", "0.25ms");
    Params q = p;
    set_option(q, "command", "0.0015"); // seconds, the unit of every mmckit time
    EXPECT_EQ(q.timing.command_ns, 1'500'000u);
    set_option(p, "bus-rate", "50e6");
    set_option(p, "erased-byte", "0xff");
    set_option(p, "seed", "42");
    EXPECT_EQ(p.size_bytes, uint64_t{64} << 30);
    EXPECT_EQ(p.page_bytes, 32u << 10);
    EXPECT_EQ(p.au_bytes, 12u << 20);
    EXPECT_EQ(p.open_aus, 3u);
    EXPECT_EQ(p.cache_bytes, 1u << 20);
    EXPECT_EQ(p.state, StartState::fragmented);
    EXPECT_EQ(p.timing.command_ns, 1'500'000u);
    EXPECT_EQ(p.timing.page_read_ns, 800u);
    EXPECT_EQ(p.timing.page_program_ns, 2'000'000u);
    EXPECT_EQ(p.timing.block_erase_ns, 3'000'000u);
    EXPECT_EQ(p.timing.au_cross_ns, 250'000u);
    EXPECT_EQ(p.timing.bus_bytes_per_s, 50e6);
    EXPECT_EQ(p.erased_byte, 0xff);
    EXPECT_EQ(p.seed, 42u);
    EXPECT_NO_THROW(validate(p));
}

TEST(SimParams, BadOptionValuesAreRefusedWithTheirName)
{
    Params p = default_params();
    auto message = [&](const char* name, const char* value) {
        try {
            set_option(p, name, value);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    // One duration syntax: a bare number is seconds, as in every tool.
    EXPECT_EQ(message("command", "0.0001"), "accepted");
    EXPECT_NE(message("command", "7200").find("longer than an hour"), std::string::npos);
    EXPECT_NE(message("page-read", "0.5ns").find("whole number of nanoseconds"), std::string::npos);
    EXPECT_NE(message("command", "5min").find("command"), std::string::npos);
    EXPECT_NE(message("state", "dirty").find("clean"), std::string::npos);
    EXPECT_NE(message("fake", "forged").find("limbo"), std::string::npos);
    EXPECT_NE(message("erased-byte", "0x55").find("0xff"), std::string::npos);
    EXPECT_NE(message("size", "4x").find("size"), std::string::npos);
    EXPECT_NE(message("open-aus", "two").find("open-aus"), std::string::npos);
    EXPECT_NE(message("colour", "red").find("unknown card option"), std::string::npos);
}

TEST(SimParams, ValidateRefusesCardsThatCannotExist)
{
    auto refused = [](auto change) {
        Params p = default_params();
        change(p);
        try {
            validate(p);
        } catch (const std::invalid_argument&) {
            return true;
        }
        return false;
    };
    EXPECT_TRUE(refused([](Params& p) { p.au_bytes = 5 << 20; }));          // neither 2^n nor 3*2^n
    EXPECT_FALSE(refused([](Params& p) { p.au_bytes = 12 << 20; }));        // 3*2^22: a TLC AU
    EXPECT_TRUE(refused([](Params& p) { p.page_bytes = 24 << 10; }));       // page not a power of two
    EXPECT_TRUE(refused([](Params& p) { p.page_bytes = 2048; }));           // below 4 KiB
    EXPECT_TRUE(refused([](Params& p) { p.au_bytes = 8192; }));             // page larger than the AU
    EXPECT_TRUE(refused([](Params& p) { p.size_bytes += 512; }));           // not whole pages
    EXPECT_TRUE(refused([](Params& p) { p.open_aus = 0; }));
    EXPECT_TRUE(refused([](Params& p) { p.timing.bus_bytes_per_s = 0; }));
    EXPECT_TRUE(refused([](Params& p) { p.real_size_bytes = 1 << 30; }));  // genuine card, less storage
    EXPECT_TRUE(refused([](Params& p) {                                      // real beyond announced
        p.fake = Fake::limbo;
        p.real_size_bytes = p.size_bytes + (4 << 20);
    }));
    EXPECT_TRUE(refused([](Params& p) { p.fake = Fake::limbo; }));          // no real size
    EXPECT_FALSE(refused([](Params& p) {
        p.fake = Fake::limbo;
        p.real_size_bytes = 1 << 30;
    }));
    EXPECT_TRUE(refused([](Params& p) { // a wraparound wrapping above its real size is a chain
        p.fake = Fake::wraparound;
        p.real_size_bytes = 1 << 30;
        p.module_bytes = uint64_t{2} << 30;
    }));
    EXPECT_TRUE(refused([](Params& p) { // a chain needs its module between real and announced
        p.fake = Fake::chain;
        p.real_size_bytes = 1 << 30;
    }));
    EXPECT_FALSE(refused([](Params& p) {
        p.fake = Fake::chain;
        p.real_size_bytes = 1 << 30;
        p.module_bytes = uint64_t{4} << 30;
    }));
}

TEST(SimParams, JsonRoundTripKeepsEveryParameter)
{
    Params p = default_params();
    set_option(p, "au", "12M");
    set_option(p, "fake", "wraparound");
    set_option(p, "real-size", "4G");
    set_option(p, "module", "2G");
    set_option(p, "erased-byte", "255");
    set_option(p, "seed", "7");
    const auto j = to_json(p);
    EXPECT_EQ(j["au"], 12u << 20);
    EXPECT_EQ(j["fake"], "wraparound");
    EXPECT_EQ(j["module"], uint64_t{2} << 30);
    const Params back = params_from_json(j);
    EXPECT_EQ(to_json(back), j);

    // A genuine card's resolved real_size comes back too.
    const auto plain = to_json(default_params());
    EXPECT_EQ(plain["real_size"], default_params().size_bytes);
    EXPECT_EQ(to_json(params_from_json(plain)), plain);
}

TEST(SimParams, JsonTakesOptionStringsAndRefusesUnknownKeys)
{
    const Params p = params_from_json(nlohmann::json::parse(
        R"({"comment": "why", "au": "8M", "command": "1ms", "page_program": 900000, "strict_cache": false})"));
    EXPECT_EQ(p.au_bytes, 8u << 20);
    EXPECT_EQ(p.timing.command_ns, 1'000'000u);
    EXPECT_EQ(p.timing.page_program_ns, 900'000u);
    EXPECT_THROW(params_from_json(nlohmann::json::parse(R"({"au_size": "8M"})")), std::invalid_argument);
    EXPECT_THROW(params_from_json(nlohmann::json::parse(R"({"au": "5M"})")), std::invalid_argument);
    EXPECT_THROW(params_from_json(nlohmann::json::parse(R"({"open_aus": -1})")), std::invalid_argument);
    EXPECT_THROW(params_from_json(nlohmann::json::parse(R"([1, 2])")), std::invalid_argument);
}

TEST(SimParams, SustainedOptionsParseAndRoundTrip)
{
    Params p = default_params();
    set_option(p, "slc-cache", "6G");
    set_option(p, "slc-rate", "1e9");
    set_option(p, "native-rate", "20M"); // a size: 20 MiB/s, as --bus-rate takes it
    set_option(p, "slc-fold-rate", "5e6");
    set_option(p, "slc-fold-after", "100ms");
    set_option(p, "gc-stall", "500ms");
    set_option(p, "gc-every", "4");
    set_option(p, "gc-reserve", "256M");
    EXPECT_EQ(p.sustained.slc_cache_bytes, uint64_t{6} << 30);
    EXPECT_EQ(p.sustained.slc_rate, 1e9);
    EXPECT_EQ(p.sustained.native_rate, 20.0 * (1 << 20));
    EXPECT_EQ(p.sustained.slc_fold_rate, 5e6);
    EXPECT_EQ(p.sustained.slc_fold_after_ns, 100'000'000u);
    EXPECT_EQ(p.sustained.gc_stall_ns, 500'000'000u);
    EXPECT_EQ(p.sustained.gc_every, 4u);
    EXPECT_EQ(p.sustained.gc_reserve_bytes, 256u << 20);
    EXPECT_NO_THROW(validate(p));
    const Params back = params_from_json(to_json(p));
    EXPECT_EQ(to_json(back), to_json(p));
    // 0 rates resolve: the cache and native flash at page_program's rate, folding at the native one.
    const Params d = default_params();
    EXPECT_DOUBLE_EQ(slc_rate(d), 16384 / 700e-6);
    EXPECT_DOUBLE_EQ(native_rate(d), 16384 / 700e-6);
    EXPECT_DOUBLE_EQ(slc_fold_rate(p), 5e6);
    Params q = p;
    q.sustained.slc_fold_rate = 0;
    EXPECT_DOUBLE_EQ(slc_fold_rate(q), 20.0 * (1 << 20));
}

TEST(SimParams, SustainedOptionsRefuseWhatCannotBe)
{
    Params p = default_params();
    EXPECT_THROW(set_option(p, "native-rate", "fast"), std::invalid_argument);
    EXPECT_THROW(set_option(p, "gc-stall", "2h"), std::invalid_argument);
    EXPECT_THROW(set_option(p, "gc-every", "0"), std::invalid_argument);
    auto refused = [](Params q, const char* name, const char* value, const char* says) {
        set_option(q, name, value);
        try {
            validate(q);
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
            return;
        }
        ADD_FAILURE() << name << " " << value << " was accepted";
    };
    refused(p, "native-rate", "-5", "native-rate");
    refused(p, "slc-rate", "nan", "slc-rate");
    refused(p, "slc-fold-rate", "10", "slc-fold-rate");
    refused(p, "slc-cache", "64G", "larger than the card");
    refused(p, "slc-cache", "1000", "whole number of sectors");
}
