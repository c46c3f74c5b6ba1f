// The typed error and run_tool: the one place a thrown error becomes
// "tool: message" on stderr and an exit status.
#include "bench/session.h"
#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/json_out.h"
#include "cli/json_printed.h"
#include "erase/device.h"
#include "erase/plan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace mmc::cli;

namespace {

// run_tool's status and what it printed on stderr.
std::pair<int, std::string> run(const std::function<int()>& body)
{
    testing::internal::CaptureStderr();
    const int status = run_tool("mmc-test", body);
    return {status, testing::internal::GetCapturedStderr()};
}

} // namespace

TEST(CliErrors, EachKindHasItsExitStatus)
{
    EXPECT_EQ(exit_status(ErrorKind::failure), 1);
    EXPECT_EQ(exit_status(ErrorKind::usage), 2);
    EXPECT_EQ(exit_status(ErrorKind::interrupted), 130);
}

TEST(CliErrors, TheBodysStatusPassesThroughSilently)
{
    EXPECT_EQ(run([] { return 0; }), (std::pair<int, std::string>{0, ""}));
    EXPECT_EQ(run([] { return 130; }), (std::pair<int, std::string>{130, ""}));
}

TEST(CliErrors, AFailureSaysToolMessageAndHint)
{
    EXPECT_EQ(run([]() -> int { throw Error(ErrorKind::failure, "/dev/mmcblk0: not confirmed"); }),
              (std::pair<int, std::string>{1, "mmc-test: /dev/mmcblk0: not confirmed\n"}));
    EXPECT_EQ(run([]() -> int { throw Error(ErrorKind::failure, "refusing", "add --destructive to allow it"); }),
              (std::pair<int, std::string>{1, "mmc-test: refusing; add --destructive to allow it\n"}));
}

TEST(CliErrors, AUsageErrorAddsTheHelpHint)
{
    EXPECT_EQ(run([]() -> int { throw UsageError("unknown option '--bogus'"); }),
              (std::pair<int, std::string>{2, "mmc-test: unknown option '--bogus'\n"
                                              "Try 'mmc-test --help' for more information.\n"}));
}

TEST(CliErrors, InterruptedIs130)
{
    EXPECT_EQ(run([]() -> int { throw Error(ErrorKind::interrupted, "interrupted before anything was erased"); }),
              (std::pair<int, std::string>{130, "mmc-test: interrupted before anything was erased\n"}));
}

TEST(CliErrors, AnyOtherExceptionIsAFailure)
{
    EXPECT_EQ(run([]() -> int { throw std::system_error(ENOENT, std::generic_category(), "/dev/mmcblk9"); }).first, 1);
    EXPECT_EQ(run([]() -> int { throw std::invalid_argument("bad"); }), (std::pair<int, std::string>{1, "mmc-test: bad\n"}));
}

TEST(CliErrors, LibraryErrorsCarryTheirKind)
{
    EXPECT_EQ(run([]() -> int { throw mmc::bench::SessionUsage("the state suite needs a raw device"); }).first, 2);
    EXPECT_EQ(run([]() -> int {
                  throw mmc::bench::SessionRefused("/dev/sda: not an MMC device", Remedy::any_device_write);
              }),
              (std::pair<int, std::string>{1, "mmc-test: /dev/sda: not an MMC device; use --any-device to write to it anyway\n"}));
    EXPECT_EQ(run([]() -> int { mmc::erase::make_plan({64 << 20, 0, {0, 0}, 512, 512, 0, false}); return 0; }).first, 2);
}

TEST(CliErrors, ARemedyIsWordedByCliAndAToolsHintComesInstead)
{
    EXPECT_EQ(error_text(Error(ErrorKind::failure, "the range holds no whole erase unit", Remedy::zero_unaligned)),
              "the range holds no whole erase unit; use --zero-unaligned to zero it instead");
    Error both(ErrorKind::failure, "refusing", "say yes");
    both.remedy = Remedy::confirm;
    EXPECT_EQ(error_text(both), "refusing; say yes");
    EXPECT_EQ(error_text(Error(ErrorKind::failure, "refusing", Remedy::none)), "refusing");
    // Every remedy has words, and each names the flag that gives it.
    for (Remedy r : {Remedy::any_device_erase, Remedy::any_device_write, Remedy::any_device_probe, Remedy::any_device_measure, Remedy::zero_unaligned,
                     Remedy::destructive, Remedy::confirm, Remedy::use_file})
        EXPECT_NE(remedy_text(r).find(" --"), std::string_view::npos) << static_cast<int>(r);
    EXPECT_FALSE(remedy_text(Remedy::release_device).empty());
    EXPECT_TRUE(remedy_text(Remedy::none).empty());
}

