// Exact-output checks of text views against files in tests/data/views: the
// test fails on any difference; with MMCKIT_UPDATE_VIEWS=1 in the
// environment it rewrites the file instead (then review `git diff
// tests/data/views` before committing).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

inline bool updating_views()
{
    const char* v = std::getenv("MMCKIT_UPDATE_VIEWS");
    return v && std::string(v) == "1";
}

// `name` is the file's name in tests/data/views ("sd-qemu.bus.txt").
inline void expect_view(const std::string& name, const std::string& actual)
{
    const std::string path = "tests/data/views/" + name;
    if (updating_views()) {
        std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
        return;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << path << " is missing: MMCKIT_UPDATE_VIEWS=1 writes it";
    std::ostringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(actual, expected.str()) << "the view differs from " << path
                                      << " (MMCKIT_UPDATE_VIEWS=1 rewrites it after an intended change)";
}
