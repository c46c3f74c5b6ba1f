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
run 0 $bus -J --ios "$(ios 1)" --family sd &&
    json_eq "Pi 4 quirk: HS, 25 MB/s" "j['hosts'][0]['ios']['mode'], j['hosts'][0]['ceiling_mb_s']" "HS 25.0"
# With the Pi's command line pasted (--cmdline) and its SD node, the cause
# is the quirk: the board's boot configuration, and the advice removes it.
printf 'coherent_pool=1M 8250.nr_uarts=1 console=tty1 root=PARTUUID=1-02 rootwait sdhci.debug_quirks2=4\n' >"$tmp/cmdline.txt"
run 0 $bus -J --ios "$(ios 1)" --family sd --dt tests/data/dt/rpi4-emmc2.dts --cmdline "$tmp/cmdline.txt" &&
    json_eq "Pi 4 quirk with its command line: the board, and the fix removes the option" \
        "j['hosts'][0]['limit'], any('remove sdhci.debug_quirks2=4' in s for s in j['hosts'][0]['suggestions'])" "board True"
run 0 $bus -J --ios "$(ios 1)" --family sd --dt tests/data/dt/rpi4-emmc2.dts &&
    json_eq "... and without it, the cause stays open" "j['hosts'][0]['limit']" "unknown"
run 1 $bus --ios "$(ios 1)" --cmdline /nonexistent.txt && expect "a missing --cmdline file names --cmdline" "$err" "^mmc-bus: --cmdline: /nonexistent.txt"
# The same card in the same Pi without the quirk: DDR50.
run 0 $bus -J --ios "$(ios 0)" && json_eq "Pi 4: DDR50, 50 MB/s" "j['hosts'][0]['ios']['mode'], j['hosts'][0]['mode_ceiling_mb_s']" "DDR50 50.0"
# Runtime-suspended card: nothing can be said.
run 0 $bus -J --ios "$(ios 4)" && json_eq "powered-off snapshot" "j['hosts'][0]['limit'], j['hosts'][0]['ceiling_mb_s']" "powered off None"
# SDIO Wi-Fi is not storage.
run 0 $bus -J --ios "$(ios 2)" --family sdio && json_eq "SDIO host is not storage" "j['hosts'][0]['limit']" "not storage"
run 0 $bus -J --ios "$(ios 2)" --card sdio && json_eq "deprecated --card: still the family" "j['hosts'][0]['limit']" "not storage"
expect "deprecated --card: says so" "$err" "^mmc-bus: --card is deprecated: use --family$"
# AM62x eMMC: caps without HS200, DDR52 is the best the host offers; caps
# alone cannot tell the controller from the board's DT, and the verdict says so.
run 0 $bus -J --ios "$(ios 12)" --caps 0x4000114b --caps2 0x00860000 --kernel 5.10 &&
    json_eq "AM62x caps: host best DDR52, cause unknown until the DT tells" \
        "j['hosts'][0]['host_best_mode'], j['hosts'][0]['limit'], 'device-tree' in j['hosts'][0]['would_decide']" "DDR52 unknown True"
# Pasted with grep prefixes and spaces for tabs, two hosts in one file.
printf '/sys/kernel/debug/mmc0/ios:clock:          52000000 Hz\n/sys/kernel/debug/mmc0/ios:timing spec:    1 (mmc high-speed)\n/sys/kernel/debug/mmc0/ios:bus width:      3 (8 bits)\n/sys/kernel/debug/mmc1/ios:clock:          50000000 Hz\n/sys/kernel/debug/mmc1/ios:timing spec:    2 (sd high-speed)\n/sys/kernel/debug/mmc1/ios:bus width:      2 (4 bits)\n' > "$tmp/grep.txt"
run 0 $bus -J --ios "$tmp/grep.txt" &&
    json_eq "grep-prefixed paste: two hosts" "[(h['host'], h['ios']['mode'], h['clock_ceiling_mb_s']) for h in j['hosts']]" \
        "[('mmc0', 'MMC-HS', 52.0), ('mmc1', 'HS', 25.0)]"
run 0 $bus --ios - < "$(ios 6)" && expect "stdin, text view: max-frequency-limited Phytium runs SDR104" "$out" "Running: +SDR104"

