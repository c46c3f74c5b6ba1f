#include "dev/system.h"

#include <fstream>
#include <sstream>
#include <sys/klog.h>
#include <sys/utsname.h>

namespace mmc::dev {

namespace {

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t' || s.back() == '\0'))
        s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    return s.substr(i);
}

std::optional<std::string> file_text(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string os_pretty_name(const std::string& os_release)
{
    std::string os;
    std::istringstream lines(os_release);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            os = line.substr(12);
            if (os.size() >= 2 && os.front() == '"' && os.back() == '"') os = os.substr(1, os.size() - 2);
        }
    return os;
}

// x86 names its CPU "model name"; ARM kernels "Model" (the board) or
// "Hardware" (the SoC). The first "model name" wins.
std::string cpu_model_of(const std::string& cpuinfo)
{
    std::string cpu;
    std::istringstream lines(cpuinfo);
    for (std::string line; std::getline(lines, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string key = trimmed(line.substr(0, colon));
        if (key == "model name" || key == "Model" || key == "Hardware") {
            cpu = trimmed(line.substr(colon + 1));
            if (key == "model name") break;
        }
    }
    return cpu;
}

} // namespace

KernelInfo kernel_info()
{
    utsname u{};
    if (::uname(&u) != 0) return {};
    return {u.release, u.machine, u.nodename};
}

std::optional<std::string> read_kernel_log()
{
    const int size = ::klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, nullptr, 0);
    if (size <= 0) return std::nullopt;
    std::string buf(static_cast<std::size_t>(size), '\0');
    const int n = ::klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf.data(), size);
    if (n < 0) return std::nullopt;
    buf.resize(static_cast<std::size_t>(n));
    return buf;
}

HostFacts read_host_facts(const std::filesystem::path& root)
{
    HostFacts h;
    const auto kernel = kernel_info();
    h.hostname = kernel.nodename;
    h.kernel = kernel.release;
    h.arch = kernel.machine;
    if (auto model = file_text(root / "proc/device-tree/model")) h.machine = trimmed(*model);
    if (h.machine.empty()) {
        const std::string vendor = trimmed(file_text(root / "sys/class/dmi/id/sys_vendor").value_or(""));
        const std::string product = trimmed(file_text(root / "sys/class/dmi/id/product_name").value_or(""));
        h.machine = trimmed(vendor + (vendor.empty() || product.empty() ? "" : " ") + product);
    }
    if (auto rel = file_text(root / "etc/os-release")) h.os = os_pretty_name(*rel);
    if (auto info = file_text(root / "proc/cpuinfo")) h.cpu_model = cpu_model_of(*info);
    return h;
}

} // namespace mmc::dev
