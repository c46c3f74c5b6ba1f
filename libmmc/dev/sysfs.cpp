#include "dev/sysfs.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace mmc::dev {

std::optional<std::string> read_attr(const fs::path& path)
{
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return std::nullopt;
    std::string s = text.str();
    while (!s.empty() && (s.back() == '\n' || s.back() == '\0')) s.pop_back();
    return s;
}

uint64_t read_number(const fs::path& path)
{
    const auto text = read_attr(path);
    uint64_t v = 0;
    if (text) std::from_chars(text->data(), text->data() + text->size(), v);
    return v;
}

std::optional<std::string> link_name(const fs::path& path)
{
    std::error_code ec;
    const fs::path target = fs::read_symlink(path, ec);
    if (ec) return std::nullopt;
    return target.filename().string();
}

fs::path resolve_path(const fs::path& path)
{
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    return ec ? path : real;
}

} // namespace mmc::dev
