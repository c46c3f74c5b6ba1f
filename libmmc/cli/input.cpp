#include "cli/input.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>

namespace mmc::cli {

std::string cap_text(std::size_t cap)
{
    if (cap >= (1u << 20) && cap % (1u << 20) == 0) return fmt::format("{} MiB", cap >> 20);
    if (cap >= 1024 && cap % 1024 == 0) return fmt::format("{} KiB", cap >> 10);
    return fmt::format("{} bytes", cap);
}

std::string read_file_capped(const std::filesystem::path& path, std::size_t cap, std::string_view what)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(fmt::format("{}: is a directory", path.string()));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: {}", path.string(), std::strerror(errno)));
    std::string text;
    char buf[65536];
    // Not the file's size: /dev/zero and pipes have none, and sysfs lies.
    while (text.size() <= cap && in.read(buf, sizeof buf).gcount() > 0) text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw InputError(fmt::format("{}: read error", path.string()));
    if (text.size() > cap)
        throw InputError(fmt::format("{}: more than {}; no {} is that large", path.string(), cap_text(cap), what));
    return text;
}

namespace {

struct TooDeep {};

} // namespace

nlohmann::ordered_json parse_json_capped(const std::string& text, int max_depth)
{
    // The parser itself keeps its own stack on the heap; the callback sees
    // each level as it opens, before anything recursive touches it.
    const auto guard = [max_depth](int depth, nlohmann::ordered_json::parse_event_t event, nlohmann::ordered_json&) {
        using E = nlohmann::ordered_json::parse_event_t;
        if ((event == E::object_start || event == E::array_start) && depth >= max_depth) throw TooDeep{};
        return true;
    };
    try {
        return nlohmann::ordered_json::parse(text, guard);
    } catch (const TooDeep&) {
        throw InputError(fmt::format("JSON nested deeper than {} levels", max_depth));
    }
}

} // namespace mmc::cli