# Device-tree evidence (--dt) in each form, with the corpus dumps whose threads state the cause.
run 0 $bus -J --ios "$(ios 3)" --dt tests/data/dt/rk3328-roc-cc.dts &&
    json_eq "RK3328 + board DTS: host (the SoC's 150 MHz), through the clock" \
        "j['hosts'][0]['limit'], j['hosts'][0]['mechanism'], j['hosts'][0]['device_tree']['vqmmc_regulator']['min_microvolt']" "host clock 1800000"
run 0 $bus -J --ios "$(ios 3)" --dt tests/data/dt/rk3328-roc-cc.dtc-fs.dts &&
    json_eq "RK3328 + dtc -I fs output: the same verdict" "j['hosts'][0]['limit'], j['hosts'][0]['device_tree']['max_frequency_hz']" "host 150000000"
run 0 $bus -J --ios "$(ios 3)" --dt tests/data/dt/rk3328-roc-cc.fs/mmc@ff500000 &&
    json_eq "RK3328 + copied node directory: the same verdict" "j['hosts'][0]['limit'], j['hosts'][0]['device_tree']['vqmmc_regulator']['name']" "host vcc_sdio"
run 0 $bus --ios "$(ios 6)" --dt tests/data/dt/phytium-e2000q.dts &&
    expect "Phytium: board, decided by the DT's max-frequency" "$out" "Decided by: +device tree mmc@28001000: max-frequency = <50000000>"
expect "Phytium: the cause line names the mechanism" "$out" "Cause: +board \(through the clock\)"
expect "Phytium: an overlay with its risk" "$out" "Try: +a device-tree overlay raising it .*watch the kernel log for CRC errors"
run 0 $bus -J --ios "$(ios 7)" --dt tests/data/dt/rock-s0-emmc.dts &&
    json_eq "ROCK S0: board (the DT names no HS200 for a controller that has it)" "j['hosts'][0]['limit'], j['hosts'][0]['mechanism']" "board mode"
printf '[    2.5] mmc0: tuning execution failed: -5\n[    2.6] mmc0: new high speed SDXC card at address aaaa\n' > "$tmp/dmesg.txt"
printf '/sys/kernel/debug/mmc0/ios:clock:\t\t50000000 Hz\n/sys/kernel/debug/mmc0/ios:timing spec:\t2 (sd high-speed)\n/sys/kernel/debug/mmc0/ios:bus width:\t2 (4 bits)\n' > "$tmp/hs.txt"
run 0 $bus -J --ios "$tmp/hs.txt" --caps 0x000f0007 --kernel 6.1 --dmesg "$tmp/dmesg.txt" &&
    json_eq "--dmesg: a tuning failure names tuning, with the log line" \
        "j['hosts'][0]['limit'], j['hosts'][0]['decided_by'][0], j['hosts'][0]['kernel_message']" \
        "tuning kernel log line 1: mmc0: tuning execution failed: -5 mmc0: new high speed SDXC card at address aaaa"
run 0 $bus -J --ios "$tmp/hs.txt" --caps 0x000f0007 --kernel 6.1 &&
    json_eq "without the log: unknown; the card's registers and the log would decide" "j['hosts'][0]['limit'], 'mmc-info' in j['hosts'][0]['would_decide'] and 'kernel log' in j['hosts'][0]['would_decide']" "unknown True"
json_eq "unknown values are null, not empty strings" \
    "[j['hosts'][0][k] for k in ('controller', 'card_best_mode', 'device_tree')], j['hosts'][0]['ios']['power'], j['hosts'][0]['ios']['driver_type']" \
    "[None, None, None] None None"
printf '/ { mmc@1 { bus-width = <4>; }; mmc@2 { bus-width = <8>; }; };\n' > "$tmp/two.dts"
run 1 $bus --ios "$tmp/hs.txt" --dt "$tmp/two.dts" && expect "--dt with two hosts asks to pick" "$err" "several MMC host nodes \(mmc@1, mmc@2\)"
run 0 $bus -J --ios "$tmp/hs.txt" --dt "$tmp/two.dts" --dt-node mmc@2 && json_eq "--dt-node picks" "j['hosts'][0]['device_tree']['bus_width']" "8"
printf '\320\015\376\355rest' > "$tmp/board.dtb"
run 1 $bus --ios "$tmp/hs.txt" --dt "$tmp/board.dtb" && expect "a .dtb is named and the fix given" "$err" "a binary device tree \(.dtb\); give its source: dtc -I dtb -O dts"
run 2 $bus --dt "$tmp/two.dts" && expect "--dt without --ios" "$err" "use them with --ios"

