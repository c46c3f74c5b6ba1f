// Steps run as a sibling tool's child process: its exit status is the
// step's, its stdout the document; a missing optional tool is skipped;
// Ctrl-C is forwarded once, and reaches the tool even when mmc-qualify was
// started ignoring SIGINT. A fake tool that waits ends by itself within
// seconds, so no test here can hang.
#include "cli/process.h"
#include "qualify/child_step.h"

#include "ignoring_sigint.h"
#include "ready_file.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace mmc::qualify;
namespace fs = std::filesystem;

namespace {

// A directory on PATH holding a fake tool, a shell script.
struct FakeTool {
    fs::path dir;
    std::string old_path;

    FakeTool(const std::string& name, const std::string& script)
    {
        dir = fs::temp_directory_path() / ("qualify-child-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        std::ofstream(dir / name) << "#!/bin/sh\n" << script << "\n";
        fs::permissions(dir / name, fs::perms::owner_all);
        old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
        ::setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
    }
    ~FakeTool()
    {
        ::setenv("PATH", old_path.c_str(), 1);
        fs::remove_all(dir);
    }
};

StepResult run_step(const StepSpec& spec, std::atomic<bool>& stop)
{
    Settings s;
    s.device = "/dev/fake0";
    StepContext c(s, stop);
    return spec.run(c);
}

} // namespace

TEST(QualifyChild, ExitStatusDocumentAndMessageAreTheTools)
{
    FakeTool t("mmc-fake", R"(echo "{\"tool\": \"mmc-fake\", \"args\": \"$*\"}"; echo "mmc-fake: $2: broken" >&2; exit 3)");
    std::atomic<bool> stop{false};
    const auto r = run_step(child_step("fake", "mmc-fake", with_device({"-J"}), Needs::always, WhenMissing::fail), stop);
    EXPECT_EQ(r.exit_status, 3);
    EXPECT_FALSE(r.skipped);
    EXPECT_EQ(r.doc["tool"], "mmc-fake");
    EXPECT_EQ(r.doc["args"], "-J /dev/fake0");
    EXPECT_EQ(r.message, "mmc-fake: /dev/fake0: broken");
}

TEST(QualifyChild, WithDevicePassesAnyDeviceOnlyWhereTheToolTakesIt)
{
    Settings s;
    s.device = "/dev/loop3";
    EXPECT_EQ(with_device({"capacity", "-J"}, true)(s), (std::vector<std::string>{"capacity", "-J", "/dev/loop3"}));
    s.any_device = true;
    EXPECT_EQ(with_device({"capacity", "-J"}, true)(s), (std::vector<std::string>{"capacity", "-J", "--any-device", "/dev/loop3"}));
    EXPECT_EQ(with_device({"geometry"})(s), (std::vector<std::string>{"geometry", "/dev/loop3"}));
}

TEST(QualifyChild, OkWithJson)
{
    FakeTool t("mmc-fake", R"(echo '{"tool": "mmc-fake"}')");
    std::atomic<bool> stop{false};
    const auto r = run_step(child_step("fake", "mmc-fake", with_device({}), Needs::always, WhenMissing::fail), stop);
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_TRUE(r.message.empty());
}

TEST(QualifyChild, OutputThatIsNotJsonFailsAnOkStep)
{
    FakeTool t("mmc-fake", "echo not json");
    std::atomic<bool> stop{false};
    const auto r = run_step(child_step("fake", "mmc-fake", with_device({}), Needs::always, WhenMissing::fail), stop);
    EXPECT_EQ(r.exit_status, 1);
    EXPECT_NE(r.message.find("not JSON"), std::string::npos);
}

TEST(QualifyChild, MissingToolIsSkippedOrFailsAsTheTableSays)
{
    std::atomic<bool> stop{false};
    const auto skip = run_step(child_step("geometry", "mmc-no-such-tool", with_device({}), Needs::always, WhenMissing::skip), stop);
    EXPECT_TRUE(skip.skipped);
    EXPECT_NE(skip.message.find("mmc-no-such-tool not found"), std::string::npos);
    const auto fail = run_step(child_step("geometry", "mmc-no-such-tool", with_device({}), Needs::always, WhenMissing::fail), stop);
    EXPECT_FALSE(fail.skipped);
    EXPECT_EQ(fail.exit_status, 127);
}

// The fake stops cleanly on SIGINT with 130, as the tools do, and says when
// its trap is set (the test's stop comes only then); unstopped, it ends by
// itself after about 10 s with 7.
std::string stops_on_sigint(const ReadyFile& ready)
{
    return "trap 'echo stopped >&2; exit 130' INT\n" + ready.shell_says_ready() +
           "\ni=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; exit 7";
}

// The step, stopped (as by Ctrl-C) once the fake said it was ready.
StepResult run_stopped_when_ready(const StepSpec& spec, const ReadyFile& ready)
{
    std::atomic<bool> stop{false};
    bool said_ready = false;
    std::thread ctrl_c([&] {
        said_ready = ready.wait();
        stop.store(true);
    });
    const auto r = run_step(spec, stop);
    ctrl_c.join();
    EXPECT_TRUE(said_ready) << "the fake tool never set its trap";
    return r;
}

TEST(QualifyChild, StopForwardsOneSigintAndTheToolsStatusComesBack)
{
    const ReadyFile ready;
    FakeTool t("mmc-fake", stops_on_sigint(ready));
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_stopped_when_ready(child_step("fake", "mmc-fake", with_device({}), Needs::always, WhenMissing::fail), ready);
    EXPECT_EQ(r.exit_status, 130);
    EXPECT_EQ(r.message, "stopped");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(8));
}

TEST(QualifyChild, StopReachesTheToolWhenWeWereStartedIgnoringSigint)
{
    // `make check &` or `mmc-qualify ... &` from a script: SIGINT is ignored
    // here, and a tool that inherited that could never be stopped.
    const IgnoringSigintBlockingSigterm background_job;
    const ReadyFile ready;
    FakeTool t("mmc-fake", stops_on_sigint(ready));
    const auto r = run_stopped_when_ready(child_step("fake", "mmc-fake", with_device({}), Needs::always, WhenMissing::fail), ready);
    EXPECT_EQ(r.exit_status, 130);
    EXPECT_EQ(r.message, "stopped");
}

TEST(QualifyChild, AToolThatCannotRunIs126WithTheReason)
{
    FakeTool t("mmc-fake", "exit 0");
    fs::permissions(t.dir / "mmc-fake", fs::perms::owner_read | fs::perms::owner_write);
    std::atomic<bool> stop{false};
    const auto r = run_child((t.dir / "mmc-fake").string(), {}, stop);
    EXPECT_EQ(r.exit_status, 126);
    EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << r.err;
}

TEST(QualifyChild, KilledBySignalIs128PlusIt)
{
    FakeTool t("mmc-fake", "kill -TERM $$");
    std::atomic<bool> stop{false};
    const auto r = run_step(child_step("fake", "mmc-fake", with_device({}), Needs::always, WhenMissing::fail), stop);
    EXPECT_EQ(r.exit_status, 128 + 15);
}

TEST(QualifyChild, FindsTheToolBesideTheProgramFirst)
{
    const fs::path dir = fs::temp_directory_path() / ("qualify-beside-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "mmc-fake") << "#!/bin/sh\n";
    fs::permissions(dir / "mmc-fake", fs::perms::owner_all);
    std::ofstream(dir / "mmc-qualify") << "";
    EXPECT_EQ(mmc::cli::find_tool("mmc-fake", (dir / "mmc-qualify").string()), (dir / "mmc-fake").string());
    EXPECT_EQ(mmc::cli::find_tool("sh", (dir / "mmc-qualify").string()).value_or("").substr(0, 1), "/"); // then PATH
    EXPECT_FALSE(mmc::cli::find_tool("mmc-no-such-tool", (dir / "mmc-qualify").string()));
    fs::remove_all(dir);
}
