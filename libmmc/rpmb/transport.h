// How RPMB frames reach a device: a sequence of transfers sent as one
// transaction (nothing else reaches the device between them), the writes
// with or without the reliable-write request. The kernel's RPMB character
// device is one transport (ioctl_transport.h); a unit test's modelled
// device is another.
#pragma once

#include "rpmb/frame.h"

#include <vector>

namespace mmc::rpmb {

struct Transfer {
    enum class Direction { write, read };
    Direction direction = Direction::write;
    bool reliable = false;     // writes: a reliable write (CMD23 bit 31)
    std::vector<Frame> frames; // a write's frames; a read's, sized by the caller and filled in
};

class Transport {
public:
    virtual ~Transport() = default;
    // Runs the transfers in order; throws when the device could not be
    // reached (a protocol-level refusal comes back in the frames).
    virtual void exchange(std::vector<Transfer>& transfers) = 0;
};

} // namespace mmc::rpmb
