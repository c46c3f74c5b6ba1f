#!/bin/sh
# A card in a USB card reader (issue 26), on the hand-built trees of
# tests/data/sysfs/make-usb-readers.sh: mmc-info says what it knows and why
# the registers are missing, mmc-bus names the reader's link and its ceiling,
# mmc-erase plans (--dry-run) only what the reader passes on and never
# offers an overwrite as an erase; a USB stick is still refused, an empty
# slot is named, and an rtsx_usb reader is an MMC host like any other.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
info=build/bin/mmc-info bus=build/bin/mmc-bus erase=build/bin/mmc-erase
t=tests/data/sysfs

run 0 $info --sysfs-root $t/usb2-gl827l/sys /dev/sdb &&
    expect "mmc-info: the reader named" "$out" "^sdb: SD card in a USB 2.0 reader \(Genesys Logic GL827L, usb-storage\)"
expect "mmc-info: the link" "$out" "Link: +USB 2.0 high speed, 480 Mbit/s"
expect "mmc-info: the capacity" "$out" "Capacity: +29\.7 GiB"
expect "mmc-info: why no registers, and what would read them" "$out" "Registers: +not readable through this reader.*SD slot on an MMC host.*rtsx_usb"
expect "mmc-info: the basis of the recognition" "$out" "Recognised: +USB ID 05e3:0723"
run 0 $info --sysfs-root $t/usb2-gl827l/sys && expect "mmc-info list: the reader's slot is listed" "$out" "^  /dev/sdb  sdb: SD card in a USB 2.0 reader"
run 0 $info --sysfs-root $t/usb-stick/sys -J && json_eq "mmc-info -J list: a USB stick is no reader" "len(j['readers']), len(j['cards'])" "0 0"
run 0 $info --sysfs-root $t/usb3-uas/sys -J && json_eq "mmc-info -J list: the uas reader listed" "[r['usb_id'] for r in j['readers']]" "['05e3:0749']"
run 0 $info --sysfs-root $t/usb3-uas/sys sdb -J &&
    json_eq "mmc-info -J: reader, transport, speed" "j['reader']['usb_id'], j['reader']['transport'], j['reader']['speed_mbit'], j['tool']" "05e3:0749 uas 5000.0 mmc-info"
run 0 $info --sysfs-root $t/usb2-empty/sys sdb && expect "mmc-info: an empty slot" "$out" "Capacity: +no card in the reader"
run 1 $info --sysfs-root $t/usb-stick/sys sdb && expect "mmc-info: a USB stick is no reader" "$err" "sdb is a USB disk, not a card reader"
run 0 $info --sysfs-root $t/rtsx-usb/sys mmcblk0 && expect "mmc-info: an rtsx_usb reader's card shows its registers" "$out" "CID"

run 0 $bus --sysfs-root $t/usb2-gl827l/sys sdb &&
    expect "mmc-bus: the USB 2.0 link is the limit, with the figures" "$out" "the reader's USB 2.0 link caps this card at about 40 MB/s; a UHS-I card's SDR104 bus could carry 104"
expect "mmc-bus: the raw figure and its source" "$out" "53\.25 MB/s raw \(USB 2.0 spec Table 5-10"
expect "mmc-bus: no more 'not an MMC/SD device'" "$out" "card in a USB reader"
run 0 $bus --sysfs-root $t/usb3-uas/sys sdb -J &&
    json_eq "mmc-bus -J: a USB 3 link is not the limit" "j['readers'][0]['limit'], j['readers'][0]['ceiling_mb_s'], j['readers'][0]['transport']" "the card side 500.0 uas"
run 1 $bus --sysfs-root $t/usb-stick/sys sdb && expect "mmc-bus: a USB stick still is no MMC/SD device" "$err" "not an MMC/SD device: sdb is a USB disk"

run 1 $erase --dry-run --sysfs-root $t/usb2-gl827l/sys /dev/sdb &&
    expect "mmc-erase: no discard through this reader: the clear answer" "$err" "cannot return the card to its erased state.*An overwrite does not do that either.*SD slot"
expect "mmc-erase: what the reader passes, from the kernel" "$err" "provisioning_mode full, queue/discard_max_bytes 0"
run 1 $erase --dry-run --sysfs-root $t/usb2-gl827l/sys --method discard /dev/sdb &&
    expect "mmc-erase --method discard: refused the same way" "$err" "cannot return the card to its erased state"
run 0 $erase --dry-run --sysfs-root $t/usb3-uas/sys /dev/sdb &&
    expect "mmc-erase: a reader passing UNMAP is discarded through" "$out" "provisioning_mode unmap"
expect "mmc-erase: the device named as a card in a reader" "$out" "a card in a USB 3.0 reader"
run 1 $erase --dry-run --sysfs-root $t/usb-stick/sys /dev/sdb &&
    expect "mmc-erase: a USB stick still needs --any-device" "$err" "USB disk, not a card reader.*--any-device"
run 1 $erase --dry-run --sysfs-root $t/usb2-empty/sys /dev/sdb && expect "mmc-erase: an empty slot" "$err" "no card in the reader"

finish
