// The tuning steps (mmc-qualify --tune): mmc-tune bus and
// mmc-tune queue as child processes, their -J documents kept in the
// bundle's "tune" part. The bus step plans only (-n) unless --apply asks
// for the trials, which change the host's bus mode and put it back at the
// end (unless --keep); the queue step measures, and sets its result only
// with --apply --keep. Skipped, saying so, when mmc-tune is not installed.
#include "qualify/steps.h"
#include "qualify/steps_common.h"

#include "cli/device_sources.h"

namespace mmc::qualify {

namespace {

// mmc-tune's subcommand and its own options for this run.
std::vector<std::string> bus_options(const Settings& s)
{
    std::vector<std::string> args = {"bus", "-J"};
    if (!s.tune_apply) {
        args.push_back("-n");
        return args;
    }
    args.insert(args.end(), {"--apply", "--yes"}); // asked once, for the whole plan
    if (s.tune_keep) args.push_back("--keep");
    return args;
}

std::vector<std::string> queue_options(const Settings& s)
{
    std::vector<std::string> args = {"queue", "-J"};
    if (s.tune_apply && s.tune_keep) args.insert(args.end(), {"--apply", "--yes"}); // sets the result now and its udev rule
    return args;
}

// The device sources each subcommand takes (cli/device_sources): the bus
// reads sysfs and debugfs and may send card commands; the queue reads
// sysfs only. The queue also takes --any-device.
ArgsFn tune_args(std::function<std::vector<std::string>(const Settings&)> options, cli::DeviceSourceSet taken, bool any_device)
{
    return [options, taken, any_device](const Settings& s) {
        auto args = options(s);
        const auto sources = cli::DeviceSources::of(s.use_ioctl, s.roots).arguments(taken);
        args.insert(args.end(), sources.begin(), sources.end());
        if (any_device && s.any_device) args.push_back("--any-device");
        args.push_back(s.device);
        return args;
    };
}

StepSpec tune_step(std::string name, ArgsFn args, std::function<std::string(const Settings&)> what)
{
    StepSpec spec = child_step(std::move(name), "mmc-tune", args, Needs::always, WhenMissing::skip);
    spec.part = BundlePart::tune;
    spec.describe = [args, what](const Settings& s) { return describe_child("mmc-tune", args, what(s))(s); };
    return spec;
}

} // namespace

StepSpec tune_bus_step()
{
    StepSpec spec = tune_step("tune-bus", tune_args(bus_options, {true, true, true}, false), [](const Settings& s) -> std::string {
        if (!s.tune_apply) return "plans the bus modes card and host share (changes nothing)";
        return s.tune_keep ? "CHANGES the host's bus mode to try each shared mode; KEEPS the fastest clean one until reboot"
                           : "CHANGES the host's bus mode to try each shared mode, then puts the mode it found back";
    });
    spec.skip_when = needs_mmc_host("the bus modes (the host's caps, ios)");
    return spec;
}

StepSpec tune_queue_step()
{
    return tune_step("tune-queue", tune_args(queue_options, {false, true, false}, true), [](const Settings& s) -> std::string {
        return s.tune_apply && s.tune_keep ? "measures the I/O schedulers and read-ahead sizes (reads); SETS the winner and its udev rule"
                                           : "measures the I/O schedulers and read-ahead sizes (reads), each put back";
    });
}

} // namespace mmc::qualify
