#include "tune/apply.h"

#include "regs/ext_csd_config.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

// R1 card status SWITCH_ERROR (bit 7, JESD84-B51 6.13): the SWITCH was
// not carried out. The kernel's own mmc_switch checks this bit alone.
constexpr uint32_t switch_error_bit = 1u << 7;

bool is_completion(const Write& w)
{
    return w.index == regs::field_place(regs::ExtCsdField::partition_setting_completed).lo;
}

void check_unchanged(const Plan& plan, std::span<const uint8_t> planned_from, std::span<const uint8_t> now)
{
    for (const auto& c : plan.changes) {
        if (!c.verify) continue;
        const uint64_t was = planned_value(planned_from, c), is = planned_value(now, c);
        if (was != is)
            throw ApplyError(fmt::format("{} [{}] changed since the plan was made (0x{:x}, now 0x{:x}); nothing was written: "
                                         "plan again",
                                         c.name, c.index, was, is));
    }
}

} // namespace

std::vector<std::string> mismatches(const Plan& plan, std::span<const uint8_t> ext_csd)
{
    std::vector<std::string> out;
    for (const auto& c : plan.changes) {
        if (!c.verify) continue;
        const uint64_t is = planned_value(ext_csd, c);
        if ((is & c.compare_mask) != (c.new_value & c.compare_mask))
            out.push_back(fmt::format("{} [{}]: wrote 0x{:x}, reads 0x{:x}", c.name, c.index, c.new_value, is));
    }
    return out;
}

ApplyResult apply_plan(ExtCsdDevice& device, const Plan& plan, std::span<const uint8_t> planned_from)
{
    if (!plan.applicable()) throw ApplyError("the plan has refusals or nothing to write; nothing was written");
    check_unchanged(plan, planned_from, device.read_ext_csd());

    std::vector<Write> first, last;
    for (const auto& w : plan.writes) (is_completion(w) ? last : first).push_back(w);
    auto fail = [](const std::vector<std::string>& bad, std::string_view what) {
        std::string list;
        for (const auto& m : bad) list += (list.empty() ? "" : "; ") + m;
        throw ApplyError(fmt::format("read back after {}: {}", what, list));
    };
    if (!first.empty()) device.switch_all(first);
    ApplyResult result{device.read_ext_csd()};
    if (!last.empty()) {
        // Completion only when every setting it completes reads back right.
        Plan settings = plan;
        std::erase_if(settings.changes, [](const Change& c) { return c.field == regs::ExtCsdField::partition_setting_completed; });
        if (auto bad = mismatches(settings, result.after); !bad.empty())
            fail(bad, "the partition settings (PARTITION_SETTING_COMPLETED was not written: power-cycle the device to discard them)");
        device.switch_all(last);
        result.after = device.read_ext_csd();
    }
    if (auto bad = mismatches(plan, result.after); !bad.empty()) fail(bad, "writing");
    return result;
}

void IoctlDevice::switch_all(const std::vector<Write>& writes)
{
    std::vector<dev::MmcCommand> cmds;
    for (const auto& w : writes) {
        dev::MmcCommand sw; // CMD6 SWITCH, WRITE_BYTE access, command set 1 (standard)
        sw.opcode = 6;
        sw.arg = (3u << 24) | (static_cast<uint32_t>(w.index) << 16) | (uint32_t{w.value} << 8) | 1u;
        sw.flags = dev::rsp::spi_r1b | dev::rsp::r1b | dev::rsp::cmd_ac;
        sw.write = true;
        sw.cmd_timeout_ms = w.timeout_ms;
        cmds.push_back(sw);
        dev::MmcCommand status; // CMD13: the SWITCH's outcome is in the next status
        status.opcode = 13;
        status.arg = uint32_t{rca_} << 16;
        status.flags = dev::rsp::spi_r1 | dev::rsp::r1 | dev::rsp::cmd_ac;
        cmds.push_back(status);
    }
    try {
        channel_.send_all(cmds);
    } catch (const std::system_error& e) {
        throw ApplyError(fmt::format("the SWITCH commands failed ({}); read the configuration again to see what was written",
                                     e.what()));
    }
    for (std::size_t i = 0; i < writes.size(); ++i) {
        const uint32_t status = cmds[2 * i + 1].response[0];
        if (status & switch_error_bit)
            throw ApplyError(fmt::format("the device refused {} = 0x{:02x} (card status 0x{:08x}: SWITCH_ERROR); the writes after it were "
                                         "sent too, and the read-back shows what holds",
                                         writes[i].field, writes[i].value, status));
    }
}

} // namespace mmc::tune
