// nbdkit-mmcsim-plugin: the flash card model (libmmc/sim) served over NBD.
// A thin shell: nbdkit does the protocol, the threads and the lifetime; the
// model decides what each request returns and when it completes. Requests
// are served one at a time, like a card on its bus, and each is answered at
// the model's completion time: virtual time is the real monotonic time since
// the plugin started, so a request that the model says takes 1 ms is
// answered 1 ms after it arrived (plus the host's own latency).
//
//   nbdkit nbdkit-mmcsim-plugin.so [card=FILE.json] [stats=FILE] [OPTION=VALUE ...]
//
// card=   a card file (a preset, or what `mmc-sim --describe -J` printed)
// stats=  where the device-side counters go as JSON: at every flush and when
//         nbdkit exits
// OPTION= any card option by its mmc-sim name (size=1G, open-aus=2), applied
//         after the card file
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "sim/card.h"
#include "sim/command_joiner.h"
#include "simserve/card_file.h"
#include "version.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <sys/prctl.h>
#include <utility>
#include <vector>

// A card answers one command at a time; so does this plugin.
#define THREAD_MODEL NBDKIT_THREAD_MODEL_SERIALIZE_ALL_REQUESTS

namespace {

struct Server {
    std::string card_file, stats_file;
    std::vector<std::pair<std::string, std::string>> options; // in the order given
    mmc::sim::Params params;
    std::unique_ptr<mmc::sim::Card> card;
    bool join_sectors = false; // join=sectors: the SD lab's QEMU drive (sim/command_joiner.h)
    std::unique_ptr<mmc::sim::CommandJoiner> joiner;
    uint64_t start_ns = 0; // CLOCK_MONOTONIC at virtual time 0
} server;

// How faithfully the model's times were served: how late each answer left
// (the model's completion time is when it should), and how long the host
// took between an answer and its next request (the chain's round trip plus
// the client's own time: what a client measures on top of the model's).
struct Punctuality {
    uint64_t answers = 0, late_ns = 0, late_max_ns = 0, late_over_50us = 0;
    uint64_t last_answer_ns = 0, gaps = 0, gap_ns = 0;

    void arrived(uint64_t now)
    {
        if (!last_answer_ns) return;
        gaps++;
        gap_ns += now - last_answer_ns;
    }
    void answered(uint64_t due, uint64_t now)
    {
        const uint64_t late = now > due ? now - due : 0;
        answers++;
        late_ns += late;
        late_max_ns = std::max(late_max_ns, late);
        late_over_50us += late > 50'000;
        last_answer_ns = now;
    }
    nlohmann::ordered_json json() const
    {
        nlohmann::ordered_json j;
        j["answers"] = answers;
        j["late_ns_mean"] = answers ? double(late_ns) / double(answers) : 0.0;
        j["late_ns_max"] = late_max_ns;
        j["late_over_50us"] = late_over_50us;
        j["host_gap_ns_mean"] = gaps ? double(gap_ns) / double(gaps) : 0.0;
        return j;
    }
} punctuality;

uint64_t monotonic_ns()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1'000'000'000u + uint64_t(ts.tv_nsec);
}

uint64_t virtual_now()
{
    return monotonic_ns() - server.start_ns;
}

// A request's arrival on virtual time, noted for the punctuality counters.
uint64_t arrival()
{
    const uint64_t now = monotonic_ns();
    punctuality.arrived(now);
    return now - server.start_ns;
}

