// Capped reads and capped JSON nesting, and the output file that replaces
// regular files only.
#include "cli/file_out.h"
#include "cli/input.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace mmc::cli;

namespace {

struct TempDir {
    fs::path path;
    TempDir()
    {
        std::string t = (fs::temp_directory_path() / "mmckit-cli-XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST(CliInput, ReadsAFileUpToTheCap)
{
    TempDir d;
    std::ofstream(d.path / "f") << "0123456789";
    EXPECT_EQ(read_file_capped(d.path / "f", 10, "test"), "0123456789");
    try {
        (void)read_file_capped(d.path / "f", 9, "register dump");
        FAIL() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), (d.path / "f").string() + ": more than 9 bytes; no register dump is that large");
    }
}

TEST(CliInput, DevZeroFailsAtTheCapInsteadOfGrowing)
{
    EXPECT_THROW((void)read_file_capped("/dev/zero", register_input_cap, "register dump"), InputError);
}

TEST(CliInput, MissingFileAndDirectoryNameThePath)
{
    EXPECT_THROW((void)read_file_capped("/nonexistent/x", 10, "x"), InputError);
    EXPECT_THROW((void)read_file_capped("/", 10, "x"), InputError);
}

TEST(CliInput, CapsReadInBinaryUnits)
{
    EXPECT_EQ(cap_text(register_input_cap), "1 MiB");
    EXPECT_EQ(cap_text(json_input_cap), "64 MiB");
    EXPECT_EQ(cap_text(4096), "4 KiB");
}

TEST(CliInput, JsonNestingIsCapped)
{
    const auto nested = [](int n) { return std::string(static_cast<std::size_t>(n), '[') + std::string(static_cast<std::size_t>(n), ']'); };
    EXPECT_NO_THROW((void)parse_json_capped(nested(64)));
    EXPECT_THROW((void)parse_json_capped(nested(65)), InputError);
    EXPECT_THROW((void)parse_json_capped(nested(1000000)), InputError);
    EXPECT_THROW((void)parse_json_capped("{\"a\": [1,"), nlohmann::json::parse_error);
    EXPECT_EQ(parse_json_capped("{\"a\": {\"b\": [1, 2]}}")["a"]["b"][1], 2);
}

TEST(CliFileOut, NewAndRegularFilesAreReplacedWithTheirModeKept)
{
    TempDir d;
    write_output_file(d.path / "new.html", "one");
    EXPECT_EQ(slurp(d.path / "new.html"), "one");
    ::chmod((d.path / "new.html").c_str(), 0600);
    write_output_file(d.path / "new.html", "two");
    EXPECT_EQ(slurp(d.path / "new.html"), "two");
    EXPECT_EQ(fs::status(d.path / "new.html").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()), 1) << "a temporary file was left";
}

TEST(CliFileOut, ASymlinkStaysASymlink)
{
    TempDir d;
    std::ofstream(d.path / "target.html") << "old";
    fs::create_symlink("target.html", d.path / "link.html");
    write_output_file(d.path / "link.html", "new");
    EXPECT_TRUE(fs::is_symlink(d.path / "link.html"));
    EXPECT_EQ(slurp(d.path / "target.html"), "new");
}

TEST(CliFileOut, ADeviceNodeIsWrittenThroughNotReplaced)
{
    // A private copy of /dev/null, so a regression cannot replace the real one.
    if (::geteuid() != 0) GTEST_SKIP() << "mknod needs root";
    TempDir d;
    ASSERT_EQ(::mknod((d.path / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    write_output_file(d.path / "null", "page");
    EXPECT_TRUE(fs::is_character_file(d.path / "null"));
}

TEST(CliFileOut, DirectoriesAndDanglingSymlinksAreRefused)
{
    TempDir d;
    EXPECT_THROW(write_output_file(d.path, "x"), std::runtime_error);
    fs::create_symlink(d.path / "missing" / "x", d.path / "dangling");
    EXPECT_THROW(write_output_file(d.path / "dangling", "x"), std::runtime_error);
    EXPECT_TRUE(fs::is_symlink(d.path / "dangling"));
}
