// The handshake of a test with a child it is going to interrupt: the child
// creates a file once it is ready (its trap set), and the test waits for the
// file before it sends the stop. A fixed sleep instead raced a loaded
// machine: a SIGINT that came before the trap killed the child outright.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

struct ReadyFile {
    std::filesystem::path path;

    ReadyFile()
    {
        static std::atomic<int> made{0};
        path = std::filesystem::temp_directory_path() /
               ("ready-" + std::to_string(::getpid()) + "-" + std::to_string(made.fetch_add(1)));
        std::filesystem::remove(path);
    }
    ~ReadyFile() { std::filesystem::remove(path); }
    ReadyFile(const ReadyFile&) = delete;
    ReadyFile& operator=(const ReadyFile&) = delete;

    // The shell command that says "ready".
    std::string shell_says_ready() const { return ": > '" + path.string() + "'"; }

    // Waits until the child said it, up to `limit`; false when it never did.
    bool wait(std::chrono::milliseconds limit = std::chrono::seconds(20)) const
    {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!std::filesystem::exists(path)) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return true;
    }
};
