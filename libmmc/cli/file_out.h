// Writing a file a person named on the command line (--html PATH, a bundle).
// A regular file (or a new one) is replaced atomically: a temporary file in
// the same directory, renamed over it, so a reader never sees half a page.
// Anything else is written through, never replaced: a symlink keeps being a
// symlink (its target is what gets replaced or written), and a device node
// or a FIFO (/dev/null, /dev/stdout, a pipe) receives the bytes, as it would
// from a shell redirection.
#pragma once

#include <filesystem>
#include <string_view>

namespace mmc::cli {

// Throws std::runtime_error "PATH: why" (a directory, a dangling symlink, a
// write error).
void write_output_file(const std::filesystem::path& path, std::string_view text);

} // namespace mmc::cli
