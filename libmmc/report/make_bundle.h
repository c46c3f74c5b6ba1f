// Assembling a measured bundle from the tools' -J documents: what
// `mmc-report --make-bundle` does, and mmc-qualify over its steps' documents. A
// missing or unreadable input is a failed step in the bundle, never an
// error: the pipeline reports what failed and goes on.
#pragma once

#include "report/bundle.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::report {

// One tool's JSON output as given on the command line.
struct ToolDoc {
    std::string tool;  // "mmc-info", "mmc-bus", "mmc-erase", "mmc-bench"
    std::string path;
    json doc;          // null when it could not be used
    std::string error; // why not ("card.json: No such file or directory")
};

// Reads PATH and checks it is TOOL's JSON ("tool": TOOL). Never throws.
ToolDoc read_tool_doc(const std::string& path, std::string_view tool);

struct MakeInputs {
    std::optional<ToolDoc> info, bus, erase;
    std::vector<ToolDoc> bench;
    std::vector<ToolDoc> probe; // mmc-probe geometry -J and capacity -J, each kept by its subcommand
    std::vector<ToolDoc> tune;  // mmc-tune bus -J and queue -J, each kept by its subcommand
    std::vector<Step> steps; // --step, in the order given
    std::string card_label, host_label; // empty: derived
    json environment;        // collect_environment()
    std::string created;     // ISO-8601 UTC
};

Bundle make_bundle(const MakeInputs& in);

// Writes doc (to_json(bundle), or that with additions) into dir, created if
// needed, as bundle_file_name(bundle), never over an existing file ("-2",
// "-3" ...). Throws std::runtime_error "PATH: why".
struct WrittenBundle {
    std::string path;
    std::vector<std::string> replaced_at; // strings that were not UTF-8 (cli::replaced_warning)
};
WrittenBundle write_bundle_file(const std::string& dir, const Bundle& bundle, const json& doc);

// --step NAME:ok|fail:MESSAGE (the message may hold more colons, or be
// absent). Throws std::invalid_argument saying what is wrong.
Step parse_step(std::string_view text);

// Results from mmc-bench documents: sequential read and write MB/s from the
// sequential job with the largest block size; random read and write IOPS
// from the QD1 jobs of 1 KiB, 4 KiB and 16 KiB blocks. Later documents win
// ties. Jobs with an error or no I/O are skipped, and so are the documents
// of the state suite: its writes measure a state made on purpose (used,
// then erased), which the bundle keeps as its state comparison.
Results results_from_bench(const std::vector<json>& bench_docs);

// The size a card is sold as, from its capacity: "16GB" for 15931539456
// bytes, "512MB"; the decimal size ("3.1GB") when no power of two is near.
std::string nominal_capacity(uint64_t bytes);

// "SanDisk SL16G 16GB": manufacturer (unless unknown), product, nominal size.
std::string default_card_label(const CardInfo& card);

// "geometry" or "capacity": which mmc-probe subcommand made doc (its
// "subcommand" or "command" key); empty when neither.
std::string probe_subcommand(const json& doc);

// What the machine making the bundle is: hostname, machine (device-tree
// model or DMI vendor and product), kernel, arch, os, cpu_model. Reads
// /proc and /sys under root.
json collect_environment(const std::string& root = "/");

} // namespace mmc::report
