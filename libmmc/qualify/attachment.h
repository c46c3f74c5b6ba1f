// How the card is attached for one mmc-qualify run, for its bundle:
// in a USB reader's slot (the reader and its link), in an MMC host's
// slot, or another block device; and what tells the card apart where its
// CID cannot be read: the device's size in sectors and its partition
// table's identifier, read before any step writes.
#pragma once

#include "dev/resolver.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mmc::qualify {

struct Attachment {
    std::string base;                 // "USB 2.0 reader, usb-storage", "slot mmc0", "block device loop0"
    bool mmc_slot = false;            // the bus step's mode and width complete the words
    nlohmann::ordered_json reader;    // out::reader_record_json; null when not in a reader
    std::optional<uint64_t> sectors;  // the disk's 512-byte sectors
    std::string partition_table_id;   // blkid's PTUUID; "" when none
};

// Reads the partition table's identifier from the device (libblkid).
Attachment attachment_of(const dev::Device& device);

// The bundle's words: the base, and for an MMC slot the bus mode and width
// of mmc-bus's host object ("slot mmc0 SDR104 4-bit").
std::string attachment_text(const Attachment& attachment, const nlohmann::ordered_json& bus_host);

} // namespace mmc::qualify
