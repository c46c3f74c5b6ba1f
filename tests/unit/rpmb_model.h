// A modelled RPMB device behind rpmb::Transport, for the unit tests: the
// protocol of JESD84-B51 6.6.22 kept by the model itself (key, write
// counter, blocks, the result register, every result code), so the
// operations are checked against a device of known state, and a test can
// make it misbehave (a tampered or replayed response) to see the host
// refuse the answer.
#pragma once

#include "rpmb/transport.h"

#include <optional>
#include <vector>

namespace mmc::rpmb::test {

class ModelDevice : public Transport {
public:
    explicit ModelDevice(uint16_t blocks) : blocks_(blocks, std::array<uint8_t, block_bytes>{}) {}

    void exchange(std::vector<Transfer>& transfers) override;

    // State a test reads or presets.
    std::optional<Key> key;
    uint32_t write_counter = 0;
    const std::array<uint8_t, block_bytes>& block(uint16_t n) const { return blocks_.at(n); }
    std::size_t size_blocks() const { return blocks_.size(); }

    // Misbehaviour: the next response read has a data byte (or the write
    // counter) changed after its MAC was made; or it echoes a stale nonce.
    bool tamper_next_response = false;
    bool stale_nonce = false;

    // What the host sent: each write transfer's request type and whether it
    // was a reliable write.
    struct Sent {
        uint16_t request;
        bool reliable;
        std::size_t frames;
    };
    std::vector<Sent> sent;

private:
    void handle_request(const std::vector<Frame>& frames, bool reliable);
    std::vector<Frame> respond(std::size_t count);

    std::vector<std::array<uint8_t, block_bytes>> blocks_;
    Frame result_;                    // the result register a result read returns
    std::optional<Frame> read_request_; // an authenticated read waiting for its CMD18
};

} // namespace mmc::rpmb::test
