// Structured records to systemd's journal through its native protocol
// (systemd.io/JOURNAL_NATIVE_PROTOCOL): one datagram of KEY=VALUE fields to
// /run/systemd/journal/socket. Written here, not through libsystemd's
// sd_journal_send, so that the tools link nothing new: the armhf and arm64
// builds link against sysroots assembled from a fixed package list, and the
// protocol is a documented, stable interface. journal_datagram is pure (the
// encoding); JournalSocket sends.
#pragma once

#include <string>
#include <sys/un.h>
#include <string_view>
#include <utility>
#include <vector>

namespace mmc::dev {

using JournalFields = std::vector<std::pair<std::string, std::string>>;

// True for a name the journal keeps: A-Z, 0-9 and '_', not starting with
// '_' (those are the journal's own trusted fields) or a digit, at most 64.
bool journal_field_name_ok(std::string_view name);

// The datagram for one record: "KEY=VALUE\n" per field, and for a value
// holding a newline "KEY\n", its length as 64-bit little-endian, the value,
// "\n". Throws std::invalid_argument on a field name the journal refuses.
std::string journal_datagram(const JournalFields& fields);

class JournalSocket {
public:
    static constexpr const char* default_path = "/run/systemd/journal/socket";
    // Throws std::system_error when no datagram socket can be made or none
    // listens at path (no journald: ENOENT or ECONNREFUSED).
    explicit JournalSocket(std::string path = default_path);
    ~JournalSocket();
    JournalSocket(const JournalSocket&) = delete;
    JournalSocket& operator=(const JournalSocket&) = delete;

    // Throws std::system_error naming the socket when the journal does not
    // take the record (no journald: ENOENT or ECONNREFUSED).
    void send(const JournalFields& fields);

private:
    sockaddr_un address() const;
    std::string path_;
    int fd_ = -1;
};

} // namespace mmc::dev
