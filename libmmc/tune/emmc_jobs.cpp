#include "tune/emmc_jobs.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/remedy.h"
#include "cli/errors.h"
#include "cli/json_out.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/write_protect.h"
#include "regs/ext_csd_config.h"
#include "regs/hex.h"
#include "tune/apply.h"
#include "tune/boot_image_write.h"
#include "tune/user_wp_apply.h"
#include "tune/user_wp_view.h"
#include "tune/view.h"

#include <fmt/format.h>
#include <unistd.h>

namespace mmc::tune {

namespace {


// The MMC CSD from sysfs, for the write protect group when ERASE_GROUP_DEF
// is clear; empty when the kernel shows none.
std::vector<uint8_t> card_csd(const JobContext& c)
{
    if (!c.device || !c.device->card) return {};
    const auto text = dev::card_attr(*c.device->card, "csd");
    if (!text) return {};
    try {
        return regs::parse_register_hex(regs::RegKind::csd, *text);
    } catch (const std::exception&) {
        return {};
    }
}

} // namespace

WpListingOrError read_user_wp(const JobContext& c)
{
    WpListingOrError out;
    if (!c.device) {
        out.error = "a pasted EXT_CSD holds no group protection (the device answers CMD30/CMD31)";
        return out;
    }
    try {
        IoctlWpDevice device(c.device->disk_path, c.rca);
        out.listing = list_user_wp(device, c.ext_csd, card_csd(c));
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

int run_emmc_jobs(const EmmcJobs& jobs, Plan plan, JobContext c)
{
    const auto& ranges = c.range_names;
    const auto& areas = c.area_names;
    const auto csd = card_csd(c);

    // User area protection: planned against the groups as they are.
    UserWpPlan wp_plan;
    std::optional<UserWpListing> before;
    if (!jobs.user_wp.empty()) {
        if (c.device) {
            const auto l = read_user_wp(c);
            if (!l.listing)
                throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: the protected groups cannot be read: {}; nothing was written",
                                                                      c.where, l.error));
            before = l.listing;
        }
        wp_plan = plan_user_wp(c.ext_csd, csd, jobs.user_wp, c.permanent, before);
        if (c.device && !c.device->verdict.allowed)
            for (std::size_t i = 0; i < jobs.user_wp.size(); ++i)
                if (jobs.user_wp[i].kind != UserWpKind::none)
                    wp_plan.refusals.push_back({i, fmt::format("{}: {}: a filesystem in use would fail its writes to protected groups",
                                                               c.device->typed, c.device->verdict.reason)});
        if (!wp_plan.refusals.empty()) wp_plan.steps.clear();
    }

    // Boot images: each file read once, its bytes kept for the write.
    std::vector<LoadedImage> images;
    std::vector<BootImageFacts> facts;
    std::vector<std::optional<dev::BootAreaNode>> nodes;
    const uint64_t partition = regs::ext_csd_value(c.ext_csd, regs::ExtCsdField::boot_size_mult) * 128 * 1024;
    for (const auto& b : jobs.boot_images) {
        images.push_back(load_boot_image(b.file, partition));
        nodes.push_back(c.device && c.device->card ? dev::boot_area_node(*c.device->card, c.device->disk_path, b.area, c.roots)
                                                   : std::nullopt);
        auto f = images.back().facts;
        if (nodes.back() && !images.back().bytes.empty()) {
            try {
                f.already_there = read_boot_area(nodes.back()->node, images.back().bytes.size()) == images.back().bytes;
            } catch (const std::exception&) {
                f.already_there = std::nullopt;
            }
        }
        facts.push_back(f);
    }
    BootImagePlan boot_plan = plan_boot_images(c.ext_csd, jobs.boot_images, facts);
    if (c.device)
        for (const auto& job : boot_plan.jobs)
            for (std::size_t i = 0; i < jobs.boot_images.size(); ++i)
                if (jobs.boot_images[i].area == job.area && !nodes[i])
                    boot_plan.refusals.push_back({job.area, fmt::format("the kernel shows no boot partition {} of {}", job.area,
                                                                        c.device->disk_path)});
    if (!boot_plan.refusals.empty()) boot_plan.jobs.clear();

    const std::size_t refused = plan.refusals.size() + wp_plan.refusals.size() + boot_plan.refusals.size();
    nlohmann::ordered_json body;
    body["device"] = c.device ? nlohmann::ordered_json(c.device->disk_path) : nlohmann::ordered_json();
    body.update(plan_json(plan, c.names));
    if (!jobs.user_wp.empty()) {
        body["user_wp_plan"] = user_wp_plan_json(wp_plan, ranges, c.names);
        if (before) body["user_wp"] = user_wp_json(before, "");
    }
    if (!jobs.boot_images.empty()) body["boot_images"] = boot_image_plan_json(boot_plan, areas);
    auto report = [&](bool applied, bool verified) {
        if (!c.json) return;
        body["applied"] = applied;
        body["verified"] = verified;
        cli::print_tool_json(body, c.tool, "emmc");
    };
    std::string text;
    if (!plan.changes.empty() || !plan.refusals.empty() || !plan.notes.empty()) text += plan_text(plan, c.names);
    text += boot_image_plan_text(boot_plan, areas);
    text += user_wp_plan_text(wp_plan, ranges, c.names);
    if (!c.json) fmt::print("{}", text);
    if (refused) {
        report(false, false);
        throw cli::Error(cli::ErrorKind::failure,
                         fmt::format("{}: {} setting{} refused; nothing was written", c.where, refused, refused == 1 ? "" : "s"));
    }
    if (plan.changes.empty() && wp_plan.empty() && boot_plan.empty()) {
        if (!c.json) fmt::print("Nothing to change.\n");
        report(false, false);
        return cli::ok;
    }
    if (!c.device || c.dry_run) {
        if (!c.json) fmt::print("{}: nothing was written.\n", c.device ? "Dry run" : "Pasted EXT_CSD");
        report(false, false);
        return cli::ok;
    }
    const auto& stop = cli::install_stop_signals(cli::SecondSignal::ignored);
    if (c.json && !c.yes) fmt::print(stderr, "{}", text);
    if (!c.yes) {
        if (!isatty(STDIN_FILENO))
            throw cli::Error(cli::ErrorKind::failure,
                             fmt::format("{}: refusing to write without confirmation: stdin is not a terminal", c.where),
                             cli::Remedy::confirm);
        const std::string question = plan.one_time || wp_plan.one_time ? fmt::format("Some of this cannot be undone on {}.", c.where)
                                                                       : fmt::format("This changes {}.", c.where);
        if (cli::confirm(question, "write", false) != cli::Confirmation::yes)
            throw cli::Error(cli::ErrorKind::failure, "not confirmed; nothing was written");
    }
    if (stop.load()) throw cli::Error(cli::ErrorKind::interrupted, "interrupted before anything was written");

    auto failed = [&](const std::string& what, cli::ErrorKind kind = cli::ErrorKind::failure) {
        report(true, false);
        throw cli::Error(kind, fmt::format("{}: {}", c.where, what));
    };
    for (std::size_t i = 0; i < jobs.boot_images.size(); ++i) {
        const auto& b = jobs.boot_images[i];
        if (std::none_of(boot_plan.jobs.begin(), boot_plan.jobs.end(), [&](const auto& j) { return j.area == b.area; })) continue;
        try {
            const auto outcome = write_boot_image(*nodes[i], images[i].bytes, stop);
            if (!c.json)
                fmt::print("Boot partition {}: {} written, read back equal; force_ro back at {}.\n", b.area, b.file,
                           outcome.force_ro_was ? 1 : 0);
        } catch (const BootImageInterrupted& e) {
            failed(e.what(), cli::ErrorKind::interrupted);
        } catch (const BootImageError& e) {
            failed(e.what());
        }
    }
    if (!wp_plan.empty()) {
        try {
            IoctlWpDevice device(c.device->disk_path, c.rca);
            const auto result = apply_user_wp(device, wp_plan, c.ext_csd, csd);
            body["user_wp"] = user_wp_json(result.after, "");
            if (!c.json) fmt::print("Protection set and read back:\n{}", user_wp_text(result.after, ""));
        } catch (const ApplyError& e) {
            failed(e.what());
        } catch (const std::system_error& e) {
            failed(e.what());
        }
    }
    if (plan.applicable()) {
        try {
            IoctlDevice device(c.device->disk_path, c.rca);
            (void)apply_plan(device, plan, c.ext_csd);
            if (!c.json) fmt::print("Written and read back: every field as planned.\n");
        } catch (const ApplyError& e) {
            failed(e.what());
        }
    }
    report(true, true);
    return cli::ok;
}

} // namespace mmc::tune
