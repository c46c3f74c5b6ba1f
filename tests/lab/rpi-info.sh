#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-info and mmc-bus in the Raspberry Pi lab (QEMU's Raspberry Pi 3B, the
# card on the Pi's own SD host, sdhost-bcm2835, arm64 tools): the card's
# identity and live registers (CID/CSD by command, the same as the kernel's
# sysfs copies), its RCA as the kernel has it; mmc-bus names the mode, the
# clock, the host's capabilities, the ceiling and the limiting side - the
# Pi's host - in a Pi user's words, and the corpus's real Pi 4 dump, read by
# the host's mmc-bus with the device tree Debian ships for that board, reads
# the same way.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/rpi-lib.sh
reason=$(rpi_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

rpi_lab rpi-info || { finish; exit 1; }

# --- the host controller: the Pi's sdhost, as the kernel bound it ----------
[ "$(cat "$res/driver")" = sdhost-bcm2835 ] && pass "the card sits on sdhost-bcm2835" ||
    fail "driver '$(cat "$res/driver" 2>/dev/null)', expected sdhost-bcm2835"
grep -qx "brcm,bcm2835-sdhost" "$res/compatible" && pass "its device-tree node is brcm,bcm2835-sdhost" ||
    fail "of_node compatible: $(tr '\n' ' ' <"$res/compatible")"

# --- mmc-info: identity, live registers, RCA -------------------------------
rpi_rc "mmc-info -J exits 0" info 0
rpi_check "an SD card named QEMU!, typed SD" info.json "j['card']['type'], j['family'], j['card']['product']" "SD sd QEMU!"
card=$(cat "$res/card")
rpi_check "the card's name is the kernel's ($card)" info.json "j['card']['name']" "$card"
rca=$(cat "$res/sysfs-rca" 2>/dev/null)
if [ -n "$rca" ]; then
    rpi_check "RCA as sysfs has it ($rca)" info.json "j['card']['rca']" "$rca"
else
    rpi_check "RCA from the card's name (${card#*:})" info.json "j['card']['rca']" "0x${card#*:}"
fi
rpi_check "CID and CSD read by command (ioctl), decoded as SD" info.json \
    "j['registers']['cid']['source'], j['registers']['csd']['source'], j['registers']['cid']['card']" "ioctl ioctl sd"
rpi_check "CID by CMD10 is the kernel's sysfs cid" info.json "j['registers']['cid']['hex']" "$(cat "$res/sysfs-cid")"
rpi_check "CSD by CMD9 is the kernel's sysfs csd" info.json "j['registers']['csd']['hex']" "$(cat "$res/sysfs-csd")"
rpi_check "controller sdhost-bcm2835" info.json "j['host_controller']['driver']" "sdhost-bcm2835"
[ "$(cat "$res/read-after.rc")" = 0 ] && pass "the card still reads after mmc-info's commands" || fail "read after mmc-info failed"
rpi_rc "listing exits 0" list 0
rpi_check "listing: the one card" list.json "[c['card']['name'] for c in j['cards']]" "['$card']"
rpi_rc "text view exits 0" info-text 0
expect "text view names the card" "$res/info.txt" "QEMU!"

# --- mmc-bus on the Pi's host ----------------------------------------------
rpi_rc "mmc-bus -J exits 0" bus 0
h="j['hosts'][0]"
rpi_check "mode: SD high speed on 4 bits at 50 MHz" bus.json \
    "$h['ios']['mode'], $h['ios']['bus_width_bits'], $h['ios']['clock_hz']" "HS 4 50000000"
grep -q "timing spec:.*(sd high-speed)" "$res/ios" && grep -q "^clock:.*50000000 Hz" "$res/ios" &&
    pass "the same as the kernel's debugfs ios" || fail "debugfs ios disagrees: $(tr '\n' ' ' <"$res/ios")"
rpi_check "ceiling 25 MB/s: mode and clock" bus.json \
    "$h['mode_ceiling_mb_s'], $h['clock_ceiling_mb_s'], $h['ceiling_mb_s']" "25.0 25.0 25.0"
caps=$(cat "$res/caps")
rpi_check "the host's caps, decoded: high speed, no UHS ($caps)" bus.json \
    "'SD_HIGHSPEED' in $h['caps'] and '4_BIT_DATA' in $h['caps'] and not any(c.startswith('UHS') for c in $h['caps'])" "True"
rpi_check "best modes: the host HS" bus.json "$h['host_best_mode']" "HS"
rpi_check "the limiting side: the host, through the mode" bus.json "$h['limit'], $h['mechanism']" "host mode"
rpi_check "the limit leads, in the Pi's words" bus.json \
    "$h['findings'][0]['severity'], $h['findings'][0]['text'].startswith(\"the Raspberry Pi's SD host (BCM2835 sdhost, sdhost-bcm2835) limits the bus to HS: it has no UHS-I mode\")" \
    "limit True"
rpi_check "it says what a user sees: about 22 MB/s of reads" bus.json "'about 22 MB/s of reads' in $h['findings'][0]['text']" "True"
rpi_check "and what helps instead" bus.json "any('no card runs faster in this slot' in s for s in $h['suggestions'])" "True"
rpi_check "decided by the SoC table's row, with its source" bus.json \
    "len($h['decided_by']) > 0 and 'drivers/mmc/host/bcm2835.c' in $h['decided_by'][0]" "True"
rpi_check "the live device tree read: brcm,bcm2835-sdhost, 4 bits" bus.json \
    "$h['device_tree']['compatible'], $h['device_tree']['bus_width']" "['brcm,bcm2835-sdhost'] 4"
rpi_rc "mmc-bus -v exits 0" bus-text 0
expect "text: the cause line names the host" "$res/bus.txt" "^  Cause: +host \\(through the mode\\)"
expect "text: the ceiling line" "$res/bus.txt" "^  Ceiling: +25 MB/s"

# --- the real Pi 4 dump reads the same way ---------------------------------
# Host-side mmc-bus over the corpus's Pi 4 ios with the device tree Debian's
# kernel ships for the Pi 4 (tests/data/dt/rpi4-emmc2.dts).
if [ -x build/bin/mmc-bus ]; then
    $PY -c "import json; print(json.load(open('tests/data/ios.json'))[0]['ios'], end='')" >"$out.ios"
    if build/bin/mmc-bus -J --ios "$out.ios" --dt tests/data/dt/rpi4-emmc2.dts >"$out.pi4" 2>"$err"; then
        pass "mmc-bus on the Pi 4 corpus dump exits 0"
    else
        fail "mmc-bus on the Pi 4 corpus dump: $(head -n 2 "$err")"
    fi
    got=$($PY - "$res/bus.json" "$out.pi4" <<'PY'
import json, re, sys
pi3 = json.load(open(sys.argv[1]))["hosts"][0]
pi4 = json.load(open(sys.argv[2]))["hosts"][0]
def shape(h):
    lead = h["findings"][0]["text"]
    m = re.match(r"(the Raspberry Pi[^(]*\([^)]*\)) limits the bus to (\S+): ", lead)
    return (h["limit"], h["mechanism"], bool(m), m.group(2) if m else None, h["ios"]["mode"], h["ceiling_mb_s"])
a, b = shape(pi3), shape(pi4)
print(a[:3] == b[:3] and a[3] == a[4] and b[3] == b[4], a, b)
PY
)
    case $got in
    True*) pass "the Pi 4 dump reads like the lab: limit, mechanism and a lead naming the Pi's host and its mode (${got#True })" ;;
    *) fail "the Pi 4 dump and the lab read differently: $got" ;;
    esac
    rm -f "$out.ios" "$out.pi4"
else
    skip "host mmc-bus not built: the Pi 4 comparison (make all)"
fi

finish
