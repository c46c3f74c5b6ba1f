#!/bin/sh
# A card in a USB card reader, on the hand-built trees of
# tests/data/sysfs/make-usb-readers.sh: mmc-info says what it knows and why
# the registers are missing, mmc-bus names the reader's link and its ceiling,
# mmc-erase plans (--dry-run) only what the reader passes on and never
# offers an overwrite as an erase; a USB stick is still refused, an empty
# slot is named, and an rtsx_usb reader is an MMC host like any other.
# mmc-qualify on a reader's slot: its plan skips, with the reader named, the
# steps that need the MMC host, and (as root, on a simulated card behind a
# fixture reader) its bundle records the reader; mmc-report puts the same
# card measured on the loop device and through the reader in adjacent rows.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
info=build/bin/mmc-info bus=build/bin/mmc-bus erase=build/bin/mmc-erase q=build/bin/mmc-qualify report=build/bin/mmc-report
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

# --- mmc-qualify on a reader's slot: the plan shows the skips before anything runs ---
run 0 $q -n --no-ioctl --sysfs-root $t/usb2-gl827l/sys /dev/sdb &&
    expect "mmc-qualify plan: a reader's slot needs no --any-device" "$out" "^Dry run: no step was run"
expect "mmc-qualify plan: the registers skipped, the reader named, what would read them" "$out" \
    "^ 1\. info +skipped: registers: not readable through a USB 2\.0 reader \(Genesys Logic GL827L, usb-storage\); an SD slot on an MMC host reads them$"
expect "mmc-qualify plan: health skipped the same way" "$out" "^ 3\. health +skipped: wear and writability \(registers, CMD56\): not readable through a USB 2\.0 reader"
expect "mmc-qualify plan: the bus step runs the reader doctor" "$out" "^ 2\. bus +diagnoses the reader's USB link and its ceiling"
expect "mmc-qualify plan: the block-level steps run" "$out" "^ 4\. geometry +mmc-probe geometry"
run 0 $q -n -J --destructive --no-ioctl --sysfs-root $t/usb3-uas/sys /dev/sdb &&
    json_eq "mmc-qualify plan -J: which steps are skipped" "[s['name'] for s in j['plan']['steps'] if s['skipped']], j['refused']" "['info', 'health'] None"
json_eq "mmc-qualify plan -J: erase and capacity run through a reader" "[s['name'] for s in j['plan']['steps'] if not s['skipped']]" \
    "['bus', 'geometry', 'erase', 'capacity', 'bench-quick', 'bench-iozone', 'bench-a1', 'bench-state']"
run 1 $q -n --no-ioctl --sysfs-root $t/usb-stick/sys /dev/sdb &&
    expect "mmc-qualify: a USB stick is still refused without --any-device" "$err" "USB disk, not a card reader.*--any-device"
run 1 $q -n --no-ioctl --sysfs-root $t/usb2-empty/sys /dev/sdb && expect "mmc-qualify: an empty slot" "$err" "no card in the reader"

# --- The same simulated card on the loop device and through a reader (root, nbdkit, nbdfuse, loop) ---
if [ "$(id -u)" -ne 0 ] || ! command -v nbdfuse >/dev/null || ! command -v nbdkit >/dev/null ||
    [ ! -e /dev/loop-control ] || [ ! -e /dev/fuse ]; then
    skip "one card on a loop device and in a reader (needs root, /dev/loop-control, /dev/fuse, nbdkit and nbdfuse)"
    finish; exit
fi
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT
export PATH="$PWD/build/bin:$PATH"
# One mmc-sim session, two runs: the card gets an MBR with disk identifier
# 12345678, then mmc-qualify measures it on its loop device (--any-device),
# then through a copy of the GL827L tree whose /sys/dev/block entry for the
# loop device's number is the reader's disk, sized as the loop device: the
# tools resolve the node through the fixture (dev/resolver.h) and read the
# simulated card through the kernel's loop device.
run 0 build/bin/mmc-sim -p class10-2015 --capacity 256M -- sh -c '
    set -e
    printf "\170\126\064\022" | dd of="$MMC_SIM_DEV" bs=1 seek=440 conv=notrunc 2>/dev/null
    printf "\125\252" | dd of="$MMC_SIM_DEV" bs=1 seek=510 conv=notrunc 2>/dev/null
    sync
    qualify() { mmc-qualify -J --runtime 0.5s --suite quick --host-label host "$@" "$MMC_SIM_DEV"; }
    qualify --any-device --out "$0/loop" > "$0/loop.json" 2> "$0/loop.err" || true
    cp -r tests/data/sysfs/usb2-gl827l "$0/rdr"
    blk=$(basename "$MMC_SIM_DEV")
    disk=devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb
    ln -s "../../$disk" "$0/rdr/sys/dev/block/$(cat /sys/class/block/$blk/dev)"
    cat /sys/class/block/$blk/size > "$0/rdr/sys/$disk/size"
    qualify --no-ioctl --sysfs-root "$0/rdr/sys" --out "$0/reader" > "$0/reader.json" 2> "$0/reader.err" || true
