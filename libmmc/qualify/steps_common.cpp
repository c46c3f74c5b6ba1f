#include "qualify/steps_common.h"


#include "cli/device_sources.h"
#include "dev/usb_storage.h"
#include "version.h"

#include <fmt/format.h>

namespace mmc::qualify {

namespace {

std::optional<uint64_t> size_at(const json& doc, const char* key)
{
    if (!doc.is_object() || !doc.contains(key) || !doc[key].is_number_unsigned()) return std::nullopt;
    const auto v = doc[key].get<uint64_t>();
    return v ? std::optional<uint64_t>(v) : std::nullopt;
}

} // namespace

// A document as the tool prints it: "tool" and "version" first.
json tool_doc(std::string_view tool, const json& body)
{
    json doc;
    doc["tool"] = tool;
    doc["version"] = mmc::version;
    doc.update(body);
    return doc;
}

StepResult failed(int status, std::string message)
{
    StepResult r;
    r.exit_status = status;
    r.message = std::move(message);
    return r;
}

// The first paragraph of a text view: what fits a summary.
std::string first_paragraph(const std::string& text)
{
    const auto end = text.find("\n\n");
    return end == std::string::npos ? text : text.substr(0, end + 1);
}

// What cannot be read through the USB reader the device is in, and what
// would read it; "" when the device is in no reader.
std::function<std::string(const Settings&)> needs_mmc_host(std::string what)
{
    return [what](const Settings& s) {
        if (!s.reader) return std::string();
        return fmt::format("{}: not readable through {}; an SD slot on an MMC host reads them", what, dev::reader_words(*s.reader));
    };
}

// A child tool's arguments (mmc-probe, mmc-health): `fixed`, the register
// sources this run reads (--no-ioctl, --sysfs-root), --any-device when the
// run has it and the subcommand takes it (a write), then DEVICE.
ArgsFn child_args(std::vector<std::string> fixed, bool writes)
{
    return [fixed, writes](const Settings& s) {
        auto args = fixed;
        const auto sources = cli::DeviceSources::of(s.use_ioctl, s.roots).arguments();
        args.insert(args.end(), sources.begin(), sources.end());
        if (writes && s.any_device) args.push_back("--any-device");
        args.push_back(s.device);
        return args;
    };
}

// The plan's line for a child step: its command line and what it does.
std::function<std::string(const Settings&)> describe_child(std::string tool, ArgsFn args, std::string what)
{
    return [tool, args, what](const Settings& s) {
        std::string line = tool;
        for (const auto& a : args(s)) line += " " + a;
        return line + ": " + what;
    };
}

// The AU the erase and state steps align to: the geometry step's, when it found one
// and the card's registers give none (SSR AU_SIZE; a device that is not a
// card has none); else nothing, and mmc-bench takes the registers' (or
// assumes one and says so; mmc-erase aligns to the method's own unit).
std::optional<uint64_t> measured_au(const json& geometry)
{
    const auto au = size_at(geometry, "au_size");
    if (!au) return std::nullopt;
    const json& regs = geometry.contains("registers") ? geometry["registers"] : json();
    const json& ssr = regs.is_object() && regs.contains("ssr_au_size") ? regs["ssr_au_size"] : json();
    const bool registers_give_one = ssr.is_object() && ssr.contains("bytes") && ssr["bytes"].is_number() && ssr["bytes"].get<double>() > 0;
    return registers_give_one ? std::nullopt : au;
}

} // namespace mmc::qualify
