#include "erase/methods.h"
#include "erase/method_table.h"

#include "regs/decode.h"
#include "regs/register_facts.h"
#include "regs/ssr.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <sys/ioctl.h>

namespace mmc::erase {

namespace {

constexpr uint64_t MiB = 1024 * 1024;
constexpr uint64_t GiB = 1024 * MiB;
// Chunks stay small enough that Ctrl-C is answered within seconds.
constexpr uint64_t prompt_bound = 1 * GiB;
constexpr uint64_t zeroout_offloaded_bound = 64 * MiB; // the device zeroes (write-zeroes offload)
constexpr uint64_t zeroout_written_bound = 16 * MiB;   // the kernel writes zero pages

// The CMD38 argument(s) of a raw method; none for the others.
std::vector<uint32_t> cmd38_args(Method m, const Capabilities& caps)
{
    const auto& f = facts(m);
    return f.cmd38_args ? f.cmd38_args(caps) : std::vector<uint32_t>{};
}

std::string arg_name(std::optional<regs::CardFamily> f, uint32_t a)
{
    if (f == regs::CardFamily::sd) {
        switch (a) {
        case arg::erase: return "ERASE";
        case arg::sd_discard: return "DISCARD";
        case arg::sd_fule: return "FULE";
        }
    } else {
        switch (a) {
        case arg::erase: return "ERASE";
        case arg::trim: return "TRIM";
        case arg::emmc_discard: return "DISCARD";
        case arg::secure_erase: return "SECURE ERASE";
        case arg::secure_trim1: return "SECURE TRIM step 1";
        case arg::secure_trim2: return "SECURE TRIM step 2";
        }
    }
    return "?";
}

dev::MmcCommand r1_command(uint32_t opcode, uint32_t argument)
{
    dev::MmcCommand c;
    c.opcode = opcode;
    c.arg = argument;
    c.flags = dev::rsp::spi_r1 | dev::rsp::r1 | dev::rsp::cmd_ac;
    return c;
}

dev::MmcCommand r1b_command(uint32_t opcode, uint32_t argument, uint32_t timeout_ms)
{
    dev::MmcCommand c;
    c.opcode = opcode;
    c.arg = argument;
    c.flags = dev::rsp::spi_r1b | dev::rsp::r1b | dev::rsp::cmd_ac;
    c.cmd_timeout_ms = timeout_ms;
    return c;
}

uint64_t units_touched(const Extent& e, uint64_t unit)
{
    if (e.empty() || unit == 0) return 0;
    return (e.end() - 1) / unit - e.offset / unit + 1;
}

uint32_t clamp_ms(double ms)
{
    ms = std::ceil(std::max(ms, 1000.0));
    return ms >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(ms);
}

} // namespace

std::string reader_cannot_erase(const Capabilities& c)
{
    const std::string mode = c.provisioning_mode.empty() ? "" : fmt::format("provisioning_mode {}, ", c.provisioning_mode);
    return fmt::format("{} is {}, and the reader passes no discard ({}queue/discard_max_bytes 0): it cannot return the "
                       "card to its erased state. An overwrite does not do that either: it leaves every page written and "
                       "the card's mapping table full, the opposite of erased. Put the card in an SD slot (an MMC host) "
                       "to erase it",
                       c.name, c.kind, mode);
}

std::optional<std::string> refusal(Method m, const Capabilities& c, bool whole_device)
{
    const auto& f = facts(m);
    const std::string name(to_string(m));
    if (f.layer != Layer::card) return f.refuse ? f.refuse(c, whole_device) : std::nullopt;

    // Raw card commands.
    if (!c.family)
        return fmt::format("{} sends card commands, and {} is {}, not an MMC/SD card; use discard, secure or zeroout",
                           name, c.name, c.kind.empty() ? "not on an MMC host" : c.kind);
    if (f.family == regs::CardFamily::sd && c.family != regs::CardFamily::sd)
        return fmt::format("{} is an SD method and {} is an eMMC; use erase, trim or emmc-discard", name,
                           c.name);
    if (f.family == regs::CardFamily::mmc && c.family != regs::CardFamily::mmc)
        return fmt::format("{} is an eMMC method and {} is an SD card; use erase{}", name, c.name,
                           c.sd_discard_support ? " or sd-discard" : "");
    if (!c.erase_class)
        return "the CSD command classes (CCC) lack class 5 (erase): the card does not accept erase commands";
    if (f.refuse)
        if (auto why = f.refuse(c, whole_device)) return why;
    // Last: the registers allow it, but can we reach the card?
    if (!c.raw_channel)
        return fmt::format("raw card commands are not available: {}",
                           c.raw_unavailable.empty() ? "no MMC ioctl channel" : c.raw_unavailable);
    return std::nullopt;
}

Selection select_method(Method requested, const Capabilities& c, bool whole_device)
{
    if (requested != Method::automatic) {
        if (auto why = refusal(requested, c, whole_device))
            throw MethodRefused(fmt::format("method {} refused: {}", to_string(requested), *why));
        return {requested, requested_method};
    }
    if (c.family && c.erase_class && c.raw_channel)
        return {Method::erase, fmt::format("auto: the card's own erase, {} with the erase command class", c.kind)};
    if (!refusal(Method::discard, c, whole_device)) {
        std::string why = "auto: the block layer offers discard";
        if (c.usb_reader)
            why += fmt::format(" through the reader ({}{} passes it on)", c.provisioning_mode.empty() ? "" : "provisioning_mode ",
                               c.provisioning_mode.empty() ? "the SCSI disk" : c.provisioning_mode);
        if (c.family)
            why += fmt::format(" and raw card commands are unavailable ({})",
                               !c.erase_class ? "no erase command class" : c.raw_unavailable);
        return {Method::discard, why};
    }
    // An overwrite is never chosen in an erase's name for a card in a reader.
    if (c.usb_reader) throw MethodRefused(reader_cannot_erase(c));
    return {Method::zeroout, "auto: the block layer offers no discard"};
}

regs::EraseGroupRegisters erase_group_registers(const Capabilities& c)
{
    return {c.hc_erase_group_bytes, c.hc_erase_group_def, c.csd_erase_group_bytes};
}

EraseUnit erase_unit(Method m, const Capabilities& c)
{
    const uint64_t lb = std::max<uint64_t>(c.logical_block, 512);
    switch (facts(m).unit) {
    case UnitRule::discard_granularity:
        if (c.discard_granularity >= lb) return {c.discard_granularity, "queue/discard_granularity"};
        return {lb, "logical block size"};
    case UnitRule::logical_block: return {lb, "logical block size"};
    case UnitRule::whole_area: return {lb, "logical block size (FULE takes the whole user area)"};
    case UnitRule::card: break;
    }
    if (c.family == regs::CardFamily::sd) {
        if (c.au_bytes) return {c.au_bytes, "SSR AU_SIZE"};
        if (c.preferred_erase_bytes >= lb) return {c.preferred_erase_bytes, "sysfs preferred_erase_size"};
        return {lb, "logical block size"};
    }
    if (const auto group = regs::erase_group_in_use(erase_group_registers(c)); group && group->bytes >= lb)
        return {group->bytes, std::string(group->source)};
    return {lb, "logical block size"};
}

uint64_t chunk_limit(Method m, const Capabilities& c)
{
    auto bounded = [](uint64_t limit, uint64_t bound) { return limit ? std::min(limit, bound) : bound; };
    switch (facts(m).chunk) {
    case ChunkRule::discard_max: return bounded(c.discard_max_bytes, prompt_bound);
    case ChunkRule::zeroout:
        return c.write_zeroes_max_bytes ? bounded(c.write_zeroes_max_bytes, zeroout_offloaded_bound)
                                        : zeroout_written_bound;
    case ChunkRule::whole_area: return 0; // one command for the whole user area
    case ChunkRule::prompt: return prompt_bound;
    case ChunkRule::card_busy: break;
    }
    // The kernel sizes discard_max_hw_bytes so one erase finishes within the
    // host's busy timeout.
    return bounded(c.discard_max_hw_bytes ? c.discard_max_hw_bytes : c.discard_max_bytes, prompt_bound);
}

Outcome expected_outcome(Method m, const Capabilities& c)
{
    const std::string reg = c.family == regs::CardFamily::sd ? "SCR DATA_STAT_AFTER_ERASE" : "EXT_CSD ERASED_MEM_CONT";
    Outcome o;
    o.declared = c.erased_byte;
    facts(m).outcome(o, c, reg);
    return o;
}

uint32_t busy_timeout_ms(const Capabilities& c, uint32_t a, const Extent& disk)
{
    if (c.family == regs::CardFamily::sd) {
        if (a == arg::sd_discard) return clamp_ms(250); // SD_DISCARD_TIMEOUT_MS in Linux
        const uint64_t au = c.au_bytes ? c.au_bytes : c.preferred_erase_bytes ? c.preferred_erase_bytes : 4 * MiB;
        const uint64_t count = units_touched(disk, au);
        const double seconds = c.ssr ? regs::sd_erase_timeout_seconds(*c.ssr, count) : 0.25 * static_cast<double>(count);
        return clamp_ms(seconds * 1000.0);
    }
    // eMMC, as Linux's mmc_mmc_erase_timeout.
    const auto in_use = regs::erase_group_in_use(erase_group_registers(c));
    const uint64_t group = in_use ? in_use->bytes : 512;
    const double trim_ms = 300.0 * c.trim_mult;
    double per_group;
    if (a == arg::emmc_discard || (a == arg::trim && c.ext_csd_rev >= 6))
        per_group = trim_ms;
    else if (c.hc_erase_group_def)
        per_group = a == arg::trim ? trim_ms : 300.0 * c.erase_timeout_mult;
    else
        per_group = std::max<double>(c.csd_write_timeout_ms, 1.0);
    if (a & 0x80000000u) per_group *= a == arg::secure_erase ? c.sec_erase_mult : c.sec_trim_mult;
    return clamp_ms(per_group * static_cast<double>(units_touched(disk, group)));
}

std::vector<std::vector<dev::MmcCommand>> erase_sequences(Method m, const Capabilities& c, uint16_t rca,
                                                          const Extent& disk)
{
    if (!c.family || disk.empty()) return {};
    const bool sd = c.family == regs::CardFamily::sd;
    const uint32_t start_op = sd ? 32 : 35, end_op = sd ? 33 : 36;
    auto address = [&](uint64_t byte) { return static_cast<uint32_t>(c.block_addressed ? byte / 512 : byte); };
    const uint32_t start = address(disk.offset);
    const uint32_t end = address(disk.end() - 512); // the last block's address
    const uint32_t status_arg = uint32_t{rca} << 16;

    std::vector<std::vector<dev::MmcCommand>> out;
    for (const uint32_t a : cmd38_args(m, c)) {
        std::vector<dev::MmcCommand> seq;
        seq.push_back(r1_command(13, status_arg));
        seq.push_back(r1_command(start_op, start));
        seq.push_back(r1_command(end_op, end));
        seq.push_back(r1b_command(38, a, busy_timeout_ms(c, a, disk)));
        seq.push_back(r1_command(13, status_arg));
        out.push_back(std::move(seq));
    }
    return out;
}

dev::MmcCommand sanitize_command() { return r1b_command(6, sanitize_switch_arg, sanitize_timeout_ms); }

std::vector<std::string> r1_errors(uint32_t status, regs::CardFamily family)
{
    const std::array<uint8_t, 4> bytes{static_cast<uint8_t>(status >> 24), static_cast<uint8_t>(status >> 16),
                                       static_cast<uint8_t>(status >> 8), static_cast<uint8_t>(status)};
    return regs::status_facts(regs::decode_card_status(bytes, family)).errors;
}

std::string describe(Method m, const Capabilities& c)
{
    const auto& f = facts(m);
    if (f.layer == Layer::block) return std::string(f.ioctl_name);
    if (f.layer == Layer::choice) return "auto";
    const bool sd = c.family == regs::CardFamily::sd;
    std::string args;
    for (const uint32_t a : cmd38_args(m, c))
        args += fmt::format("{}{} (0x{:x})", args.empty() ? "" : " then ", arg_name(c.family, a), a);
    std::string text = fmt::format("{} CMD38 {}, {} addresses", sd ? "CMD32/CMD33" : "CMD35/CMD36", args,
                                   c.block_addressed ? "block" : "byte");
    if (f.sanitize_after) text += ", then CMD6 SANITIZE_START";
    return text;
}

// --- executors --------------------------------------------------------------

namespace {

// The ioctl of a block-layer method (another method's executor is zeroout's).
class BlockExecutor final : public Executor {
public:
    BlockExecutor(int fd, Method m, std::string name)
        : fd_(fd), facts_(facts(m).layer == Layer::block ? facts(m) : facts(Method::zeroout)), name_(std::move(name))
    {
    }

