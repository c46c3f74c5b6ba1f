// libFuzzer harness over mmc-report --import: the text is imported into an
// SQLite store (a file in a temporary directory: the store asks for WAL,
// which a database in memory cannot have) as a file named on the command line (first byte
// odd) or found in a directory (even), then read back as a report from the
// store reads it. What the store keeps, a report must read: a stored
// bundle that the report would skip aborts the run.
#include "report/import.h"
#include "report/load.h"
#include "report/sql.h"
#include "report/store.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

// The store's directory, removed when the fuzzer exits.
struct TempDir {
    TempDir()
    {
        char pattern[] = "/tmp/mmc-import-fuzz.XXXXXX";
        if (!mkdtemp(pattern)) std::abort();
        path = pattern;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string path;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    static TempDir dir;
    static mmc::report::Store store(mmc::report::open_sqlite(dir.path + "/results.sqlite"));
    const bool named = data[0] & 1;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    mmc::report::ImportSummary summary;
    mmc::report::import_text(store, "fuzz.json", text, named, summary);
    const auto stored = store.bundles();
    if (!stored.empty()) {
        const auto read = mmc::report::load_stored(stored);
        if (read.named_file_failed || read.bundles.size() != stored.size()) {
            for (const auto& w : read.warnings) std::fprintf(stderr, "%s\n", w.c_str());
            std::abort(); // stored, then skipped by every report
        }
    }
    // One input at a time: the store stays empty between runs.
    store.connection().exec("DELETE FROM verdicts; DELETE FROM jobs; DELETE FROM bundles; DELETE FROM rejections");
    return 0;
}
