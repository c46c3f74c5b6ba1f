// The shipped presets: each loads, is the card its comment says, and shows
// the model's signatures. Prints the modelled figures of each, the column a
// measurement through the served device is compared with.
#include "sim/card.h"
#include "sim/figures.h"
#include "sim/params.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <string>

using namespace mmc::sim;

namespace {

nlohmann::json load(const std::string& name)
{
    std::ifstream in("sim/presets/" + name + ".json");
    if (!in) throw std::runtime_error("sim/presets/" + name + ".json: cannot open (run from the source tree)");
    return nlohmann::json::parse(in);
}

const char* const presets[] = {"class10-2015", "a1", "tlc-12m-au", "fake-limbo-64g-8g", "fake-wraparound"};

} // namespace

TEST(SimPresets, EachLoadsWithASourcedComment)
{
    for (const char* name : presets) {
        const auto j = load(name);
        ASSERT_TRUE(j.contains("comment")) << name;
        EXPECT_GT(j["comment"].get<std::string>().size(), 80u) << name;
        EXPECT_NO_THROW(params_from_json(j)) << name;
    }
}

TEST(SimPresets, TheClass10PresetIsTheDefaultCard)
{
    EXPECT_EQ(to_json(params_from_json(load("class10-2015"))), to_json(default_params()));
}

TEST(SimPresets, FakePresetsAreTheFakesTheyName)
{
    const Params limbo = params_from_json(load("fake-limbo-64g-8g"));
    EXPECT_EQ(limbo.fake, Fake::limbo);
    EXPECT_EQ(real_size(limbo), uint64_t{8} << 30);
    EXPECT_GT(limbo.size_bytes, 60e9);
    const Params wrap = params_from_json(load("fake-wraparound"));
    EXPECT_EQ(wrap.fake, Fake::wraparound);
    EXPECT_EQ(wrap_module(wrap), uint64_t{4} << 30);
    Card c(wrap);
    std::vector<uint8_t> data(4096, 0x42), back(4096);
    c.write(0, data, 0);
    c.read(wrap_module(wrap) * 3, back, c.idle_at());
    EXPECT_EQ(back, data);
}

TEST(SimPresets, ModelledFiguresShowTheModelsSignatures)
{
    for (const char* name : presets) {
        const Params p = params_from_json(load(name));
        const Figures f = modelled_figures(p);
        std::cout << "[ figures  ] " << name << ": " << to_json(f).dump() << "\n";
        EXPECT_GT(f.seq_read_mb_s, 1) << name;
        EXPECT_GT(f.seq_write_mb_s_clean, f.seq_write_mb_s_full) << name;
        EXPECT_GT(f.seq_write_mb_s_full, f.seq_write_mb_s_fragmented) << name;
        EXPECT_GT(f.rand_write_iops_open_aus, 10 * f.rand_write_iops_card) << name;
        EXPECT_GT(f.rand_read_iops, f.rand_write_iops_open_aus) << name;
    }
}

// The video-speed-class presets: the model's figures put each on the
// side of V30 (30 MB/s in every AU, sequential writes) it was built for.
TEST(SimPresets, TheV30PresetsAreOnTheirSideOfTheClass)
{
    for (const char* name : {"v30-slc-tlc", "v30-honest", "v30-slc-ok", "v30-stalls"}) {
        const auto j = load(name);
        EXPECT_GT(j["comment"].get<std::string>().size(), 80u) << name;
    }
    const SustainedFigures tlc = sustained_figures(params_from_json(load("v30-slc-tlc")));
    EXPECT_EQ(tlc.knee_bytes, uint64_t{6} << 30);
    EXPECT_GT(tlc.burst_mb_s, 85);
    EXPECT_LT(tlc.post_cache_mb_s, 30);
    EXPECT_LT(tlc.worst_au_mb_s, 30);

    const SustainedFigures honest = sustained_figures(params_from_json(load("v30-honest")));
    EXPECT_EQ(honest.knee_bytes, 0u);
    EXPECT_GE(honest.worst_au_mb_s, 30);
    EXPECT_EQ(honest.fragmented.count, 0u);

    const SustainedFigures ok = sustained_figures(params_from_json(load("v30-slc-ok")));
    EXPECT_GT(ok.knee_bytes, 0u);
    EXPECT_GT(ok.burst_mb_s, 85);
    EXPECT_GE(ok.post_cache_mb_s, 30);
    EXPECT_GE(ok.worst_au_mb_s, 30);

    const SustainedFigures stalls = sustained_figures(params_from_json(load("v30-stalls")));
    EXPECT_GE(stalls.post_cache_mb_s, 30); // the speed is there ...
    EXPECT_LT(stalls.worst_au_mb_s, 30);   // ... the stalls break the AU
    EXPECT_GT(stalls.clean.count, 0u);
    EXPECT_GT(stalls.fragmented.count, stalls.clean.count);
    EXPECT_EQ(stalls.clean.longest_ns, 500'000'000u);
}

TEST(SimPresets, TheV30PresetsWorkAtASmallSize)
{
    for (const char* name : {"v30-slc-tlc", "v30-honest", "v30-slc-ok", "v30-stalls"}) {
        Params p = params_from_json(load(name));
        set_option(p, "size", "1G");
        if (p.sustained.slc_cache_bytes) set_option(p, "slc-cache", "64M");
        ASSERT_NO_THROW(validate(p)) << name;
        const SustainedFigures f = sustained_figures(p);
        EXPECT_EQ(f.knee_bytes, p.sustained.slc_cache_bytes ? uint64_t{64} << 20 : 0u) << name;
    }
}
