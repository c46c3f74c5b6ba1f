#include "cli/json_out.h"
#include "cli/json_printed.h"

#include "cli/printable.h"
#include "version.h"

#include <cstdio>
#include <fmt/format.h>
#include <iostream>

namespace mmc::cli {

namespace {

// JSON pointer escaping (RFC 6901), with the key shown printable.
std::string pointer_token(std::string_view key)
{
    std::string out;
    for (const char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return printable(out);
}

// Depth-first over the document, which this process built (its depth is
// bounded by code, not by input), collecting where strings are not UTF-8.
template <typename Json>
void find_invalid(const Json& j, const std::string& at, std::vector<std::string>& found)
{
    if (j.is_string()) {
        if (!is_valid_utf8(j.template get_ref<const typename Json::string_t&>())) found.push_back(at.empty() ? "/" : at);
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string here = at + "/" + pointer_token(it.key());
            if (!is_valid_utf8(it.key())) found.push_back(here + " (key)");
            find_invalid(it.value(), here, found);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) find_invalid(j[i], at + "/" + std::to_string(i), found);
    }
}

template <typename Json>
JsonText dump_any(const Json& doc, int indent)
{
    JsonText out;
    find_invalid(doc, "", out.replaced_at);
    out.text = doc.dump(indent, ' ', false, Json::error_handler_t::replace);
    return out;
}

bool document_printed = false;

template <typename Json>
void print_any(const Json& doc, std::string_view tool, int indent)
{
    document_printed = true;
    const JsonText j = dump_any(doc, indent);
    std::cout << j.text << '\n';
    if (!j.replaced_at.empty()) {
        std::cout.flush(); // keep the warning after the document it describes on a shared terminal
        fmt::print(stderr, "{}\n", replaced_warning(tool, j.replaced_at));
    }
}

} // namespace

bool json_printed() { return document_printed; }
void forget_json_printed() { document_printed = false; }

JsonText dump_json(const nlohmann::json& doc, int indent) { return dump_any(doc, indent); }
JsonText dump_json(const nlohmann::ordered_json& doc, int indent) { return dump_any(doc, indent); }

std::string replaced_warning(std::string_view tool, const std::vector<std::string>& at)
{
    if (at.empty()) return {};
    std::string where;
    for (std::size_t i = 0; i < at.size() && i < 3; ++i) where += (i ? ", " : "") + at[i];
    if (at.size() > 3) where += fmt::format(" and {} more", at.size() - 3);
    return fmt::format("{}: warning: invalid UTF-8 in {} replaced by U+FFFD", tool, where);
}

void print_json(const nlohmann::json& doc, std::string_view tool, int indent) { print_any(doc, tool, indent); }
void print_json(const nlohmann::ordered_json& doc, std::string_view tool, int indent) { print_any(doc, tool, indent); }

void print_tool_json(const nlohmann::ordered_json& body, std::string_view tool, std::string_view subcommand)
{
    nlohmann::ordered_json doc;
    doc["tool"] = tool;
    doc["version"] = mmc::version;
    if (!subcommand.empty()) doc["subcommand"] = subcommand;
    doc.update(body);
    print_json(doc, tool);
}

} // namespace mmc::cli
