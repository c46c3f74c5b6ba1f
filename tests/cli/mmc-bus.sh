#!/bin/sh
# mmc-bus offline (--ios) and on fixture trees: pasted dumps from real boards
# give the right mode, ceilings and limit; bad input exits 2 with a message.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
bus=build/bin/mmc-bus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
ios() { $PY -c "import json,sys; print(json.load(open('tests/data/ios.json'))[int(sys.argv[1])]['ios'], end='')" "$1" > "$tmp/$1.txt"; echo "$tmp/$1.txt"; }

# Raspberry Pi 4 booted with sdhci.debug_quirks2=4 (no 1.8 V): high speed only.
run 0 $bus -J --ios "$(ios 1)" --card sd &&
    json_eq "Pi 4 quirk: HS, 25 MB/s" "j['hosts'][0]['ios']['mode'], j['hosts'][0]['ceiling_mb_s']" "HS 25.0"
# The same card in the same Pi without the quirk: DDR50.
run 0 $bus -J --ios "$(ios 0)" && json_eq "Pi 4: DDR50, 50 MB/s" "j['hosts'][0]['ios']['mode'], j['hosts'][0]['mode_ceiling_mb_s']" "DDR50 50.0"
# Runtime-suspended card: nothing can be said.
run 0 $bus -J --ios "$(ios 4)" && json_eq "powered-off snapshot" "j['hosts'][0]['limit'], j['hosts'][0]['ceiling_mb_s']" "powered off None"
# SDIO Wi-Fi is not storage.
run 0 $bus -J --ios "$(ios 2)" --card sdio && json_eq "SDIO host is not storage" "j['hosts'][0]['limit']" "not storage"
# AM62x eMMC: caps without HS200, DDR52 is the best the host offers.
run 0 $bus -J --ios "$(ios 12)" --caps 0x4000114b --caps2 0x00860000 --kernel 5.10 &&
    json_eq "AM62x caps: host best DDR52" "j['hosts'][0]['host_best_mode'], j['hosts'][0]['limit']" "DDR52 host"
# Pasted with grep prefixes and spaces for tabs, two hosts in one file.
printf '/sys/kernel/debug/mmc0/ios:clock:          52000000 Hz\n/sys/kernel/debug/mmc0/ios:timing spec:    1 (mmc high-speed)\n/sys/kernel/debug/mmc0/ios:bus width:      3 (8 bits)\n/sys/kernel/debug/mmc1/ios:clock:          50000000 Hz\n/sys/kernel/debug/mmc1/ios:timing spec:    2 (sd high-speed)\n/sys/kernel/debug/mmc1/ios:bus width:      2 (4 bits)\n' > "$tmp/grep.txt"
run 0 $bus -J --ios "$tmp/grep.txt" &&
    json_eq "grep-prefixed paste: two hosts" "[(h['host'], h['ios']['mode'], h['clock_ceiling_mb_s']) for h in j['hosts']]" \
        "[('mmc0', 'MMC-HS', 52.0), ('mmc1', 'HS', 25.0)]"
run 0 $bus --ios - < "$(ios 6)" && expect "stdin, text view: max-frequency-limited Phytium runs SDR104" "$out" "Running: +SDR104"

# Fixture trees: the lab's SD card and an eMMC board.
run 0 $bus --sysfs-root tests/data/sysfs/sd-qemu/sys -J &&
    json_eq "SD fixture: ceilings 25 and 13" "j['hosts'][0]['mode_ceiling_mb_s'], j['hosts'][0]['clock_ceiling_mb_s']" "25.0 13.0"
run 0 $bus --sysfs-root tests/data/sysfs/emmc-cm4/sys mmcblk1 && expect "eMMC fixture: HS200 and no HS400 in caps2" "$out" "no HS400"

# Bad input.
run 2 $bus --ios "$tmp/grep.txt" --caps zz && expect "bad --caps" "$err" "--caps zz: expected a 32-bit hex number"
run 2 $bus --caps 0x1 && expect "--caps without --ios" "$err" "use them with --ios"
run 2 $bus --ios "$tmp/grep.txt" --measure && expect "--measure needs a live card" "$err" "--measure needs a live card"
run 2 $bus --measure=0 && expect "--measure=0 refused" "$err" "expected seconds"
run 1 $bus --ios /nonexistent && expect "missing --ios file" "$err" "/nonexistent: No such file"
echo "hello" > "$tmp/junk.txt"
run 1 $bus --ios "$tmp/junk.txt" && expect "a file with no ios lines" "$err" "no ios lines found"
run 1 $bus --sysfs-root tests/data/sysfs/usb-reader/sys sda && expect "USB reader named" "$err" "sda is on USB"
run 0 $bus --help && expect "--help" "$out" "--ios FILE"
finish
