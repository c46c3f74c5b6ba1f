// The bus step: mmc-bus -J --measure, the bus doctor (the reader doctor for
// a card in a USB reader) in this process.
#include "qualify/steps.h"
#include "qualify/steps_common.h"


#include "bench/quick_read.h"
#include "cli/cli.h"
#include "dev/bus_evidence.h"
#include "dev/discovery.h"
#include "dev/identify.h"
#include "dev/resolver.h"
#include "views/bus_view.h"
#include "views/reader_view.h"

#include <fmt/format.h>
#include <system_error>

namespace mmc::qualify {

namespace {

// A card in a USB reader: the reader doctor (the USB link's ceiling) in
// place of the MMC bus's, as mmc-bus gives it for a reader's slot.
StepResult run_reader_bus(const Settings& s)
{
    const auto d = dev::resolve_device(s.device, dev::Purpose::read, {s.roots});
    const auto report = out::reader_bus_report(*s.reader, d.path, s.bus_measure_s);
    StepResult r;
    json body;
    body["hosts"] = json::array();
    body["readers"] = json::array({out::reader_bus_json(report)});
    r.doc = tool_doc("mmc-bus", body);
    r.summary = out::reader_bus_text(report);
    return r;
}

StepResult run_bus(StepContext& c)
{
    const Settings& s = c.settings;
    try {
        if (s.reader) return run_reader_bus(s);
        const auto target = dev::resolve(s.device, s.roots);
        const dev::Card* card = target.card ? &*target.card : nullptr;
        const regs::CardRegisters* registers = card ? &c.identify(*card).registers : nullptr;
        auto evidence = dev::gather_bus_evidence(target.host, card, registers, s.roots);
        out::BusReport report{bus::diagnose(evidence), target.host.controller.describe(), evidence.kernel_message,
                              std::nullopt, {}, evidence.dt, {}, evidence.log_note};
        if (evidence.log) report.log_events = evidence.log->events;
        if (s.bus_measure_s > 0) {
            if (!card || !card->is_storage())
                report.measure_error = "no storage card on this host";
            else
                try {
                    report.measured_mb_s = bench::quick_read(card->device_path(s.roots), s.bus_measure_s).mb_s;
                } catch (const std::system_error& e) {
                    report.measure_error = e.what();
                }
        }
        StepResult r;
        json body;
        body["hosts"] = json::array({out::bus_json(report)});
        r.doc = tool_doc("mmc-bus", body);
        r.summary = out::bus_text(report, false);
        return r;
    } catch (const dev::ResolveError& e) {
        return failed(cli::failure, e.what()); // it names the device already
    } catch (const std::exception& e) {
        return failed(cli::failure, fmt::format("{}: {}", s.device, e.what()));
    }
}

} // namespace

StepSpec bus_step()
{
    return {"bus", "mmc-bus", BundlePart::bus, Needs::always,
            [](const Settings& s) {
                if (s.reader)
                    return fmt::format("diagnoses the reader's USB link and its ceiling (the bus between reader and card is "
                                       "out of sight); reads the card for {:g} s", s.bus_measure_s);
                return fmt::format("diagnoses the bus; reads the card for {:g} s", s.bus_measure_s);
            },
            run_bus};
}

} // namespace mmc::qualify
