#include "cli/errors.h"

#include "cli/cli.h"

#include "cli/json_out.h"
#include "cli/json_printed.h"
#include "version.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <regex>

namespace mmc::cli {

int exit_status(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::usage: return usage;
    case ErrorKind::interrupted: return interrupted;
    case ErrorKind::failure: break;
    }
    return failure;
}

std::string error_text(const Error& e)
{
    const std::string_view remedy = e.hint.empty() ? remedy_text(e.remedy) : std::string_view(e.hint);
    return remedy.empty() ? std::string(e.what()) : fmt::format("{}; {}", e.what(), remedy);
}

namespace {

bool json_errors = false;

int report_error(std::string_view tool, ErrorKind kind, const std::string& message)
{
    const std::string text = library_text(message);
    const int status = exit_status(kind);
    if (json_errors && !json_printed()) { // one document a run: a tool that printed its own says how far it got
        nlohmann::ordered_json doc;
        doc["tool"] = std::string(tool);
        doc["version"] = mmc::version;
        doc["error"] = {{"message", text}, {"exit_status", status}};
        print_json(doc, tool);
    }
    if (kind == ErrorKind::usage) return usage_failure(tool, text);
    error(tool, text);
    return status;
}

} // namespace

void request_json_errors(bool on)
{
    json_errors = on;
}

std::string library_text(std::string_view message)
{
    static const std::regex json_mark(R"(\[json\.exception\.[a-z_]+\.[0-9]+\] )");
    return std::regex_replace(std::string(message), json_mark, "");
}

int run_tool(std::string_view tool, const std::function<int()>& body)
{
    try {
        return body();
    } catch (const Error& e) {
        return report_error(tool, e.kind, error_text(e));
    } catch (const std::bad_alloc&) {
        return report_error(tool, ErrorKind::failure, "out of memory");
    } catch (const std::exception& e) {
        return report_error(tool, ErrorKind::failure, e.what());
    }
}

void rethrow_in_context(std::string_view context)
{
    try {
        throw;
    } catch (const Error& e) {
        Error in_context(e.kind, fmt::format("{}: {}", context, e.what()), e.hint);
        in_context.remedy = e.remedy;
        throw in_context;
    } catch (const std::exception& e) {
        throw Error(ErrorKind::failure, fmt::format("{}: {}", context, e.what()));
    }
}

void rethrow_as_usage()
{
    try {
        throw;
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(ErrorKind::usage, e.what());
    }
}

} // namespace mmc::cli