' "$work"
pyjson() { $PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>&1; }
want() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', expected '$3'"; fi; }
want "qualify through the reader: info and health skipped with the reader named, the rest ran" \
    "$(pyjson "$work/reader.json" "[(s['name'], s['state']) for s in j['steps']], 'USB 2.0 reader (Genesys Logic GL827L' in j['steps'][0]['message']")" \
    "[('info', 'skipped'), ('bus', 'ok'), ('health', 'skipped'), ('geometry', 'ok'), ('bench-quick', 'ok')] True"
loop_bundle=$(pyjson "$work/loop.json" "j['bundle']") reader_bundle=$(pyjson "$work/reader.json" "j['bundle']")
if [ -f "$loop_bundle" ] && [ -f "$reader_bundle" ]; then
    want "reader bundle: the reader, its link and ceiling, with the source" \
        "$(pyjson "$reader_bundle" "j['attachment'], j['reader']['chip'], j['reader']['usb_id'], j['reader']['driver'], j['reader']['speed_mbit'], j['reader']['ceiling_mb_s'], bool(j['reader']['ceiling_source'])")" \
        "USB 2.0 reader, usb-storage Genesys Logic GL827L 05e3:0723 usb-storage 480.0 40.0 True"
    want "reader bundle: the bus step is the reader doctor's" "$(pyjson "$reader_bundle" "j['steps'][1]['ok']")" "True"
    want "loop bundle: no reader, a block device" "$(pyjson "$loop_bundle" "j['attachment'].startswith('block device loop'), j['reader']")" "True None"
    want "both bundles: the card's sectors and disk identifier" \
        "$(pyjson "$reader_bundle" "j['card']['sectors'], j['card']['partition_table_id']") $(pyjson "$loop_bundle" "j['card']['sectors'], j['card']['partition_table_id']")" \
        "524288 12345678 524288 12345678"
    run 0 $report "$loop_bundle" "$reader_bundle" &&
        expect "mmc-report: the loop device's row, with its attachment" "$out" "^  [^ ].* @ host +block device loop[0-9]+ " &&
        want "mmc-report: the two rows adjacent, loop then reader, in the random I/O table" \
            "$(grep -A2 'Card @ host' "$out" | head -3 | sed -n '2,3s/.*\(block device\|USB 2.0 reader\).*/\1/p' | tr '\n' ,)" "block device,USB 2.0 reader,"
    run 0 $report -J "$loop_bundle" "$reader_bundle" &&
        json_eq "mmc-report -J: adjacent results rows, one card, their attachments" \
            "[(r['card'].split(' (')[0], r['attachment'].split(' loop')[0]) for r in j['groups'][0]['results']], len(j['groups'][0]['cards'])" \
            "[('256MB', 'block device'), ('256MB', 'USB 2.0 reader, usb-storage')] 2"
    json_eq "mmc-report -J: the reader's row names its reader" "j['groups'][0]['results'][1]['reader']['chip']" "Genesys Logic GL827L"
    run 0 $report --csv "$loop_bundle" "$reader_bundle" &&
        want "mmc-report --csv: the attachment column, rows adjacent" \
            "$($PY -c "import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1])) if x['table'] == 'results']; print([x['attachment'].split(' loop')[0] for x in r])" "$out")" \
            "['block device', 'USB 2.0 reader, usb-storage']"
else
    fail "no bundles ($loop_bundle, $reader_bundle)"; sed 's/^/    | /' "$work/loop.err" "$work/reader.err" | tail -8
fi

finish
