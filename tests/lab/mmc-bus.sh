#!/bin/sh
# mmc-bus on the lab's emulated SD card: sd high-speed at 26 MHz actual,
# 3.3 V, 4 bits; the host offers no UHS and the card lists no UHS mode.
# Ceilings must be 25 MB/s (mode) and 13 MB/s (clock); --measure gives a figure.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/sd-lib.sh
reason=$(sd_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
sd_lab mmc-bus || { finish; exit 1; }

[ "$(cat "$res/bus.rc")" = 0 ] && pass "mmc-bus exits 0" || fail "mmc-bus exit $(cat "$res/bus.rc")"
cp "$res/bus.json" "$out"
json_eq "negotiated mode: sd high-speed, 4 bits, 26 of 50 MHz, 3.3 V" \
    "(lambda i: (i['timing'], i['mode'], i['bus_width_bits'], i['actual_clock_hz'], i['clock_hz'], i['signal_voltage_v']))(j['hosts'][0]['ios'])" \
    "('sd high-speed', 'HS', 4, 26000000, 50000000, 3.3)"
json_eq "mode ceiling 25 MB/s, clock ceiling 13 MB/s" "j['hosts'][0]['mode_ceiling_mb_s'], j['hosts'][0]['clock_ceiling_mb_s'], j['hosts'][0]['ceiling_mb_s']" "25.0 13.0 13.0"
json_eq "best modes: card HS, host HS" "j['hosts'][0]['card_best_mode'], j['hosts'][0]['host_best_mode']" "HS HS"
json_eq "says the host offers no UHS" "any('host offers no UHS' in f['text'] for f in j['hosts'][0]['findings'])" "True"
json_eq "says the card has no UHS (CMD6)" "any('card reports no UHS' in f['text'] for f in j['hosts'][0]['findings'])" "True"
# QEMU does not throttle to the emulated clock, so only the figure's presence is checked.
json_eq "--measure reports a figure" "j['hosts'][0]['measured_mb_s'] > 0" "True"
json_eq "kernel's card message" "j['hosts'][0]['kernel_message']" "mmc0: new high speed SDHC card at address 4567"
# sdhci-pci on x86 has no device-tree node: the facts are the PCI
# controller's own, read without error, and they decide the cause.
json_eq "no device tree on a PCI host, and no error for it" "j['hosts'][0]['device_tree'], j['hosts'][0]['controller'].startswith('sdhci-pci (PCI ')" "None True"
# Card and host both stop at HS, so the clock decides: the controller's
# divider makes 26 MHz of 50 (its base clock), a host cause.
json_eq "cause: the host, through the clock, decided by the actual clock" \
    "j['hosts'][0]['limit'], j['hosts'][0]['mechanism'], j['hosts'][0]['decided_by']" \
    "host clock ['ios: actual clock 26 MHz for 50 MHz requested']"
json_eq "the 26 MHz clock is the controller's divider" \
    "any('the controller\'s divider' in f['text'] for f in j['hosts'][0]['findings'])" "True"
expect "text view names the cause" "$res/bus.txt" "Cause: +host"
finish