// Returns at virtual time `done` (at once when it has passed).
void answer_at(uint64_t done)
{
    // The default timer slack (50 us) would make every answer late by up to that much.
    thread_local bool slack_set = false;
    if (!slack_set) slack_set = prctl(PR_SET_TIMERSLACK, 1UL) == 0;
    const uint64_t at = server.start_ns + done;
    // Sleep to just before the answer is due, then spin: waking from a sleep
    // takes tens to hundreds of microseconds on a virtual machine, which
    // every answer would otherwise carry on top of the model's time.
    constexpr uint64_t spin_ns = 150'000;
    if (at > spin_ns) {
        const uint64_t wake = at - spin_ns;
        const timespec ts{time_t(wake / 1'000'000'000u), long(wake % 1'000'000'000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
        }
    }
    uint64_t now;
    while ((now = monotonic_ns()) < at) {
    }
    punctuality.answered(at, now);
}

// Written whole to a temporary file and renamed, so a reader never sees half.
void write_stats()
{
    if (server.stats_file.empty() || !server.card) return;
    nlohmann::ordered_json doc;
    doc["tool"] = "mmc-sim";
    doc["version"] = mmc::version;
    doc["card"] = mmc::sim::to_json(server.params);
    doc["counters"] = server.card->counters_json();
    doc["served"] = punctuality.json();
    const std::string tmp = server.stats_file + ".tmp";
    {
        std::ofstream out(tmp);
        out << doc.dump(2) << '\n';
        if (!out) {
            nbdkit_error("stats=%s: cannot write", server.stats_file.c_str());
            return;
        }
    }
    if (std::rename(tmp.c_str(), server.stats_file.c_str()) != 0)
        nbdkit_error("stats=%s: cannot rename into place", server.stats_file.c_str());
}

// Every callback: a model exception becomes an NBD error with its message.
// A request a worn card refused is answered when the model says, as a card
// that took its time to fail: EROFS for a write to a card that turned
// read-only (the client sees EPERM, NBD's nearest), EIO for a read error
// or a dead card.
template <typename F>
int guarded(F&& f)
{
    try {
        f();
        return 0;
    } catch (const mmc::sim::RequestFailed& e) {
        answer_at(e.done_ns);
        nbdkit_error("%s", e.what());
        nbdkit_set_error(e.kind == mmc::sim::RequestFailed::Kind::write_protected ? EROFS : EIO);
        return -1;
    } catch (const std::exception& e) {
        nbdkit_error("%s", e.what());
        nbdkit_set_error(EIO);
        return -1;
    }
}

int mmcsim_config(const char* key, const char* value)
{
    const std::string k = key;
    if (k == "card")
        server.card_file = value;
    else if (k == "stats")
        server.stats_file = value;
    else if (k == "join") {
        if (std::string(value) != "sectors" && std::string(value) != "none") {
            nbdkit_error("join=%s: expected sectors or none", value);
            return -1;
        }
        server.join_sectors = std::string(value) == "sectors";
    }
    else
        server.options.emplace_back(k, value);
    return 0;
}

int mmcsim_config_complete()
{
    try {
        auto params = mmc::sim::default_params();
        if (!server.card_file.empty()) params = mmc::simserve::load_card_file(server.card_file, params);
        for (const auto& [name, value] : server.options) mmc::sim::set_option(params, name, value);
        server.params = params;
        server.card = std::make_unique<mmc::sim::Card>(params);
        if (server.join_sectors) server.joiner = std::make_unique<mmc::sim::CommandJoiner>(*server.card);
    } catch (const std::exception& e) {
        nbdkit_error("%s", e.what());
        return -1;
    }
    server.start_ns = monotonic_ns();
    return 0;
}

void mmcsim_unload()
{
    if (server.joiner) server.joiner->settle(virtual_now());
    write_stats();
    server.card.reset();
}

void* mmcsim_open(int)
{
    return &server;
}

int64_t mmcsim_get_size(void*)
{
    return int64_t(server.card->size_bytes());
}

int mmcsim_yes(void*)
{
    return 1;
}

int mmcsim_no(void*)
{
    return 0;
}

// Reads and writes in whole 512-byte sectors as on a card; larger requests
// are welcome up to 32 MiB, and a flash page is the natural unit.
int mmcsim_block_size(void*, uint32_t* minimum, uint32_t* preferred, uint32_t* maximum)
{
    *minimum = 512;
    *preferred = server.params.page_bytes;
    *maximum = 0xffffffff;
    return 0;
}

int mmcsim_pread(void*, void* buf, uint32_t count, uint64_t offset, uint32_t)
{
    return guarded([&] {
        const std::span<uint8_t> out{static_cast<uint8_t*>(buf), count};
        const uint64_t now = arrival();
        answer_at(server.joiner ? server.joiner->read(offset, out, now) : server.card->read(offset, out, now));
    });
}

int mmcsim_pwrite(void*, const void* buf, uint32_t count, uint64_t offset, uint32_t)
{
    return guarded([&] {
        const std::span<const uint8_t> data{static_cast<const uint8_t*>(buf), count};
        const uint64_t now = arrival();
        answer_at(server.joiner ? server.joiner->write(offset, data, now) : server.card->write(offset, data, now));
    });
}

int mmcsim_trim(void*, uint32_t count, uint64_t offset, uint32_t)
{
    return guarded([&] {
        const uint64_t now = arrival();
        answer_at(server.joiner ? server.joiner->discard(offset, count, now) : server.card->discard(offset, count, now));
    });
}

// A flush also refreshes the counters file: `sync` or `blockdev --flushbufs`
// on the device is how a running test asks for them.
int mmcsim_flush(void*, uint32_t)
{
    return guarded([&] {
        const uint64_t now = arrival();
        const uint64_t done = server.joiner ? server.joiner->flush(now) : server.card->flush(now);
        write_stats(); // while the model says the card is busy anyway
        answer_at(done);
    });
}

// Filled field by field: the struct has private and legacy members a
// designated initializer would have to name.
nbdkit_plugin make_plugin()
{
    nbdkit_plugin p{};
    p.name = "mmcsim";
    p.longname = "mmckit simulated flash card";
    p.version = mmc::version;
    p.description = "An SD card with a known flash translation layer, timing and fake type (mmc-sim(1))";
    p.unload = mmcsim_unload;
    p.config = mmcsim_config;
    p.config_complete = mmcsim_config_complete;
    p.config_help = "card=FILE.json     card parameters (a preset or mmc-sim --describe -J)\n"
                    "stats=FILE         device-side counters as JSON (at each flush and at exit)\n"
                    "join=sectors       charge contiguous sector-sized requests as the multi-block\n"
                    "                   commands they were (QEMU's SD card model; scripts/sdlab --sim)\n"
                    "OPTION=VALUE       any mmc-sim card option, e.g. size=1G open-aus=2";
    p.open = mmcsim_open;
    p.get_size = mmcsim_get_size;
    p.can_write = mmcsim_yes;
    p.can_flush = mmcsim_yes;
    p.is_rotational = mmcsim_no;
    p.can_trim = mmcsim_yes;
    p.can_multi_conn = mmcsim_no;
    p.pread = mmcsim_pread;
    p.pwrite = mmcsim_pwrite;
    p.flush = mmcsim_flush;
    p.trim = mmcsim_trim;
    p.block_size = mmcsim_block_size;
    return p;
}

nbdkit_plugin plugin = make_plugin();

} // namespace

NBDKIT_REGISTER_PLUGIN(plugin)
