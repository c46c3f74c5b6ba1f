#!/bin/sh
# check: expect 600
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-bench on the emulated eMMC: the quick suite runs (read-only and with
# --destructive) and its JSON names the card and the bus correctly.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
emmc_lab emmc-bench || { finish; exit 1; }


rc "quick suite (read-only) exits 0" quick 0
cp "$res/quick.json" "$out" 2>/dev/null
json_eq "card named: mmc0:0001, MMC, QEMU!!" "j['card']['name'], j['card']['type'], j['card']['product']" "mmc0:0001 MMC QEMU!!"
json_eq "bus named: mmc0, MMC-HS at 52 MHz, 4 bits, ceiling 26 MB/s" \
    "j['bus']['host'], j['bus']['mode'], j['bus']['clock_hz'], j['bus']['bus_width'], j['bus']['ceiling_mb_s']" "mmc0 MMC-HS 52000000 4 26.0"
json_eq "read jobs measured" "all(x['ios'] > 0 for x in j['jobs'] if x['rw'] in ('read', 'randread')) and any(x['rw'] == 'read' for x in j['jobs'])" "True"
json_eq "no write job without --destructive" "any(x['rw'] in ('write', 'randwrite') for x in j['jobs'])" "False"
json_eq "not partial" "j['partial']" "False"
rc "quick suite with --destructive exits 0" quick-write 0
cp "$res/quick-write.json" "$out" 2>/dev/null
json_eq "write jobs measured" "sorted(x['rw'] for x in j['jobs'] if x['ios'] > 0)" "['randread', 'randwrite', 'read', 'write']"
finish
