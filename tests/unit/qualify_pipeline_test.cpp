// The pipeline over fake steps: real exit statuses recorded, a failing step
// does not stop the rest, an interrupt starts no later step.
#include "cli/cli.h"
#include "qualify/pipeline.h"

#include <gtest/gtest.h>

using namespace mmc::qualify;

namespace {

struct Fakes {
    std::vector<std::string> ran;
    std::atomic<bool> stop{false};

    // A step that records that it ran and ends with `status`; with
    // `interrupt`, Ctrl-C arrives while it runs.
    StepSpec step(const std::string& name, int status, bool interrupt = false, Needs needs = Needs::always)
    {
        StepSpec s;
        s.name = name;
        s.tool = "fake";
        s.needs = needs;
        s.describe = [name](const Settings&) { return "does " + name; };
        s.run = [this, name, status, interrupt](StepContext&) {
            ran.push_back(name);
            if (interrupt) stop.store(true);
            StepResult r;
            r.exit_status = status;
            if (status) r.message = name + " went wrong";
            return r;
        };
        return s;
    }
};

Outcome run(Fakes& f, const std::vector<StepSpec>& table, const Settings& settings = {})
{
    StepContext context(settings, f.stop);
    return run_plan(make_plan(table, settings), context, {});
}

} // namespace

TEST(QualifyPipeline, RecordsEachStepsRealExitStatusAndGoesOn)
{
    Fakes f;
    const auto out = run(f, {f.step("info", 0), f.step("bus", 3), f.step("bench", 0)});
    EXPECT_EQ(f.ran, (std::vector<std::string>{"info", "bus", "bench"}));
    ASSERT_EQ(out.steps.size(), 3u);
    EXPECT_EQ(out.steps[0].state, StepState::ok);
    EXPECT_EQ(out.steps[1].state, StepState::failed);
    EXPECT_EQ(out.steps[1].exit_status, 3);
    EXPECT_EQ(out.steps[1].message, "bus went wrong");
    EXPECT_EQ(out.steps[2].exit_status, 0);
    EXPECT_FALSE(out.interrupted);
    EXPECT_FALSE(out.all_ok());
}

TEST(QualifyPipeline, AllOkWhenEveryStepWorked)
{
    Fakes f;
    const auto out = run(f, {f.step("info", 0), f.step("bus", 0)});
    EXPECT_TRUE(out.all_ok());
}

TEST(QualifyPipeline, InterruptDuringAStepStartsNoLaterStep)
{
    Fakes f;
    const auto out = run(f, {f.step("info", 0), f.step("erase", mmc::cli::interrupted, true), f.step("bench-quick", 0),
                             f.step("bench-a1", 0)});
    EXPECT_EQ(f.ran, (std::vector<std::string>{"info", "erase"}));
    EXPECT_TRUE(out.interrupted);
    EXPECT_EQ(out.interrupted_during, "erase");
    ASSERT_EQ(out.steps.size(), 4u);
    EXPECT_EQ(out.steps[1].exit_status, mmc::cli::interrupted);
    for (std::size_t i : {2u, 3u}) {
        EXPECT_EQ(out.steps[i].state, StepState::not_started);
        EXPECT_FALSE(out.steps[i].exit_status.has_value());
        EXPECT_EQ(out.steps[i].message, "not started: interrupted");
    }
    EXPECT_FALSE(out.all_ok());
}

TEST(QualifyPipeline, AStepThatFinishesDespiteCtrlCStillEndsTheRun)
{
    // The erase's last chunk completed (exit 0) but Ctrl-C came meanwhile.
    Fakes f;
    const auto out = run(f, {f.step("erase", 0, true), f.step("bench", 0)});
    EXPECT_EQ(f.ran, (std::vector<std::string>{"erase"}));
    EXPECT_TRUE(out.interrupted);
    EXPECT_EQ(out.steps[0].state, StepState::ok);
    EXPECT_EQ(out.steps[1].state, StepState::not_started);
}

TEST(QualifyPipeline, InterruptBeforeTheFirstStepRunsNothing)
{
    Fakes f;
    f.stop.store(true);
    const auto out = run(f, {f.step("info", 0), f.step("bus", 0)});
    EXPECT_TRUE(f.ran.empty());
    EXPECT_TRUE(out.interrupted);
    EXPECT_EQ(out.interrupted_during, "");
    EXPECT_EQ(out.steps.size(), 2u);
}

TEST(QualifyPipeline, AThrowingStepFailsWithExitOne)
{
    Fakes f;
    StepSpec thrower = f.step("bus", 0);
    thrower.run = [](StepContext&) -> StepResult { throw std::runtime_error("no such host"); };
    const auto out = run(f, {thrower, f.step("bench", 0)});
    EXPECT_EQ(out.steps[0].exit_status, 1);
    EXPECT_EQ(out.steps[0].message, "no such host");
    EXPECT_EQ(f.ran, (std::vector<std::string>{"bench"}));
}

TEST(QualifyPipeline, ASkippedStepIsNeitherOkNorFailed)
{
    Fakes f;
    StepSpec optional = f.step("geometry", 0);
    optional.run = [](StepContext&) {
        StepResult r;
        r.skipped = true;
        r.message = "mmc-probe not found";
        return r;
    };
    const auto out = run(f, {optional});
    EXPECT_EQ(out.steps[0].state, StepState::skipped);
    EXPECT_FALSE(out.steps[0].exit_status.has_value());
    EXPECT_TRUE(out.all_ok());
}

TEST(QualifyPipeline, StepsSeeWhatEarlierStepsLearned)
{
    Fakes f;
    StepSpec info = f.step("info", 0), bench = f.step("bench", 0);
    info.run = [](StepContext& c) {
        c.card = {{"name", "mmc0:4567"}};
        return StepResult{};
    };
    std::string seen;
    bench.run = [&seen](StepContext& c) {
        seen = c.card.value("name", "");
        return StepResult{};
    };
    run(f, {info, bench});
    EXPECT_EQ(seen, "mmc0:4567");
}

TEST(QualifyPipeline, AnExitStatusThatIsTheToolsAnswerIsNotAFailure)
{
    // mmc-probe capacity exits 10 when it finds a limbo fake: the step
    // worked, its status is kept.
    Fakes f;
    StepSpec capacity = f.step("capacity", 10);
    auto run_it = capacity.run;
    capacity.run = [run_it](StepContext& c) {
        StepResult r = run_it(c);
        r.status_is_answer = true;
        return r;
    };
    const auto out = run(f, {f.step("info", 0), capacity, f.step("bus", 10)});
    EXPECT_EQ(out.steps[1].state, StepState::ok);
    EXPECT_EQ(out.steps[1].exit_status, 10);
    EXPECT_EQ(out.steps[2].state, StepState::failed); // the same status from a step that does not answer with it
    EXPECT_FALSE(out.all_ok());
    const auto only = run(f, {capacity});
    EXPECT_TRUE(only.all_ok());
}
