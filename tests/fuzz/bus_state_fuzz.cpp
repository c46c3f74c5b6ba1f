// libFuzzer harness over mmc-tune bus's state file reader (--undo reads
// /run/mmckit/tune-bus-HOST.json back): any bytes must give a snapshot or a
// std::runtime_error naming the file, never a crash.
#include "tune/bus_state.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const std::string path = "/tmp/bus_state_fuzz." + std::to_string(::getpid()) + ".json";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        (void)mmc::tune::read_bus_state(path);
    } catch (const std::runtime_error&) {
    }
    return 0;
}
