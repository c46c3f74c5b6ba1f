#include "rpmb_model.h"

#include <algorithm>

namespace mmc::rpmb::test {

namespace {

void sign(const Key& key, std::vector<Frame>& frames)
{
    const Mac mac = frames_mac(key, frames);
    std::copy(mac.begin(), mac.end(), frames.back().key_mac().begin());
}

} // namespace

void ModelDevice::exchange(std::vector<Transfer>& transfers)
{
    for (auto& t : transfers) {
        if (t.direction == Transfer::Direction::write) {
            sent.push_back({t.frames.empty() ? uint16_t{0} : t.frames[0].req_resp(), t.reliable, t.frames.size()});
            handle_request(t.frames, t.reliable);
        } else {
            t.frames = respond(t.frames.size());
        }
    }
}

void ModelDevice::handle_request(const std::vector<Frame>& frames, bool reliable)
{
    const Frame& first = frames.at(0);
    const uint16_t type = first.req_resp();
    if (type == static_cast<uint16_t>(Request::result_read)) return; // the result register stays
    read_request_.reset();
    Frame r;
    r.set_req_resp(static_cast<uint16_t>(type << 8));
    uint16_t outcome = result::ok;
    const bool expired = write_counter == 0xffffffff;
    if (!key && type != static_cast<uint16_t>(Request::program_key)) {
        outcome = result::key_not_programmed;
    } else if (type == static_cast<uint16_t>(Request::program_key)) {
        if (key || !reliable) {
            outcome = result::write_failure;
        } else {
            key.emplace();
            std::copy(first.key_mac().begin(), first.key_mac().end(), key->begin());
        }
    } else if (type == static_cast<uint16_t>(Request::read_counter)) {
        r.set_nonce(first.nonce());
        r.set_write_counter(write_counter);
    } else if (type == static_cast<uint16_t>(Request::authenticated_write)) {
        const std::size_t n = frames.size();
        r.set_address(first.address());
        if (!reliable || first.block_count() != n) {
            outcome = result::general_failure;
        } else if (!same_mac(frames_mac(*key, frames), frames.back().key_mac())) {
            outcome = result::authentication_failure;
        } else if (expired) {
            outcome = result::write_failure;
        } else if (first.write_counter() != write_counter) {
            outcome = result::counter_failure;
        } else if (std::size_t{first.address()} + n > blocks_.size()) {
            outcome = result::address_failure;
        } else {
            for (std::size_t i = 0; i < n; ++i)
                std::copy(frames[i].data().begin(), frames[i].data().end(), blocks_[first.address() + i].begin());
            ++write_counter;
        }
        r.set_write_counter(write_counter);
    } else if (type == static_cast<uint16_t>(Request::authenticated_read)) {
        read_request_ = first;
        return;
    } else {
        outcome = result::general_failure;
    }
    if (write_counter == 0xffffffff) outcome |= result::counter_expired;
    r.set_result(outcome);
    if (key && type != static_cast<uint16_t>(Request::program_key)) {
        std::vector<Frame> one{r};
        sign(*key, one);
        r = one[0];
    }
    result_ = r;
}

std::vector<Frame> ModelDevice::respond(std::size_t count)
{
    std::vector<Frame> out;
    if (read_request_) {
        const Frame request = *read_request_;
        read_request_.reset();
        const std::size_t at = request.address();
        const bool in_range = at + count <= blocks_.size();
        for (std::size_t i = 0; i < count; ++i) {
            Frame f;
            f.set_req_resp(response_of(Request::authenticated_read));
            f.set_nonce(request.nonce());
            f.set_address(request.address());
            f.set_block_count(static_cast<uint16_t>(count));
            f.set_result(in_range ? result::ok : result::address_failure);
            if (in_range) std::copy(blocks_[at + i].begin(), blocks_[at + i].end(), f.data().begin());
            out.push_back(f);
        }
        sign(*key, out);
    } else {
        out.assign(count, result_);
    }
    if (stale_nonce) {
        Nonce n = out.back().nonce();
        n[0] ^= 0xff;
        out.back().set_nonce(n);
        stale_nonce = false;
    }
    if (tamper_next_response) {
        out.front().data()[0] ^= 0x01;
        out.back().set_write_counter(out.back().write_counter() + 1);
        tamper_next_response = false;
    }
    return out;
}

} // namespace mmc::rpmb::test
