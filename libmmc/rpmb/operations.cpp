#include "rpmb/operations.h"

#include <cerrno>
#include <fmt/format.h>
#include <sys/random.h>
#include <system_error>

namespace mmc::rpmb {

namespace {

const char* operation_name(Request r)
{
    switch (r) {
    case Request::program_key: return "key programming";
    case Request::read_counter: return "write counter read";
    case Request::authenticated_write: return "authenticated write";
    case Request::authenticated_read: return "authenticated read";
    case Request::result_read: return "result read";
    case Request::configuration_write: return "authenticated device configuration write";
    case Request::configuration_read: return "authenticated device configuration read";
    }
    return "RPMB request";
}

Transfer write_transfer(std::vector<Frame> frames, bool reliable)
{
    return {Transfer::Direction::write, reliable, std::move(frames)};
}

Transfer read_transfer(std::size_t frames) { return {Transfer::Direction::read, false, std::vector<Frame>(frames)}; }

// A request that changes the device: the request as a reliable write, the
// result read request, and the result read back.
Frame written_and_result(Transport& device, const Frame& request)
{
    std::vector<Transfer> t;
    t.push_back(write_transfer({request}, true));
    t.push_back(write_transfer({Frame(Request::result_read)}, false));
    t.push_back(read_transfer(1));
    device.exchange(t);
    return t[2].frames[0];
}

void expect_type(const Frame& response, Request request)
{
    if (response.req_resp() != response_of(request))
        throw Error(fmt::format("{}: the device answered with message type 0x{:04x}, not 0x{:04x}", operation_name(request),
                                response.req_resp(), response_of(request)),
                    std::nullopt);
}

void expect_success(const Frame& response, Request request)
{
    if (!succeeded(response.result()))
        throw Error(fmt::format("{}: {} (result 0x{:04x})", operation_name(request), result_name(response.result()),
                                response.result()),
                    response.result());
}

void expect_mac(const Key& key, std::span<const Frame> frames, Request request)
{
    if (!same_mac(frames_mac(key, frames), frames.back().key_mac()))
        throw Error(fmt::format("{}: the response's MAC does not match the key: the wrong key, or an answer altered on the "
                                "way; nothing in it is used",
                                operation_name(request)),
                    std::nullopt);
}

void expect_nonce(const Frame& response, const Nonce& nonce, Request request)
{
    if (response.nonce() != nonce)
        throw Error(fmt::format("{}: the response does not carry the request's nonce (a replayed answer?)", operation_name(request)),
                    std::nullopt);
}

} // namespace

Nonce random_nonce()
{
    Nonce n;
    std::size_t got = 0;
    while (got < n.size()) {
        const ssize_t r = ::getrandom(n.data() + got, n.size() - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        got += static_cast<std::size_t>(r);
    }
    return n;
}

CounterReading read_counter(Transport& device, const Nonce& nonce, const Key* key)
{
    Frame request(Request::read_counter);
    request.set_nonce(nonce);
    std::vector<Transfer> t;
    t.push_back(write_transfer({request}, false));
    t.push_back(read_transfer(1));
    device.exchange(t);
    const Frame& response = t[1].frames[0];
    expect_type(response, Request::read_counter);
    CounterReading reading;
    if ((response.result() & result::code_mask) == result::key_not_programmed) return reading;
    expect_success(response, Request::read_counter);
    expect_nonce(response, nonce, Request::read_counter);
    if (key) {
        expect_mac(*key, std::span<const Frame>(&response, 1), Request::read_counter);
        reading.mac_verified = true;
    }
    reading.key_programmed = true;
    reading.write_counter = response.write_counter();
    reading.counter_expired = (response.result() & result::counter_expired) != 0;
    return reading;
}

void program_key(Transport& device, const Key& key)
{
    Frame request(Request::program_key);
    std::copy(key.begin(), key.end(), request.key_mac().begin());
    const Frame response = written_and_result(device, request);
    expect_type(response, Request::program_key);
    expect_success(response, Request::program_key);
}

uint32_t write_block(Transport& device, const Key& key, uint16_t address, std::span<const uint8_t, block_bytes> data,
                     uint32_t counter)
{
    Frame request(Request::authenticated_write);
    std::copy(data.begin(), data.end(), request.data().begin());
    request.set_write_counter(counter);
    request.set_address(address);
    request.set_block_count(1);
    const Mac mac = frames_mac(key, std::span<const Frame>(&request, 1));
    std::copy(mac.begin(), mac.end(), request.key_mac().begin());
    const Frame response = written_and_result(device, request);
    expect_type(response, Request::authenticated_write);
    expect_success(response, Request::authenticated_write);
    expect_mac(key, std::span<const Frame>(&response, 1), Request::authenticated_write);
    if (response.address() != address || response.write_counter() != counter + 1)
        throw Error(fmt::format("authenticated write: the result names block {} and counter {}, not block {} and counter {}",
                                response.address(), response.write_counter(), address, counter + 1),
                    std::nullopt);
    return response.write_counter();
}

std::vector<uint8_t> read_blocks(Transport& device, const Key& key, uint16_t address, uint16_t count,
                                 const std::function<Nonce()>& nonces)
{
    std::vector<uint8_t> data;
    data.reserve(std::size_t{count} * block_bytes);
    for (uint32_t done = 0; done < count;) {
        const auto n = static_cast<uint16_t>(std::min<uint32_t>(max_read_frames, count - done));
        const auto at = static_cast<uint16_t>(address + done);
        Frame request(Request::authenticated_read);
        const Nonce this_nonce = nonces();
        request.set_nonce(this_nonce);
        request.set_address(at);
        // The block count travels in CMD23 only; the frame's field stays 0,
        // as the kernel's and mmc-utils' requests leave it.
        std::vector<Transfer> t;
        t.push_back(write_transfer({request}, false));
        t.push_back(read_transfer(n));
        device.exchange(t);
        const auto& frames = t[1].frames;
        for (const auto& f : frames) {
            expect_type(f, Request::authenticated_read);
            expect_success(f, Request::authenticated_read);
        }
        expect_nonce(frames.back(), this_nonce, Request::authenticated_read);
        expect_mac(key, frames, Request::authenticated_read);
        if (frames.back().address() != at)
            throw Error(fmt::format("authenticated read: the response names block {}, not {}", frames.back().address(), at),
                        std::nullopt);
        for (const auto& f : frames) data.insert(data.end(), f.data().begin(), f.data().end());
        done += n;
    }
    return data;
}

} // namespace mmc::rpmb
