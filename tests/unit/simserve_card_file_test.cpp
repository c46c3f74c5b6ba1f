// Card files as mmc-sim, the plugin and the lab read them: a preset (a
// subset of parameters) or a whole --describe -J document, and the describe
// views.
#include "cli/input.h"
#include "simserve/card_file.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace mmc;

namespace {

// A file that removes itself.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& text)
    {
        char name[] = "/tmp/simserve-card-XXXXXX";
        const int fd = mkstemp(name);
        if (fd >= 0) close(fd);
        path = name;
        std::ofstream(path) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

} // namespace

TEST(SimserveCardFile, APresetSubsetAppliesOverTheBase)
{
    TempFile f(R"({"comment": "a test card", "size": "64M", "open_aus": 2})");
    const auto base = sim::default_params();
    const auto p = simserve::load_card_file(f.path, base);
    EXPECT_EQ(p.size_bytes, 64u << 20);
    EXPECT_EQ(p.open_aus, 2u);
    EXPECT_EQ(p.au_bytes, base.au_bytes); // untouched keys keep the base's value
}

TEST(SimserveCardFile, DescribeOutputRoundTrips)
{
    auto p = sim::default_params();
    sim::set_option(p, "size", "128M");
    sim::set_option(p, "fake", "wraparound");
    sim::set_option(p, "real-size", "32M");
    sim::set_option(p, "command", "1.5ms");
    TempFile f(simserve::describe_json(p).dump(2));
    const auto back = simserve::load_card_file(f.path, sim::default_params());
    EXPECT_EQ(sim::to_json(back), sim::to_json(p));
}

TEST(SimserveCardFile, ErrorsNameTheFile)
{
    TempFile bad_json("{ not json");
    TempFile unknown_key(R"({"sizee": "1G"})");
    for (const auto* f : {&bad_json, &unknown_key}) {
        try {
            simserve::load_card_file(f->path, sim::default_params());
            ADD_FAILURE() << f->path << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(f->path), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(simserve::load_card_file("/nonexistent/card.json", sim::default_params()), mmc::cli::InputError);
}

TEST(SimserveCardFile, DescribeTextListsEveryOptionInHelpOrderWithUnits)
{
    auto p = sim::default_params();
    sim::set_option(p, "size", "1G");
    sim::set_option(p, "page-program", "700us");
    const auto text = simserve::describe_text(p);
    // Aligned on the longest name, slc_fold_after.
    EXPECT_NE(text.find("size            1 GiB\n"), std::string::npos) << text;
    EXPECT_NE(text.find("page_program    700 us\n"), std::string::npos) << text;
    EXPECT_LT(text.find("size "), text.find("open_aus "));
    EXPECT_LT(text.find("open_aus "), text.find("seed "));
    EXPECT_NE(text.find("random read 4 KiB"), std::string::npos) << text;
    for (auto name : simserve::card_option_names()) {
        std::string key(name);
        for (auto& c : key)
            if (c == '-') c = '_';
        EXPECT_NE(text.find(key + " "), std::string::npos) << key << " missing from\n" << text;
    }
}

TEST(SimserveCardFile, DescribeJsonNamesToolCardAndModelledFigures)
{
    const auto doc = simserve::describe_json(sim::default_params());
    EXPECT_EQ(doc["tool"], "mmc-sim");
    EXPECT_TRUE(doc["card"].contains("open_aus"));
    EXPECT_GT(doc["modelled"]["rand_read_iops"].get<double>(), 0);
}
