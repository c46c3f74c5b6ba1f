#include "cli/remedy.h"

namespace mmc::cli {

std::string_view remedy_text(Remedy remedy)
{
    switch (remedy) {
    case Remedy::none: break;
    case Remedy::any_device_erase: return "use --any-device to erase it anyway";
    case Remedy::any_device_write: return "use --any-device to write to it anyway";
    case Remedy::any_device_probe: return "use --any-device to probe it anyway";
    case Remedy::any_device_measure: return "use --any-device to measure it anyway";
    case Remedy::release_device: return "unmount or release it first";
    case Remedy::zero_unaligned: return "use --zero-unaligned to zero it instead";
    case Remedy::destructive: return "add --destructive to allow it";
    case Remedy::confirm: return "add --yes to confirm on the command line";
    case Remedy::use_file: return "use --file PATH to measure a file on a mounted filesystem";
    case Remedy::give_au: return "give the AU with --au SIZE";
    }
    return {};
}

} // namespace mmc::cli