# Fixture trees: the lab's SD card and an eMMC board.
run 0 $bus --sysfs-root tests/data/sysfs/sd-qemu/sys -J &&
    json_eq "SD fixture: ceilings 25 and 13" "j['hosts'][0]['mode_ceiling_mb_s'], j['hosts'][0]['clock_ceiling_mb_s']" "25.0 13.0"
run 0 $bus --sysfs-root tests/data/sysfs/emmc-cm4/sys mmcblk1 && expect "eMMC fixture: HS200 and no HS400 in caps2" "$out" "no HS400"
run 0 $bus -J --sysfs-root tests/data/sysfs/emmc-cm4/sys mmcblk1 &&
    json_eq "eMMC fixture: the of_node is read; bcm2711-emmc2 has no SoC row, so unknown and what would tell" \
        "j['hosts'][0]['device_tree']['compatible'], j['hosts'][0]['limit'], 'soc_limits.cpp' in j['hosts'][0]['would_decide']" \
        "['brcm,bcm2711-emmc2'] unknown True"
run 0 $bus -J --sysfs-root tests/data/sysfs/sd-qemu/sys &&
    json_eq "SD fixture: a PCI host has no device tree; its caps decide: host" \
        "j['hosts'][0]['device_tree'], j['hosts'][0]['limit'], j['hosts'][0]['decided_by'][0].startswith('caps of a host without a device-tree node')" \
        "None host True"

# A PCI host: --pci says there is no device tree; with a card
# that can do more than the bus runs, the host limits.
printf 'clock:\t\t50000000 Hz\ntiming spec:\t2 (sd high-speed)\nbus width:\t2 (4 bits)\n' > "$tmp/nohost.txt"
run 0 $bus -J --ios "$tmp/nohost.txt" --pci=1217:8621 &&
    json_eq "--pci: no device tree, the controller's id shown" \
        "j['hosts'][0]['controller'], j['hosts'][0]['device_tree'], any('PCI controller (PCI 1217:8621)' in f['text'] for f in j['hosts'][0]['findings'])" \
        "PCI controller 1217:8621 None True"
run 2 $bus --ios "$tmp/nohost.txt" --pci=zz && expect "--pci=zz refused" "$err" "--pci=zz: expected VENDOR:DEVICE in hex"
run 2 $bus --ios "$tmp/nohost.txt" --pci --dt "$tmp/two.dts" && expect "--pci with --dt refused" "$err" "give --dt or --pci, not both"
# A dump without a host name and a log of two hosts: the one whose card line
# is the dump's kind of card (an SD card at SD high speed) is read, and the
# output says which and why.
printf '[ 1.0] mmc0: new HS200 MMC card at address 0001\n[ 2.0] mmc1: new high speed SDHC card at address aaaa\n' > "$tmp/two-hosts.txt"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/two-hosts.txt" &&
    json_eq "hostless dump, two hosts in the log: the SD host's card line" "j['hosts'][0]['kernel_message'], 'mmc1' in j['hosts'][0]['kernel_log_note']" \
        "mmc1: new high speed SDHC card at address aaaa True"
# Two SD hosts: nothing ties the dump to one; the log is not read, and says so.
printf '[ 1.0] mmc0: new high speed SDHC card at address 0001\n[ 2.0] mmc1: new ultra high speed SDR104 SDXC card at address aaaa\n[ 3.0] mmc1: tuning execution failed: -110\n' > "$tmp/two-sd.txt"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/two-sd.txt" &&
    json_eq "two SD hosts: the log is not read, and the JSON says why" \
        "j['hosts'][0]['kernel_message'], j['hosts'][0]['kernel_log_events'], 'give --dmesg-host' in j['hosts'][0]['kernel_log_note']" "None [] True"