TEST(CliErrors, InContextKeepsTheRemedy)
{
    EXPECT_EQ(run([]() -> int {
                  return in_context("/dev/loop0", []() -> int {
                      throw mmc::erase::TargetError(mmc::erase::TargetError::Why::not_mmc, "not an MMC/SD device",
                                                    Remedy::any_device_erase);
                  });
              }),
              (std::pair<int, std::string>{1, "mmc-test: /dev/loop0: not an MMC/SD device; use --any-device to erase it anyway\n"}));
}

TEST(CliErrors, InContextPrefixesAndKeepsTheKind)
{
    const auto [status, text] = run([]() -> int {
        return in_context("/dev/mmcblk0", []() -> int { throw mmc::erase::PlanError("length is 0: nothing to erase"); });
    });
    EXPECT_EQ(status, 2);
    EXPECT_EQ(text.rfind("mmc-test: /dev/mmcblk0: length is 0: nothing to erase\n", 0), 0u) << text;
    EXPECT_EQ(run([]() -> int { return in_context("could not write the bundle", []() -> int { throw std::runtime_error("ENOSPC"); }); }),
              (std::pair<int, std::string>{1, "mmc-test: could not write the bundle: ENOSPC\n"}));
    EXPECT_EQ(in_context("x", [] { return 7; }), 7);
}

TEST(CliErrors, AsUsageMakesInputErrorsUsageErrors)
{
    EXPECT_EQ(run([]() -> int { return as_usage([]() -> int { throw std::runtime_error("csd: odd number of hex digits"); }); }).first, 2);
    EXPECT_EQ(run([]() -> int { return as_usage([]() -> int { throw Error(ErrorKind::failure, "kept"); }); }).first, 1);
}

TEST(CliErrors, LibraryMarksAreTakenOut)
{
    EXPECT_EQ(library_text("card.json: not JSON: [json.exception.parse_error.101] parse error at line 1, column 1"),
              "card.json: not JSON: parse error at line 1, column 1");
    EXPECT_EQ(library_text("[json.exception.type_error.302] type must be number, but is string"), "type must be number, but is string");
    EXPECT_EQ(library_text("/dev/mmcblk0: no such device"), "/dev/mmcblk0: no such device");
    const auto [status, text] = run([]() -> int { return static_cast<int>(nlohmann::json::parse("garbage").size()); });
    EXPECT_EQ(status, 1);
    EXPECT_EQ(text.find("[json.exception"), std::string::npos) << text;
}

TEST(CliErrors, AFileThatCannotBeReadIsAFailureEvenAsUsageInput)
{
    const auto [status, text] = run([]() -> int { return as_usage([] { return static_cast<int>(read_arg_or_file("@/nonexistent/x").size()); }); });
    EXPECT_EQ(status, 1);
    EXPECT_EQ(text, "mmc-test: /nonexistent/x: No such file or directory\n");
}

TEST(CliErrors, WithJsonRequestedTheErrorIsAlsoADocumentOnStdout)
{
    request_json_errors();
    forget_json_printed();
    testing::internal::CaptureStdout();
    const auto [status, text] = run([]() -> int { throw UsageError("--from: given more than once ('A' and 'B'); give one"); });
    const std::string doc = testing::internal::GetCapturedStdout();
    request_json_errors(false);
    EXPECT_EQ(status, 2);
    EXPECT_EQ(text.rfind("mmc-test: --from: given more than once", 0), 0u) << text;
    const auto j = nlohmann::json::parse(doc);
    EXPECT_EQ(j["tool"], "mmc-test");
    EXPECT_TRUE(j.contains("version"));
    EXPECT_EQ(j["error"]["message"], "--from: given more than once ('A' and 'B'); give one");
    EXPECT_EQ(j["error"]["exit_status"], 2);
}

TEST(CliErrors, AToolsOwnDocumentIsTheOnlyOne)
{
    request_json_errors();
    forget_json_printed();
    testing::internal::CaptureStdout();
    const auto [status, text] = run([]() -> int {
        print_tool_json({{"verdict", "misaligned"}}, "mmc-test");
        throw Error(ErrorKind::failure, "the new layout does not check aligned");
    });
    const std::string out = testing::internal::GetCapturedStdout();
    request_json_errors(false);
    EXPECT_EQ(status, 1);
    EXPECT_EQ(nlohmann::json::parse(out)["verdict"], "misaligned") << out; // one document: parse would throw on two
}
