// What `mmc-probe verify` says: the plan before it writes, the result as
// text and as the -J document (man mmc-probe, VERIFY), and its exit status.
#pragma once

#include "probe/verify.h"

#include <nlohmann/json.hpp>
#include <string>

namespace mmc::probe {

struct VerifyWhere {
    std::string target;       // the device or the directory
    bool file_system = false; // the free space of a mounted file system
};

std::string verify_plan_text(const VerifyWhere&, uint64_t bytes);
std::string verify_result_text(const VerifyWhere&, const VerifyResult&);
// "tool", "version", "command" first; bytes as integers, offsets null when none.
nlohmann::ordered_json verify_document(const VerifyWhere&, const VerifyResult&);

// --dry-run's: what would be filled.
nlohmann::ordered_json verify_dry_run_document(const VerifyWhere&, uint64_t bytes);

// 0 ok, 10 fake (as capacity's first fake status), 14 lost writes,
// 15 corrupt, 16 read errors.
int verify_exit_status(VerifyVerdict);

} // namespace mmc::probe
