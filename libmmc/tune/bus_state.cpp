#include "tune/bus_state.h"

#include "cli/input.h"
#include "cli/json_out.h"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

namespace mmc::tune {

namespace fs = std::filesystem;

fs::path run_dir()
{
    const char* env = std::getenv("MMCKIT_RUN_DIR");
    return env && *env ? fs::path(env) : fs::path("/run/mmckit");
}

fs::path bus_state_path(const std::string& host) { return run_dir() / fmt::format("tune-bus-{}.json", host); }

void write_bus_state(const fs::path& path, const HostSnapshot& s, const std::string& device)
{
    nlohmann::ordered_json j;
    j["kind"] = "mmc-tune bus state";
    j["host"] = s.host;
    j["device"] = device;
    j["caps"] = fmt::format("0x{:08x}", s.caps);
    j["caps2"] = fmt::format("0x{:08x}", s.caps2);
    j["clock_hz"] = s.clock_hz;
    j["mode"] = s.mode ? nlohmann::ordered_json(bus::to_string(*s.mode)) : nlohmann::ordered_json();
    j["power_control"] = s.power_control;
    j["autosuspend_delay_ms"] = s.autosuspend_delay_ms ? nlohmann::ordered_json(*s.autosuspend_delay_ms) : nlohmann::ordered_json();
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw std::runtime_error(fmt::format("{}: cannot create: {}", path.parent_path().string(), ec.message()));
    const fs::path tmp = path.string() + ".new";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << cli::dump_json(j).text << "\n";
        out.flush();
        if (!out) throw std::runtime_error(fmt::format("{}: cannot write the state file", tmp.string()));
    }
    fs::rename(tmp, path, ec);
    if (ec) throw std::runtime_error(fmt::format("{}: cannot write the state file: {}", path.string(), ec.message()));
}

namespace {

uint32_t hex32(const nlohmann::json& v, const char* key)
{
    const std::string s = v.at(key).get<std::string>();
    std::size_t used = 0;
    const unsigned long n = std::stoul(s, &used, 16);
    if (used != s.size() || n > 0xffffffffUL) throw std::runtime_error(fmt::format("{} is not a 32-bit hex number", key));
    return static_cast<uint32_t>(n);
}

} // namespace

HostSnapshot read_bus_state(const fs::path& path)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw std::runtime_error(fmt::format("{}: no state file: nothing to undo (it is written before mmc-tune bus --apply "
                                             "changes anything, and removed once the host is put back)",
                                             path.string()));
    const std::string text = cli::read_input(path.string(), 64 * 1024, "state file");
    try {
        const auto j = cli::parse_json_capped(text);
        if (j.value("kind", "") != "mmc-tune bus state") throw std::runtime_error("not an mmc-tune bus state file");
        HostSnapshot s;
        s.host = j.at("host").get<std::string>();
        s.caps = hex32(j, "caps");
        s.caps2 = hex32(j, "caps2");
        s.clock_hz = j.at("clock_hz").get<uint64_t>();
        s.power_control = j.at("power_control").get<std::string>();
        if (s.power_control != "on" && s.power_control != "auto") throw std::runtime_error("power_control is neither on nor auto");
        if (j.contains("autosuspend_delay_ms") && !j["autosuspend_delay_ms"].is_null())
            s.autosuspend_delay_ms = j["autosuspend_delay_ms"].get<long>();
        for (const auto m : {bus::sd_modes, bus::mmc_modes})
            for (const auto mode : m)
                if (j.contains("mode") && j["mode"].is_string() && j["mode"].get<std::string>() == bus::to_string(mode)) s.mode = mode;
        if (s.host.empty() || s.host.size() > 32 || s.host.find('/') != std::string::npos || s.host.find("..") != std::string::npos)
            throw std::runtime_error("host is not a host name");
        return s;
    } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
    }
}

} // namespace mmc::tune
