// A buffer aligned for O_DIRECT (4096 bytes, every logical block size),
// grown on demand: the probes' one bounce buffer between a caller's span
// and a direct read or write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

namespace mmc::probe {

class AlignedBuffer {
public:
    AlignedBuffer() = default;
    ~AlignedBuffer() { std::free(data_); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;

    // At least `bytes`, aligned; the contents are not kept when it grows.
    uint8_t* get(std::size_t bytes)
    {
        if (bytes > size_) {
            std::free(data_);
            data_ = nullptr;
            void* p = nullptr;
            if (::posix_memalign(&p, 4096, bytes) != 0) throw std::runtime_error("out of memory for an I/O buffer");
            data_ = static_cast<uint8_t*>(p);
            size_ = bytes;
        }
        return data_;
    }

private:
    uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace mmc::probe
