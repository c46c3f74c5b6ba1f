// libFuzzer harness over the bundle reader and every report view: the text
// is parsed the way mmc-report reads a file (capped depth), read as a
// bundle, grouped, and rendered as text, CSV, JSON and HTML.
#include "cli/input.h"
#include "cli/json_out.h"
#include "report/bundle.h"
#include "report/export.h"
#include "report/html.h"
#include "report/tables.h"
#include "report/text.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    mmc::report::json doc;
    std::vector<std::string> twice;
    try {
        doc = mmc::cli::parse_json_capped(text, &twice);
    } catch (const nlohmann::json::exception&) {
        return 0; // not JSON: refused, as expected
    } catch (const mmc::cli::InputError&) {
        return 0; // too deep: refused, as expected
    }
    mmc::report::Bundle b;
    try {
        b = mmc::report::from_json(doc);
    } catch (const mmc::report::NotABundle&) {
        return 0;
    }
    // A second copy makes two bundles of one card on one host: rows (2).
    const auto rep = mmc::report::build_report({b, b});
    (void)mmc::report::text_report(rep, true);
    (void)mmc::report::csv_report(rep);
    (void)mmc::cli::dump_json(mmc::report::json_report(rep, b.warnings));
    (void)mmc::report::html_report(rep, {});
    (void)mmc::cli::dump_json(mmc::report::to_json(b));
    return 0;
}
