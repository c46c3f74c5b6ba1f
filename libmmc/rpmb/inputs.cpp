#include "rpmb/inputs.h"

#include "cli/input.h"
#include "cli/size.h"
#include "regs/decode.h"
#include "regs/register_facts.h"

#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::rpmb {

namespace {

uint32_t parse_number(std::string_view text, std::string_view what)
{
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    uint32_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw std::invalid_argument(fmt::format("{} '{}' is not a whole number", what, text));
    return v;
}

} // namespace

Key read_key_file(const std::string& path)
{
    // A key typed in place of a file (64 hex digits) is refused without
    // being echoed back: it has already been seen by ps and the history.
    const bool looks_like_hex_key = path.size() == 2 * key_bytes && path.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (looks_like_hex_key && !std::filesystem::exists(path))
        throw cli::InputError("the key is given in a file, never on the command line, where every user sees it and the "
                              "shell's history keeps it; consider a key typed there exposed");
    // One byte over the key's size is enough to tell a longer file.
    const std::string bytes = cli::read_file_capped(path, key_bytes + 1, "RPMB key");
    if (bytes.size() != key_bytes)
        throw cli::InputError(fmt::format("{}: {} bytes; an RPMB key file holds exactly {} bytes (the key itself, not hex "
                                          "text)",
                                          path, bytes.size() > key_bytes ? "more than 32" : std::to_string(bytes.size()),
                                          key_bytes));
    Key k;
    std::copy(bytes.begin(), bytes.end(), k.begin());
    return k;
}

std::vector<uint8_t> read_data_file(const std::string& path, uint64_t cap)
{
    const std::string bytes = cli::read_file_capped(path, static_cast<std::size_t>(cap), "RPMB data");
    if (bytes.empty()) throw cli::InputError(fmt::format("{}: empty; give at least one 256-byte block", path));
    if (bytes.size() % block_bytes)
        throw cli::InputError(fmt::format("{}: {} bytes, not a multiple of 256: the RPMB is written in whole 256-byte blocks",
                                          path, bytes.size()));
    return {bytes.begin(), bytes.end()};
}

BlockRange parse_block_range(const std::string& text)
{
    const auto comma = text.find(',');
    BlockRange r;
    r.first = parse_number(std::string_view(text).substr(0, comma), "block");
    if (comma != std::string::npos) {
        r.count = parse_number(std::string_view(text).substr(comma + 1), "count");
        if (r.count == 0) throw std::invalid_argument("a count of 0 blocks reads nothing; give 1 or more");
    }
    return r;
}

void check_range(const BlockRange& range, uint64_t size_bytes)
{
    const uint64_t blocks = std::min<uint64_t>(size_bytes / block_bytes, 0x10000);
    const uint64_t last = uint64_t{range.first} + range.count - 1;
    if (last >= blocks)
        throw std::out_of_range(fmt::format("block {} is out of range: the RPMB partition ({}) holds blocks 0 to {}", last,
                                            cli::format_bytes(size_bytes), blocks == 0 ? 0 : blocks - 1));
}

uint64_t rpmb_size_bytes(std::span<const uint8_t> ext_csd) { return regs::ext_csd_facts(regs::decode_ext_csd(ext_csd)).rpmb_bytes; }

} // namespace mmc::rpmb
