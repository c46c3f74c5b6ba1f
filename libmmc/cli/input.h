// Reading a user-named input (a pasted dump, a log, a device-tree source)
// with a size cap: a wrong file (/dev/zero, a disk image) is refused with a
// clear error instead of growing memory until the process is killed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mmc::cli {

// The contents of PATH ("-" is standard input). Throws std::runtime_error
// "PATH: cannot read: why" or "PATH: larger than N bytes (WHAT is far
// smaller); not read" once more than `max_bytes` arrive.
std::string read_input(const std::string& path, std::size_t max_bytes, std::string_view what);

} // namespace mmc::cli
