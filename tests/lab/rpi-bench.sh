#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-bench's quick suite in the Raspberry Pi lab, on the Pi's own SD host:
# read-only, then with writes on a 4 MiB region. Speeds under emulation say
# nothing about a real Pi; the checks are that every job ran, moved data and
# reported its figures, and that the card is the one on sdhost-bcm2835.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/rpi-lib.sh
reason=$(rpi_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

rpi_lab rpi-bench || { finish; exit 1; }

for run in quick quick-write; do
    rpi_rc "$run: exits 0" "$run" 0
    rpi_check "$run: every job moved data in a measured time" "$run.json" \
        "len(j['jobs']) > 0 and all(x['ios'] > 0 and x['mb_s'] > 0 for x in j['jobs'])" "True"
    rpi_check "$run: the card on the Pi's host" "$run.json" "j['card']['product'], j['card']['type']" "QEMU! SD"
    rpi_check "$run: not partial" "$run.json" "j['partial']" "False"
done
rpi_check "the bus as mmc-bus reads it: mmc0, HS at 50 MHz on 4 bits, 25 MB/s" quick.json \
    "j['bus']['host'], j['bus']['mode'], j['bus']['clock_hz'], j['bus']['bus_width'], j['bus']['ceiling_mb_s']" "mmc0 HS 50000000 4 25.0"
rpi_check "read-only run: no job writes" quick.json "any(x['rw'] in ('write', 'randwrite') for x in j['jobs'])" "False"
rpi_check "destructive run: all four jobs measured" quick-write.json \
    "sorted(x['rw'] for x in j['jobs'] if x['ios'] > 0)" "['randread', 'randwrite', 'read', 'write']"

finish
