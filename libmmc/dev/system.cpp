#include "dev/system.h"

#include <sys/klog.h>
#include <sys/utsname.h>

namespace mmc::dev {

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

} // namespace mmc::dev
