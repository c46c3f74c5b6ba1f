#include "erase/methods.h"

#include "regs/decode.h"
#include "regs/register_facts.h"
#include "regs/ssr.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

namespace mmc::erase {

namespace {

constexpr uint64_t MiB = 1024 * 1024;
constexpr uint64_t GiB = 1024 * MiB;
// Chunks stay small enough that Ctrl-C is answered within seconds.
constexpr uint64_t prompt_bound = 1 * GiB;
constexpr uint64_t zeroout_offloaded_bound = 64 * MiB; // the device zeroes (write-zeroes offload)
constexpr uint64_t zeroout_written_bound = 16 * MiB;   // the kernel writes zero pages

bool is_sd_method(Method m) { return m == Method::sd_discard || m == Method::fule; }
bool is_emmc_method(Method m)
{
    return m == Method::trim || m == Method::emmc_discard || m == Method::secure_erase || m == Method::secure_trim ||
           m == Method::sanitize;
}

std::string sec_text(const Capabilities& c) { return fmt::format("EXT_CSD SEC_FEATURE_SUPPORT is 0x{:02x}", c.sec_feature_support); }

// The CMD38 argument(s) of a raw method.
std::vector<uint32_t> cmd38_args(Method m, const Capabilities& caps)
{
    switch (m) {
    case Method::erase: return {arg::erase};
    case Method::sd_discard: return {arg::sd_discard};
    case Method::fule: return {arg::sd_fule};
    case Method::trim: return {arg::trim};
    case Method::emmc_discard: return {arg::emmc_discard};
    case Method::secure_erase: return {arg::secure_erase};
    case Method::secure_trim: return {arg::secure_trim1, arg::secure_trim2};
    case Method::sanitize: return {(caps.sec_feature_support & sec_gb_cl_en) ? arg::trim : arg::erase};
    default: return {};
    }
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
    const std::string name(to_string(m));
    switch (m) {
    case Method::automatic:
    case Method::zeroout: return std::nullopt;
    case Method::discard:
        if (c.discard_max_bytes == 0 && c.usb_reader) return reader_cannot_erase(c);
        if (c.discard_max_bytes == 0)
            return fmt::format("the block layer offers no discard for {} (queue/discard_max_bytes is 0); use zeroout",
                               c.name);
        return std::nullopt;
    case Method::secure:
        if (c.family == regs::CardFamily::sd)
            return fmt::format("SD cards have no secure erase: the kernel rejects BLKSECDISCARD on {}; use erase or "
                               "discard",
                               c.name);
        if (c.family == regs::CardFamily::mmc) {
            if (!c.have_ext_csd) return "EXT_CSD could not be read, so secure erase support is unknown";
            if (!(c.sec_feature_support & sec_er_en))
                return fmt::format("{}: SECURE_ER_EN (bit 0) is clear, so the device has no secure erase or secure "
                                   "trim for BLKSECDISCARD",
                                   sec_text(c));
        }
        if (c.discard_max_bytes == 0 && c.family)
            return fmt::format("the block layer offers no discard for {} (queue/discard_max_bytes is 0)", c.name);
        return std::nullopt;
    default: break;
    }

    // Raw card commands.
    if (!c.family)
        return fmt::format("{} sends card commands, and {} is {}, not an MMC/SD card; use discard, secure or zeroout",
                           name, c.name, c.kind.empty() ? "not on an MMC host" : c.kind);
    if (is_sd_method(m) && c.family != regs::CardFamily::sd)
        return fmt::format("{} is an SD method and {} is an eMMC; use erase, trim or emmc-discard", name,
                           c.name);
    if (is_emmc_method(m) && c.family != regs::CardFamily::mmc)
        return fmt::format("{} is an eMMC method and {} is an SD card; use erase{}", name, c.name,
                           c.sd_discard_support ? " or sd-discard" : "");
    if (!c.erase_class)
        return "the CSD command classes (CCC) lack class 5 (erase): the card does not accept erase commands";

    switch (m) {
    case Method::sd_discard:
        if (!c.ssr) return "the SD status (SSR) could not be read, so DISCARD_SUPPORT is unknown";
        if (!c.sd_discard_support) return "SSR DISCARD_SUPPORT is 0: the card does not support the DISCARD argument";
        break;
    case Method::fule:
        if (!c.ssr) return "the SD status (SSR) could not be read, so FULE_SUPPORT is unknown";
        if (!c.fule_support) return "SSR FULE_SUPPORT is 0: the card does not support full user area logical erase";
        if (!whole_device)
            return "FULE erases the whole user area; name the whole card, not a range of it";
        break;
    case Method::trim:
        if (!c.have_ext_csd) return "EXT_CSD could not be read, so TRIM support is unknown";
        if (!(c.sec_feature_support & sec_gb_cl_en))
            return fmt::format("{}: SEC_GB_CL_EN (bit 4) is clear, so the device does not support TRIM", sec_text(c));
        break;
    case Method::emmc_discard:
        if (!c.have_ext_csd) return "EXT_CSD could not be read, so DISCARD support is unknown";
        if (c.ext_csd_rev < 6)
            return fmt::format("EXT_CSD_REV is {}: DISCARD needs eMMC 4.5 (EXT_CSD_REV 6) or later", c.ext_csd_rev);
        break;
    case Method::secure_erase:
        if (!c.have_ext_csd) return "EXT_CSD could not be read, so secure erase support is unknown";
        if (!(c.sec_feature_support & sec_er_en))
            return fmt::format("{}: SECURE_ER_EN (bit 0) is clear, so the device does not support secure erase",
                               sec_text(c));
        break;
    case Method::secure_trim:
        if (!c.have_ext_csd) return "EXT_CSD could not be read, so secure trim support is unknown";
        if ((c.sec_feature_support & (sec_er_en | sec_gb_cl_en)) != (sec_er_en | sec_gb_cl_en))
            return fmt::format("{}: secure trim needs SECURE_ER_EN (bit 0) and SEC_GB_CL_EN (bit 4)", sec_text(c));
        break;
    case Method::sanitize:
        if (!c.have_ext_csd) return "EXT_CSD could not be read, so sanitize support is unknown";
        if (!(c.sec_feature_support & sec_sanitize))
            return fmt::format("{}: SEC_SANITIZE (bit 6) is clear, so the device does not support sanitize",
                               sec_text(c));
        break;
    default: break;
    }
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

EraseUnit erase_unit(Method m, const Capabilities& c)
{
    const uint64_t lb = std::max<uint64_t>(c.logical_block, 512);
    switch (m) {
    case Method::discard:
    case Method::secure:
        if (c.discard_granularity >= lb) return {c.discard_granularity, "queue/discard_granularity"};
        return {lb, "logical block size"};
    case Method::zeroout:
    case Method::automatic: return {lb, "logical block size"};
    case Method::fule: return {lb, "logical block size (FULE takes the whole user area)"};
    default: break;
    }
    if (c.family == regs::CardFamily::sd) {
        if (c.au_bytes) return {c.au_bytes, "SSR AU_SIZE"};
        if (c.preferred_erase_bytes >= lb) return {c.preferred_erase_bytes, "sysfs preferred_erase_size"};
        return {lb, "logical block size"};
    }
    if (c.hc_erase_group_bytes && (c.hc_erase_group_def || !c.csd_erase_group_bytes))
        return {c.hc_erase_group_bytes, "EXT_CSD HC_ERASE_GRP_SIZE"};
    if (c.csd_erase_group_bytes >= lb) return {c.csd_erase_group_bytes, "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT"};
    return {lb, "logical block size"};
}

uint64_t chunk_limit(Method m, const Capabilities& c)
{
    auto bounded = [](uint64_t limit, uint64_t bound) { return limit ? std::min(limit, bound) : bound; };
    switch (m) {
    case Method::discard:
    case Method::secure: return bounded(c.discard_max_bytes, prompt_bound);
    case Method::zeroout:
        return c.write_zeroes_max_bytes ? bounded(c.write_zeroes_max_bytes, zeroout_offloaded_bound)
                                        : zeroout_written_bound;
    case Method::fule: return 0; // one command for the whole user area
    case Method::automatic: return prompt_bound;
    default: break;
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
    switch (m) {
    case Method::zeroout:
        o.declared = 0x00;
        o.zero_only = true;
        o.basis = "BLKZEROOUT writes zeros";
        return o;
    case Method::discard:
        if (!c.family) {
            o.declared.reset();
            o.basis = "BLKDISCARD; the device declares no erased pattern";
        } else if (c.family == regs::CardFamily::sd && c.sd_discard_support) {
            o.undefined = true;
            o.basis = "BLKDISCARD: the kernel sends SD DISCARD, which may keep the old data";
        } else if (c.family == regs::CardFamily::mmc && c.ext_csd_rev >= 6) {
            o.undefined = true;
            o.basis = "BLKDISCARD: the kernel sends eMMC DISCARD, which may keep the old data";
        } else {
            o.basis = fmt::format("BLKDISCARD: the kernel sends {}; {}",
                                  c.family == regs::CardFamily::mmc && (c.sec_feature_support & sec_gb_cl_en) ? "TRIM" : "ERASE",
                                  reg);
        }
        return o;
    case Method::secure:
        if (!c.family) {
            o.declared.reset();
            o.basis = "BLKSECDISCARD; the device declares no erased pattern";
        } else {
            o.basis = "BLKSECDISCARD: secure erase/trim; " + reg;
        }
        return o;
    case Method::sd_discard:
    case Method::emmc_discard:
        o.undefined = true;
        o.basis = "DISCARD may keep the old data; erased blocks read as " + reg + " says";
        return o;
    default: o.basis = reg; return o;
    }
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
    const uint64_t group = c.hc_erase_group_def && c.hc_erase_group_bytes ? c.hc_erase_group_bytes
                           : c.csd_erase_group_bytes                     ? c.csd_erase_group_bytes
                           : c.hc_erase_group_bytes                      ? c.hc_erase_group_bytes
                                                                         : 512;
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
    switch (m) {
    case Method::discard: return "BLKDISCARD";
    case Method::secure: return "BLKSECDISCARD";
    case Method::zeroout: return "BLKZEROOUT";
    case Method::automatic: return "auto";
    default: break;
    }
    const bool sd = c.family == regs::CardFamily::sd;
    std::string args;
    for (const uint32_t a : cmd38_args(m, c))
        args += fmt::format("{}{} (0x{:x})", args.empty() ? "" : " then ", arg_name(c.family, a), a);
    std::string text = fmt::format("{} CMD38 {}, {} addresses", sd ? "CMD32/CMD33" : "CMD35/CMD36", args,
                                   c.block_addressed ? "block" : "byte");
    if (m == Method::sanitize) text += ", then CMD6 SANITIZE_START";
    return text;
}

// --- executors --------------------------------------------------------------

namespace {

class BlockExecutor final : public Executor {
public:
    BlockExecutor(int fd, Method m, std::string name) : fd_(fd), method_(m), name_(std::move(name)) {}

    void erase(const Extent& e) override
    {
        uint64_t range[2] = {e.offset, e.length};
        const unsigned long request = method_ == Method::discard  ? BLKDISCARD
                                      : method_ == Method::secure ? BLKSECDISCARD
                                                                  : BLKZEROOUT;
        if (::ioctl(fd_, request, range) == 0) return;
        const int err = errno;
        std::string hint;
        if (err == EOPNOTSUPP)
            hint = fmt::format(": {} does not support {}", name_,
                               method_ == Method::secure ? "secure discard" : method_ == Method::discard ? "discard"
                                                                                                        : "zeroout");
        throw ExecError(fmt::format("{} at offset {} length {} failed: {}{}", describe(), e.offset, e.length,
                                    std::strerror(err), hint));
    }

    std::string describe() const override
    {
        return method_ == Method::discard ? "BLKDISCARD" : method_ == Method::secure ? "BLKSECDISCARD" : "BLKZEROOUT";
    }

private:
    int fd_;
    Method method_;
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
        if (method_ != Method::sanitize) return;
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
