// The plan's unit when the card's AU is larger than the SD layout's
// boundary unit: the specification's places are kept when they already put
// the data area on an AU (bench/format-wa: moving it out costs erases), and
// the layout is moved onto the AU only when they do not.
#include "format/make_plan.h"

#include <gtest/gtest.h>

using namespace mmc::format;

namespace {

MakePlan plan(uint64_t sectors, uint64_t au)
{
    MakeOptions o;
    o.unit_bytes = au;
    o.unit_source = "--au";
    return make_plan(sectors, o);
}

} // namespace

TEST(FormatMakePlan, A4GiBCardOnAn8MiBAuKeepsTheSpecificationsPlaces)
{
    const MakePlan p = plan(8388608, 8u << 20); // 4 GiB: partition at 4 MiB, data at 8 MiB
    EXPECT_EQ(p.unit_bytes, 8u << 20);
    EXPECT_EQ(p.layout.partition_start, 8192u);
    EXPECT_EQ(p.layout.partition_start + p.layout.data_start, 16384u);
    EXPECT_EQ(p.layout.partition_start, sd_layout(8388608).partition_start);
}

TEST(FormatMakePlan, A16GiBCardOnAn8MiBAuIsMovedOntoTheAu)
{
    // The specification's data area would start at 12 MiB: not on an 8 MiB AU.
    const SdLayout spec = sd_layout(33554432);
    ASSERT_NE((spec.partition_start + spec.data_start) % 16384, 0u);
    const MakePlan p = plan(33554432, 8u << 20);
    EXPECT_EQ(p.layout.partition_start, 16384u);
    EXPECT_EQ((p.layout.partition_start + p.layout.data_start) % 16384, 0u);
}

TEST(FormatMakePlan, AnAuThatIsNotAMultipleOfTheUnitIsNeverKeptOnTheSpecification)
{
    const MakePlan p = plan(8388608, 12u << 20); // a TLC card's 12 MiB AU
    EXPECT_EQ(p.unit_bytes, 12u << 20);
    EXPECT_EQ((p.layout.partition_start + p.layout.data_start) * 512 % (12u << 20), 0u);
}
