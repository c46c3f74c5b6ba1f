#!/bin/sh
# check: expect 30
# mmc-tune rpmb on the host, no eMMC needed: usage errors, and hostile key
# and data files refused before any device is opened (a key file of the
# wrong size, an empty or odd-sized data file, a block out of range), each
# naming the file and never printing the key's bytes; an eMMC (a sysfs
# fixture) whose kernel made no RPMB device is refused by name. The protocol
# itself is tested exactly in tests/unit/rpmb_operations_test.cpp against a
# modelled device, and against QEMU's eMMC and mmc-utils in
# tests/lab/emmc-rpmb.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
T=build/bin/mmc-tune
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT
# A key of printable bytes, so that a leak would show in a message.
printf 'KEYKEYKEYKEYKEYKEYKEYKEYKEYKEY01' >"$work/key"
printf 'KEYKEYKEYKEYKEYKEYKEYKEYKEYKEY0' >"$work/short"
printf 'KEYKEYKEYKEYKEYKEYKEYKEYKEYKEY012' >"$work/long"
: >"$work/empty"
head -c 300 /dev/zero >"$work/odd"
head -c 512 /dev/zero >"$work/two-blocks"

# --- the command line ---------------------------------------------------------
run 0 $T rpmb --help && expect "--help: the synopsis" "$out" "rpmb \[options\] DEVICE"
run 0 $T --help && expect "the tool's --help lists rpmb" "$out" "^ rpmb   "
run 2 $T rpmb && expect "no DEVICE" "$err" "no DEVICE given"
run 2 $T rpmb --read-block 0 --key-file "$work/key" /dev/null &&
    expect "--read-block needs --data" "$err" "--read-block needs --data FILE"
run 2 $T rpmb --write-block 0 --key-file "$work/key" /dev/null &&
    expect "--write-block needs --data" "$err" "--write-block needs --data FILE"
run 2 $T rpmb --read-block 0 --data "$work/out" /dev/null &&
    expect "a block job needs the key file" "$err" "give --key-file FILE"
run 2 $T rpmb --data "$work/out" /dev/null && expect "--data alone" "$err" "--data names the file of"
run 2 $T rpmb --permanent /dev/null && expect "--permanent alone qualifies nothing" "$err" "--permanent qualifies --program-key"
run 2 $T rpmb --key-file "$work/key" --program-key --read-block 0 --data x /dev/null &&
    expect "two jobs at once" "$err" "one job at a time"
run 2 $T rpmb --key-file "$work/key" --read-block x --data x /dev/null &&
    expect "--read-block x: not a number" "$err" "block 'x' is not a whole number"
run 2 $T rpmb --key-file "$work/key" --read-block 0,0 --data x /dev/null &&
    expect "--read-block N,0 reads nothing" "$err" "a count of 0 blocks"
run 2 $T rpmb --key-file "$work/key" --read-block 1,2,3 --data x /dev/null &&
    expect "--read-block 1,2,3: the count is not a number" "$err" "count '2,3' is not a whole number"
run 2 $T rpmb --key-file "$work/key" --write-block 0,2 --data "$work/two-blocks" /dev/null &&
    expect "--write-block takes the first block only" "$err" "give the first block only"
hexkey=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
run 1 $T rpmb --key-file $hexkey /dev/null &&
    expect "a key typed in place of the file: refused" "$err" "the key is given in a file, never on the command line"
if grep -q "$hexkey" "$err"; then fail "the typed key was echoed back"; else pass "the typed key is not echoed back"; fi

# --- hostile files, refused before a device is opened -------------------------
# (/dev/null would be refused as a device; it is never reached.)
run 1 $T rpmb --key-file "$work/short" /dev/null &&
    expect "a 31-byte key file: its size named" "$err" "short: 31 bytes; an RPMB key file holds exactly 32 bytes"
run 1 $T rpmb --key-file "$work/long" /dev/null &&
    expect "a 33-byte key file: more than 32" "$err" "long: more than 32 bytes; an RPMB key file holds exactly 32"
run 1 $T rpmb --key-file "$work/empty" /dev/null && expect "an empty key file" "$err" "empty: 0 bytes"
run 1 $T rpmb --key-file /dev/zero /dev/null && expect "an endless key file is read no further than 33 bytes" "$err" "/dev/zero: "
run 1 $T rpmb --key-file "$work/missing" /dev/null && expect "a missing key file" "$err" "missing: "
if cat "$out" "$err" | grep -q KEYKEY; then fail "a key file's bytes were printed"; else pass "no key file's bytes in any message"; fi
run 1 $T rpmb --key-file "$work/key" --write-block 0 --data "$work/empty" /dev/null &&
    expect "an empty data file" "$err" "empty: empty; give at least one 256-byte block"
run 1 $T rpmb --key-file "$work/key" --write-block 0 --data "$work/odd" /dev/null &&
    expect "a data file of 300 bytes: not whole blocks" "$err" "odd: 300 bytes, not a multiple of 256"
run 1 $T rpmb --key-file "$work/key" --write-block 0 --data "$work/missing" /dev/null &&
    expect "a missing data file" "$err" "missing: "
run 1 $T rpmb --key-file "$work/key" --write-block 0 --data "$work/two-blocks" /dev/null &&
    expect "good files: then the device is refused (not a block device)" "$err" "/dev/null: not a block device"
run 1 $T rpmb --key-file "$work/key" /dev/mmcblk99 && expect "no such device, named as typed" "$err" "^mmc-tune: /dev/mmcblk99: no such device"

# --- an eMMC with no RPMB device --------------------------------------------
# The CM4's eMMC from its sysfs tree: this host has no /dev/mmcblk1rpmb.
if [ -e /dev/mmcblk1rpmb ]; then
    skip "this host has /dev/mmcblk1rpmb: the fixture's eMMC would find it"
else
    run 1 $T rpmb --sysfs-root tests/data/sysfs/emmc-cm4/sys mmcblk1 &&
        expect "an eMMC without its RPMB device is refused by name" "$err" "mmcblk1: no RPMB: /dev/mmcblk1rpmb does not exist"
    run 1 $T rpmb -J --sysfs-root tests/data/sysfs/emmc-cm4/sys mmcblk1 &&
        json_eq "-J: the refusal is the toolkit's error object" "j['tool'], 'no RPMB' in j['error']['message'], j['error']['exit_status']" "mmc-tune True 1"
fi
run 1 $T rpmb --sysfs-root tests/data/sysfs/sd-qemu/sys mmcblk0 && expect "an SD card has no RPMB: not an eMMC" "$err" "not an eMMC"
run 2 $T rpmb --sysfs-root tests/data/sysfs/emmc-cm4/sys mmcblk1p1 && expect "a partition: name the eMMC itself" "$err" "name the eMMC itself"
finish
