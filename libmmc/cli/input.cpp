#include "cli/input.h"
#include "cli/size.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <set>

namespace mmc::cli {

std::string cap_text(std::size_t cap)
{
    return format_bytes_exact(cap);
}

namespace {

std::string read_stream_capped(std::istream& in, const std::string& name, std::size_t cap, std::string_view what)
{
    std::string text;
    char buf[65536];
    // Not the file's size: /dev/zero and pipes have none, and sysfs lies.
    while (text.size() <= cap && in.read(buf, sizeof buf).gcount() > 0) text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw InputError(fmt::format("{}: read error", name));
    if (text.size() > cap) throw InputError(fmt::format("{}: more than {}; no {} is that large", name, cap_text(cap), what));
    return text;
}

} // namespace

std::string read_file_capped(const std::filesystem::path& path, std::size_t cap, std::string_view what)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(fmt::format("{}: is a directory", path.string()));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw_unreadable(path.string(), errno);
    return read_stream_capped(in, path.string(), cap, what);
}

void throw_unreadable(const std::string& path, int error_number)
{
    throw InputError(fmt::format("{}: {}", path, std::strerror(error_number)));
}

std::string read_input(const std::string& path, std::size_t cap, std::string_view what)
{
    if (path != "-") return read_file_capped(path, cap, what);
    std::cin.clear();
    return read_stream_capped(std::cin, "standard input", cap, what);
}

namespace {

// A first pass over the text with nlohmann's SAX interface, which keeps its
// stack on the heap and builds nothing: it measures the nesting and finds
// duplicate keys before a DOM (whose copy and dump recurse) exists.
class StructureCheck : public nlohmann::json_sax<nlohmann::ordered_json> {
public:
    explicit StructureCheck(int max_depth) : max_depth_(max_depth) {}

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override
    {
        Frame& f = frames_.back();
        f.token = k;
        if (!f.keys.insert(k).second) duplicates.push_back(pointer());
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

    bool too_deep = false;
    std::vector<std::string> duplicates;

private:
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string token;
        std::size_t index = 0;
    };

    bool value()
    {
        if (!frames_.empty() && !frames_.back().object) frames_.back().token = std::to_string(frames_.back().index++);
        return true;
    }
    bool open(bool object)
    {
        value();
        if (static_cast<int>(frames_.size()) >= max_depth_) {
            too_deep = true;
            return false;
        }
        frames_.push_back({object, {}, {}, 0});
        return true;
    }
    bool close()
    {
        frames_.pop_back();
        return true;
    }
    std::string pointer() const
    {
        std::string p;
        for (const auto& f : frames_) p += "/" + f.token;
        return p;
    }

    int max_depth_;
    std::vector<Frame> frames_;
};

} // namespace

nlohmann::ordered_json parse_json_capped(const std::string& text, std::vector<std::string>* duplicate_keys, int max_depth)
{
    StructureCheck check(max_depth);
    nlohmann::ordered_json::sax_parse(text, &check, nlohmann::detail::input_format_t::json, false);
    if (check.too_deep) throw InputError(fmt::format("JSON nested deeper than {} levels", max_depth));
    if (duplicate_keys) duplicate_keys->insert(duplicate_keys->end(), check.duplicates.begin(), check.duplicates.end());
    try {
        return nlohmann::ordered_json::parse(text); // throws parse_error with its position when it is not JSON
    } catch (const nlohmann::ordered_json::out_of_range& e) {
        // 1e400: valid JSON syntax, but no double holds it.
        throw InputError(fmt::format("a number no double can hold ({})", e.what()));
    }
}

} // namespace mmc::cli
