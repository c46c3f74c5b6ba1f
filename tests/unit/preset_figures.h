// A simulator preset's figures as mmc-bench's a1/a2 suites measure them,
// predicted by the model (sim/figures.h): the verdict tests on presets built
// to pass or fail a claim by a known margin read them here.
#pragma once

#include "sim/figures.h"
#include "sim/params.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace mmc::test {

inline sim::Params preset(const std::string& name)
{
    std::ifstream in("sim/presets/" + name + ".json");
    EXPECT_TRUE(in) << "run from the source tree: sim/presets/" << name << ".json";
    return sim::params_from_json(nlohmann::json::parse(in));
}

struct PresetFigures {
    double read_iops, write_iops, seq_mb_s;
};

// 4 KiB QD1 random reads, random writes inside the open AUs, 512 KiB
// sequential writes.
inline PresetFigures suite_figures(const sim::Params& p)
{
    return {sim::random_read_iops(p, 4096), sim::random_write_iops(p, uint64_t{p.open_aus} * p.au_bytes, 4096),
            sim::sequential_write_mb_s(p, sim::StartState::clean, 512 * 1024)};
}

} // namespace mmc::test