run 0 $bus --ios "$tmp/nohost.txt" --dmesg "$tmp/two-sd.txt" &&
    expect "two SD hosts: the text says the log was not read" "$out" "Kernel log: +the kernel log names mmc0 and mmc1, and nothing in the evidence ties the dump"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/two-sd.txt" --dmesg-host mmc1 &&
    json_eq "--dmesg-host mmc1: its tuning failure is read, mmc0's card line is not" \
        "j['hosts'][0]['kernel_message'], [e['event'] for e in j['hosts'][0]['kernel_log_events']]" \
        "mmc1: new ultra high speed SDR104 SDXC card at address aaaa ['tuning failed']"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/two-sd.txt" --dmesg-host mmc0 &&
    json_eq "--dmesg-host mmc0: mmc1's tuning failure does not count" "j['hosts'][0]['kernel_log_events']" "[]"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/two-sd.txt" --dmesg-host mmc5 &&
    json_eq "--dmesg-host mmc5: a host the log does not name, said" "'not mmc5' in j['hosts'][0]['kernel_log_note'], j['hosts'][0]['kernel_message']" "True None"
run 2 $bus --ios "$tmp/nohost.txt" --dmesg "$tmp/two-sd.txt" --dmesg-host sda && expect "--dmesg-host sda refused" "$err" "--dmesg-host sda: expected a host as the kernel names it, such as mmc1"
run 2 $bus --ios "$tmp/nohost.txt" --dmesg-host mmc1 && expect "--dmesg-host without --dmesg" "$err" "--dmesg-host picks a host of --dmesg; give --dmesg FILE"
# The error lines of a failing mode, alone in a log.
printf 'mmc0: mmc_select_hs200 failed, error -84\nmmc0: error -110 whilst initialising MMC card\n' > "$tmp/hs200.txt"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/hs200.txt" &&
    json_eq "mmc_select_hs200 failed and error -110 whilst initialising are read" "[e['event'] for e in j['hosts'][0]['kernel_log_events']]" \
        "['mode switch failed', 'timeout']"
# Pastes whose line breaks were lost read as the originals.
tr '\n' ' ' < "$(ios 3)" > "$tmp/ios-joined.txt"
tr '\n' ' ' < tests/data/dt/rk3328-roc-cc.dts > "$tmp/dt-joined.dts"
tr '\n' ' ' < tests/data/dmesg/rk3399-sd-tuning.log > "$tmp/dmesg-joined.log"
run 0 $bus -J --ios "$(ios 3)" --dt tests/data/dt/rk3328-roc-cc.dts --dmesg tests/data/dmesg/rk3399-sd-tuning.log --dmesg-host mmc1 && cp "$out" "$tmp/lined.json"
run 0 $bus -J --ios "$tmp/ios-joined.txt" --dt "$tmp/dt-joined.dts" --dmesg "$tmp/dmesg-joined.log" --dmesg-host mmc1 &&
    json_eq "joined ios, DTS and dmesg: the same diagnosis and events as the originals" \
        "(lambda a, b: [a[k] == b[k] for k in ('limit', 'ios', 'kernel_log_events', 'findings')] + [{**a['device_tree'], 'source': ''} == {**b['device_tree'], 'source': ''}])(j['hosts'][0], json.load(open('$tmp/lined.json'))['hosts'][0])" \
        "[True, True, True, True, True]"
# Errors about --dt and --dmesg files name their own option.
run 1 $bus --ios "$tmp/nohost.txt" --dt /nonexistent.dts && expect "a missing --dt file names --dt" "$err" "^mmc-bus: --dt: /nonexistent.dts"
run 1 $bus --ios "$tmp/nohost.txt" --dmesg /nonexistent.log && expect "a missing --dmesg file names --dmesg" "$err" "^mmc-bus: --dmesg: /nonexistent.log"
printf '#define SPEED 150000000 / { mmc@1 { max-frequency = <SPEED>; }; };' > "$tmp/define.dts"
run 1 $bus --ios "$tmp/nohost.txt" --dt "$tmp/define.dts" && expect "a joined DTS with a #define: said, not guessed" "$err" "--dt: .*lost its line breaks and holds a #define line"
printf '[ 2.0] mmc1: new high speed SDHC card at address aaaa\n' > "$tmp/one-host.txt"
run 0 $bus -J --ios "$tmp/nohost.txt" --dmesg "$tmp/one-host.txt" &&
    json_eq "hostless dump, one host in the log: its card line" "j['hosts'][0]['kernel_message']" "mmc1: new high speed SDHC card at address aaaa"
