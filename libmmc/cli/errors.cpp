#include "cli/errors.h"

#include "cli/cli.h"

#include <fmt/format.h>

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

int run_tool(std::string_view tool, const std::function<int()>& body)
{
    try {
        return body();
    } catch (const Error& e) {
        if (e.kind == ErrorKind::usage) return usage_failure(tool, error_text(e));
        error(tool, error_text(e));
        return exit_status(e.kind);
    } catch (const std::exception& e) {
        error(tool, e.what());
        return failure;
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
