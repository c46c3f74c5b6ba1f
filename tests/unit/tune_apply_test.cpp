// apply_plan on a modelled device: read-back compared field by field, a
// refused SWITCH, an EXT_CSD changed behind the plan, and completion
// written last, only after the settings read back right.
#include "tune/apply.h"

#include <gtest/gtest.h>

using namespace mmc::tune;

namespace {

// An EXT_CSD in memory that takes WRITE_BYTE switches, except at indexes
// it ignores (the write is accepted, nothing changes) or refuses
// (SWITCH_ERROR).
struct ModelDevice : ExtCsdDevice {
    std::vector<uint8_t> ext_csd = std::vector<uint8_t>(512, 0);
    std::vector<int> ignores, refuses;
    std::vector<std::vector<Write>> transactions;
    std::vector<uint8_t> read_ext_csd() override { return ext_csd; }
    void switch_all(const std::vector<Write>& writes) override
    {
        transactions.push_back(writes);
        for (const auto& w : writes) {
            if (std::find(refuses.begin(), refuses.end(), w.index) != refuses.end())
                throw ApplyError("refused " + w.field);
            if (std::find(ignores.begin(), ignores.end(), w.index) != ignores.end()) continue;
            ext_csd[static_cast<std::size_t>(w.index)] = w.value;
        }
    }
};

ModelDevice partitionable()
{
    ModelDevice d;
    auto& b = d.ext_csd;
    b[192] = 8;                  // EXT_CSD_REV: 5.1
    b[160] = 7;                  // PARTITIONING_SUPPORT
    b[221] = 1, b[224] = 8;      // 4 MiB groups
    b[157] = 0x00, b[158] = 0x01; // MAX_ENH_SIZE_MULT 256
    b[212] = 0x00, b[213] = 0x00, b[214] = 0x80; // SEC_COUNT 0x800000: 4 GiB
    b[226] = 8;                  // boot partitions
    b[248] = 10;                 // GENERIC_CMD6_TIME
    return d;
}

} // namespace

TEST(TuneApply, WritesThenReadsBack)
{
    ModelDevice d = partitionable();
    Request r;
    r.boot_partition = BootPartition::boot1;
    const auto before = d.ext_csd;
    const Plan p = make_plan(before, r);
    const auto result = apply_plan(d, p, before);
    EXPECT_EQ(result.after[179], 0x08);
    ASSERT_EQ(d.transactions.size(), 1u);
}

TEST(TuneApply, AFieldThatDoesNotHoldIsNamed)
{
    ModelDevice d = partitionable();
    d.ignores = {179};
    Request r;
    r.boot_partition = BootPartition::boot1;
    const auto before = d.ext_csd;
    try {
        apply_plan(d, make_plan(before, r), before);
        FAIL() << "no error";
    } catch (const ApplyError& e) {
        EXPECT_NE(std::string(e.what()).find("PARTITION_CONFIG [179]: wrote 0x8, reads 0x0"), std::string::npos) << e.what();
    }
}

TEST(TuneApply, ChangedBehindThePlanWritesNothing)
{
    ModelDevice d = partitionable();
    Request r;
    r.boot_partition = BootPartition::boot1;
    const auto before = d.ext_csd;
    const Plan p = make_plan(before, r);
    d.ext_csd[179] = 0x10;
    EXPECT_THROW(apply_plan(d, p, before), ApplyError);
    EXPECT_TRUE(d.transactions.empty());
}

TEST(TuneApply, CompletionOnlyAfterTheSettingsHold)
{
    ModelDevice d = partitionable();
    Request r;
    r.gp[0] = 64 << 20;
    r.permanent = true;
    const auto before = d.ext_csd;
    const Plan p = make_plan(before, r);
    ASSERT_TRUE(p.applicable());
    apply_plan(d, p, before);
    ASSERT_EQ(d.transactions.size(), 2u);
    ASSERT_EQ(d.transactions[1].size(), 1u);
    EXPECT_EQ(d.transactions[1][0].index, 155);
    EXPECT_EQ(d.ext_csd[155], 1);
    EXPECT_EQ(d.ext_csd[143], 16);

    ModelDevice bad = partitionable();
    bad.ignores = {143}; // GP_SIZE_MULT_1's low byte does not hold
    try {
        apply_plan(bad, p, before);
        FAIL() << "no error";
    } catch (const ApplyError& e) {
        EXPECT_NE(std::string(e.what()).find("GP_SIZE_MULT_1 [143]"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("PARTITION_SETTING_COMPLETED was not written"), std::string::npos) << e.what();
    }
    EXPECT_EQ(bad.transactions.size(), 1u);
    EXPECT_EQ(bad.ext_csd[155], 0);
}

TEST(TuneApply, ARefusedSwitchStopsBeforeCompletion)
{
    ModelDevice d = partitionable();
    d.refuses = {145};
    Request r;
    r.gp[0] = 64 << 20;
    r.permanent = true;
    const auto before = d.ext_csd;
    EXPECT_THROW(apply_plan(d, make_plan(before, r), before), ApplyError);
    EXPECT_EQ(d.ext_csd[155], 0);
}

TEST(TuneApply, RefusedPlansAreNotApplied)
{
    ModelDevice d = partitionable();
    Request r;
    r.cache = true; // no cache: refused
    const auto before = d.ext_csd;
    EXPECT_THROW(apply_plan(d, make_plan(before, r), before), ApplyError);
    EXPECT_TRUE(d.transactions.empty());
}

TEST(TuneApply, ARawByteIsReadBackByItsIndex)
{
    ModelDevice d = partitionable();
    Request r;
    r.extcsd_writes = {{134, 1}};
    const auto before = d.ext_csd;
    const Plan p = make_plan(before, r);
    EXPECT_EQ(apply_plan(d, p, before).after[134], 1);
    // A device that ignores the byte: the read-back names it.
    ModelDevice deaf = partitionable();
    deaf.ignores = {134};
    try {
        apply_plan(deaf, p, before);
        FAIL() << "an ignored raw write passed the read-back";
    } catch (const ApplyError& e) {
        EXPECT_NE(std::string(e.what()).find("SEC_BAD_BLK_MGMNT [134]: wrote 0x1, reads 0x0"), std::string::npos) << e.what();
    }
}

TEST(TuneApply, ARefusedRawWriteTouchesNothing)
{
    ModelDevice d = partitionable();
    Request r;
    r.extcsd_writes = {{134, 1}, {192, 9}}; // the second is read-only: the whole plan is refused
    const auto before = d.ext_csd;
    const Plan p = make_plan(before, r);
    EXPECT_FALSE(p.refusals.empty());
    EXPECT_THROW(apply_plan(d, p, before), ApplyError);
    EXPECT_TRUE(d.transactions.empty());
    EXPECT_EQ(d.ext_csd, before);
}