    void erase(const Extent& e) override
    {
        uint64_t range[2] = {e.offset, e.length};
        if (::ioctl(fd_, facts_.ioctl, range) == 0) return;
        const int err = errno;
        std::string hint;
        if (err == EOPNOTSUPP) hint = fmt::format(": {} does not support {}", name_, facts_.unsupported);
        throw ExecError(fmt::format("{} at offset {} length {} failed: {}{}", describe(), e.offset, e.length,
                                    std::strerror(err), hint));
    }

    std::string describe() const override { return std::string(facts_.ioctl_name); }

private:
    int fd_;
    const MethodFacts& facts_;
    std::string name_;
};

class MmcExecutor final : public Executor {
public:
    MmcExecutor(const std::string& disk_path, Method m, const Capabilities& caps, uint16_t rca, uint64_t start)
        : channel_(disk_path), method_(m), caps_(caps), family_(caps.family.value_or(regs::CardFamily::sd)), rca_(rca),
          start_(start)
    {
    }

    void erase(const Extent& e) override
    {
        const Extent disk{start_ + e.offset, e.length};
        for (auto& seq : erase_sequences(method_, caps_, rca_, disk)) {
            try {
                channel_.send_all(seq);
            } catch (const std::system_error& err) {
                throw ExecError(fmt::format("{} failed: {}", names(seq), err.code().message()));
            }
            // Responses of start, end, CMD38 and the closing CMD13 (the first
            // CMD13 only clears what earlier commands left).
            for (std::size_t i = 1; i < seq.size(); ++i) {
                const auto errors = r1_errors(seq[i].response[0], family_);
                if (!errors.empty())
                    throw ExecError(fmt::format("CMD{} (arg 0x{:08x}) answered card status 0x{:08x}: {}", seq[i].opcode,
                                                seq[i].arg, seq[i].response[0], fmt::join(errors, ", ")));
            }
        }
    }