# An SDIO function's node inside its host is no second host.
printf '/ { mmc@1 { bus-width = <4>; non-removable; wifi@1 { reg = <1>; compatible = "brcm,bcm4329-fmac"; }; sdio-wifi@2 { compatible = "marvell,sd8997-sdio"; }; }; };\n' > "$tmp/sdio-child.dts"
run 0 $bus -J --ios "$tmp/nohost.txt" --dt "$tmp/sdio-child.dts" &&
    json_eq "--dt: a host's SDIO child node is not a second host" "j['hosts'][0]['device_tree']['node']" "mmc@1"

# Bad input.
run 2 $bus --ios "$tmp/grep.txt" --caps zz && expect "bad --caps" "$err" "--caps zz: expected a 32-bit hex number"
run 2 $bus --caps 0x1 && expect "--caps without --ios" "$err" "use them with --ios"
run 2 $bus --ios "$tmp/grep.txt" --measure && expect "--measure needs a live card" "$err" "--measure needs a live card"
run 2 $bus --measure=0 && expect "--measure=0 refused" "$err" "--measure 0: expected a time above zero"
# An optional argument in the separate form is taken when it reads as a time
# (one duration syntax): "--measure 0" is that time, not a device named 0.
run 2 $bus --measure 0 && expect "--measure 0 (separate form) is the time" "$err" "--measure 0: expected a time above zero"
run 2 $bus --measure=5d && expect "--measure=5d: the duration parser's unit error" "$err" "--measure: '5d': unknown unit 'd'"
run 1 $bus --measure 5d && expect "--measure 5d: a word that is no time is the DEVICE" "$err" "mmc-bus: 5d: no such device"
run 2 $bus --ios "$tmp/grep.txt" --measure 5 && expect "--measure 5 --ios: 5 taken as the time, then --ios refused" "$err" "--measure needs a live card"
run 2 $bus --ios "$tmp/grep.txt" --measure 1.5s && expect "--measure 1.5s: a unit accepted" "$err" "--measure needs a live card"
run 1 $bus --ios /nonexistent && expect "missing --ios file" "$err" "/nonexistent: No such file"
echo "hello" > "$tmp/junk.txt"
run 1 $bus --ios "$tmp/junk.txt" && expect "a file with no ios lines" "$err" "no ios lines found"
run 1 $bus --sysfs-root tests/data/sysfs/usb-reader/sys sda && expect "USB reader named" "$err" "sda is on USB"
run 0 $bus --help && expect "--help" "$out" "--ios FILE"
# Bad input that used to crash, hang or pass as a value.
$PY -c "print('clock: ' + 'x' * 900000)" > "$tmp/long.txt"
run 1 $bus --ios "$tmp/long.txt" && expect "one very long line: a clear error, no crash" "$err" "line 1: clock 'x+' is not a clock the kernel prints"
run 1 timeout 20 $bus --ios /dev/zero && expect "--ios /dev/zero: refused at the cap" "$err" "/dev/zero: more than 1 MiB; no ios dump is that large"
run 1 timeout 20 $bus --ios - < /dev/zero && expect "stdin /dev/zero: refused at the cap" "$err" "standard input: more than 1 MiB"
run 1 timeout 20 $bus --ios "$tmp/hs.txt" --dt /dev/zero && expect "--dt /dev/zero: refused at the cap" "$err" "/dev/zero: more than 8 MiB; no device-tree source is that large"
run 1 timeout 20 $bus --ios "$tmp/hs.txt" --dmesg /dev/zero && expect "--dmesg /dev/zero: refused at the cap" "$err" "/dev/zero: more than 32 MiB; no kernel log is that large"
printf 'clock:\t\t1e400 Hz\ntiming spec:\t2 (sd high-speed)\n' > "$tmp/absurd.txt"
run 1 $bus --ios "$tmp/absurd.txt" && expect "clock 1e400 Hz rejected" "$err" "line 1: clock '1e400 Hz' is not a clock the kernel prints"
run 2 $bus --ios "$tmp/hs.txt" --kernel banana && expect "--kernel banana rejected" "$err" "--kernel banana: not a kernel version"
finish
