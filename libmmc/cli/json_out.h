// The one JSON writer of every tool. Strings from a card (a sysfs name, a
// pasted value) may be any bytes; nlohmann::json throws on invalid UTF-8
// when it dumps, which would abort the tool. Here each invalid byte becomes
// U+FFFD and a warning names where it was, so the output is always valid
// JSON and the replacement is never silent.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::cli {

struct JsonText {
    std::string text;                      // the document, no trailing newline
    std::vector<std::string> replaced_at;  // JSON pointers of strings (or keys) that were not UTF-8
};

// doc as text, indented by indent spaces (-1: one line, for streams).
JsonText dump_json(const nlohmann::json& doc, int indent = 2);
JsonText dump_json(const nlohmann::ordered_json& doc, int indent = 2);

// "tool: warning: invalid UTF-8 in /card/name replaced by U+FFFD", naming
// at most three places; empty when nothing was replaced.
std::string replaced_warning(std::string_view tool, const std::vector<std::string>& replaced_at);

// Prints doc and a newline on stdout, and the warning (if any) on stderr.
void print_json(const nlohmann::json& doc, std::string_view tool, int indent = 2);
void print_json(const nlohmann::ordered_json& doc, std::string_view tool, int indent = 2);

// A tool's own document, printed as print_json prints: "tool" and "version"
// first (then "subcommand", when one is named), then body's keys in order.
void print_tool_json(const nlohmann::ordered_json& body, std::string_view tool, std::string_view subcommand = {});

} // namespace mmc::cli