    void finish() override
    {
        if (!facts(method_).sanitize_after) return;
        auto cmd = sanitize_command();
        try {
            channel_.send(cmd);
        } catch (const std::system_error& err) {
            throw ExecError(fmt::format("CMD6 SANITIZE_START failed: {}", err.code().message()));
        }
        const auto errors = r1_errors(cmd.response[0], family_);
        if (!errors.empty())
            throw ExecError(fmt::format("CMD6 SANITIZE_START answered card status 0x{:08x}: {}", cmd.response[0],
                                        fmt::join(errors, ", ")));
    }

    std::string describe() const override { return mmc::erase::describe(method_, caps_); }

private:
    static std::string names(const std::vector<dev::MmcCommand>& seq)
    {
        std::string out;
        for (const auto& c : seq) out += fmt::format("{}CMD{}", out.empty() ? "" : ",", c.opcode);
        return out;
    }

    dev::MmcChannel channel_;
    Method method_;
    Capabilities caps_;
    regs::CardFamily family_; // how to read the card's R1 status (select_method allows raw commands only on MMC/SD cards)
    uint16_t rca_;
    uint64_t start_;
};

} // namespace

std::unique_ptr<Executor> block_executor(int fd, Method m, const std::string& name)
{
    return std::make_unique<BlockExecutor>(fd, m, name);
}

std::unique_ptr<Executor> mmc_executor(const std::string& disk_path, Method m, const Capabilities& caps, uint16_t rca,
                                       uint64_t device_start)
{
    try {
        return std::make_unique<MmcExecutor>(disk_path, m, caps, rca, device_start);
    } catch (const std::system_error& e) {
        throw ExecError(fmt::format("cannot open the MMC channel: {}", e.what()));
    }
}

} // namespace mmc::erase
