#!/bin/sh
# check: expect 42
# mmc-tune bus: offline plans from pasted evidence (tests/data ios dumps and
# the corpus), the "cannot trial live" sentence, hostile input for every
# pasted path, the persistent overlay compiled with dtc and applied with
# fdtoverlay to a real board's tree (tests/data/dt/rk3328-roc-cc.dtc-dtb.dts:
# `dtc -I dtb -O dts` of the Firefly roc-rk3328-cc's dtb, with its SD node's
# sd-uhs-sdr104 deleted: the device-tree-limited case), and trials on a fake
# sysfs/debugfs tree whose files take the writes: what was written, that it
# was put back, --keep and --undo, and SIGINT mid-trial with a handshake.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
T=build/bin/mmc-tune
MB=build/bin/mmc-bus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
export MMCKIT_RUN_DIR="$tmp/run"

ios() { # ios FILE CLOCK TIMING-NUMBER TIMING-TEXT VOLTAGE
    printf 'clock:\t\t%s Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\nchip select:\t0 (don'"'"'t care)\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t%s (%s)\nsignal voltage:\t%s\ndriver type:\t0 (driver type B)\n' \
        "$2" "$3" "$4" "$5" >"$1"
}
ios "$tmp/hs.ios" 50000000 2 "sd high-speed" "0 (3.30 V)"
ios "$tmp/sdr50.ios" 100000000 4 "sd uhs SDR50" "1 (1.80 V)"

# --- offline plans ----------------------------------------------------------
# A Pi 4 held at HS by sdhci.debug_quirks2=4 on its pasted command line:
# DDR50 is planned but not trialled under it, and the persistent form is the
# option removed from cmdline.txt, untested.
printf 'console=tty1 root=PARTUUID=1-02 rootwait sdhci.debug_quirks2=4\n' >"$tmp/cmdline"
run 0 $T bus -n -J --ios "$tmp/hs.ios" --dt tests/data/dt/rpi4-emmc2.dts --family sd --kernel 6.12 --cmdline "$tmp/cmdline" &&
    json_eq "Pi 4 quirk: DDR50 not trialled under it; the form is the command line's, in cmdline.txt" \
        "[p['trial'].startswith('not trialled: the kernel command line') for p in j['plan'] if p['mode'] == 'DDR50'], [(f['kind'], f['text'], 'cmdline.txt' in f['scope']) for f in j['persistent']], j['persistent_for'].startswith('DDR50 once')" \
        "[True] [('kernel-cmdline', 'remove sdhci.debug_quirks2=4\\n', True)] True"
run 0 $T bus -n -J --ios "$tmp/hs.ios" --caps 0x400f0007 --caps2 0 --kernel 6.12.9 &&
    json_eq "offline: fastest first, down to legacy; HS in use" \
        "[p['mode'] for p in j['plan']], [p['mode'] for p in j['plan'] if p['in_use']]" \
        "['SDR104', 'DDR50', 'SDR50', 'SDR25', 'HS', 'legacy'] ['HS']"
json_eq "offline: the contract's keys, a pasted dump cannot trial" \
    "j['subcommand'], j['live_trials'], j['live_trials_reason'].startswith('a pasted dump'), j['trials'], j['chosen'], j['restored']" \
    "bus False True [] None None"
json_eq "offline: SDR104's trial sets UHS_DDR50 and keeps AGGRESSIVE_PM off the plan" \
    "j['plan'][0]['caps'], j['plan'][-1]['caps']" "0x401f0007 0x40000003"
run 0 $T bus -J --ios "$tmp/hs.ios" --caps 0x400f0007 --kernel 6.1.0-27-amd64 &&
    json_eq "a 6.1 kernel: the sentence" "j['live_trials_reason']" \
        "this kernel (6.1.0-27-amd64) cannot trial modes live; 6.4 or later can"
run 0 $T bus --ios "$tmp/hs.ios" --caps 0x400f0007 --kernel 6.1.0-27-amd64 &&
    expect "a 6.1 kernel: said in the text too" "$out" "cannot trial modes live; 6.4 or later can"
printf '[    3.000000] mmc1: Data CRC error\n' >"$tmp/crc.log"
run 0 $T bus -J --ios "$tmp/sdr50.ios" --caps 0x400f0007 --kernel 6.12 --dmesg "$tmp/crc.log" &&
    json_eq "CRC errors in the log: clock steps at 3/4 and 1/2 of each mode at or above SDR50 in use" \
        "[(p['mode'], p['clock_hz']) for p in j['plan'] if p['clock_hz']]" \
        "[('SDR104', 156000000), ('SDR104', 104000000), ('DDR50', 37500000), ('DDR50', 25000000), ('SDR50', 75000000), ('SDR50', 50000000)]"

# Every dump of the copied corpus plans, as mmc-bus reads it.
corpus_ok=$($PY - "$T" "$tmp" <<'PYEOF'
import json, subprocess, sys
t, tmp = sys.argv[1], sys.argv[2]
bad = []
for i, d in enumerate(json.load(open("tests/data/ios.json"))):
    open(f"{tmp}/c.ios", "w").write(d["ios"])
    cmd = [t, "bus", "-J", "--ios", f"{tmp}/c.ios"]
    if d.get("caps"): cmd += ["--caps", d["caps"], "--caps2", d["caps2"]]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    if r.returncode not in (0, 1) or (r.returncode == 0 and "plan" not in json.loads(r.stdout)) or "Traceback" in r.stderr:
        bad.append((i, r.returncode, r.stderr[:80]))
print(bad or "ok")
PYEOF
)
if [ "$corpus_ok" = ok ]; then pass "every corpus ios dump plans (or is refused with a reason)"; else fail "corpus: $corpus_ok"; fi

# --- one brain: the issue's boards, the doctor's answer --------------------
ios "$tmp/ddr50.ios" 50000000 7 "sd uhs DDR50" "1 (1.80 V)"
ios "$tmp/sdr104-50.ios" 50000000 6 "sd uhs SDR104" "1 (1.80 V)"
printf 'clock:\t\t37500000 Hz\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n' >"$tmp/odin.ios"
printf 'clock:\t\t52000000 Hz\nactual clock:\t49152000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t8 (mmc DDR52)\nsignal voltage:\t1 (1.80 V)\n' >"$tmp/rocks0.ios"
run 0 $T bus -J --ios "$tmp/hs.ios" --dt tests/data/dt/rpi3-sdhost.dts --caps 0xc0000027 --kernel 6.12 &&
    json_eq "Raspberry Pi 3: no UHS mode planned; each ruled out with the doctor's reason; no form, and why" \
        "[p['mode'] for p in j['plan']], [r['mode'] for r in j['ruled_out']], all('BCM2835 sdhost' in r['reason'] for r in j['ruled_out']), j['persistent'], j['persistent_for'], j['persistent_none'].startswith('the doctor names the host as the limit')" \
        "['HS', 'legacy'] ['SDR104', 'DDR50', 'SDR50', 'SDR25'] True [] None True"
run 0 $T bus --ios "$tmp/hs.ios" --dt tests/data/dt/rpi3-sdhost.dts --caps 0xc0000027 --kernel 6.12 &&
    expect "Raspberry Pi 3 (text): the ruled-out modes listed" "$out" "^Ruled out \(never trialled nor kept\):"
if grep -q 'sd-uhs-\|dtoverlay=' "$out"; then fail "Raspberry Pi 3 (text): an overlay or config.txt line is still printed"; else pass "Raspberry Pi 3 (text): no overlay, no config.txt line"; fi
run 0 $T bus -J --ios "$tmp/ddr50.ios" --dt tests/data/dt/rpi4-emmc2.dts --caps 0x40170007 --kernel 6.12 &&
    json_eq "Raspberry Pi 4: DDR50 first, SDR104 ruled out by the SoC table alone" \
        "j['plan'][0]['mode'], [(r['mode'], r['by']) for r in j['ruled_out']]" "DDR50 [('SDR104', ['SoC table'])]"
run 0 $T bus -J --ios "$tmp/rocks0.ios" --dt tests/data/dt/rock-s0-emmc.dts &&
    json_eq "ROCK S0: HS400 and HS400ES ruled out (RK3308 dw_mmc stops at HS200), the form is HS200's, untested" \
        "[r['mode'] for r in j['ruled_out']], j['persistent_for'], any('hs400' in p['text'] for p in j['persistent'])" \
        "['HS400ES', 'HS400'] HS200 (untested on this card: trial it with --apply first) False"
run 0 $MB -J --ios "$tmp/rocks0.ios" --dt tests/data/dt/rock-s0-emmc.dts &&
    json_eq "ROCK S0 (mmc-bus): up to HS200, and no HS400 property suggested" \
        "any('hs400' in s for s in j['hosts'][0]['suggestions']), any('mmc-hs200-1_8v' in s for s in j['hosts'][0]['suggestions'])" "False True"
run 0 $T bus -J --ios "$tmp/sdr104-50.ios" --dt tests/data/dt/phytium-e2000q.dts &&
    json_eq "Phytium E2000: the clock raise as an overlay (max-frequency = <100000000>)" \
        "j['persistent_for'], [p['kind'] for p in j['persistent']], 'max-frequency = <100000000>;' in j['persistent'][0]['text']" \
        "SDR104 at 100 MHz (untested on this card: trial it with --apply first) ['dt-overlay'] True"
run 0 $T bus -J --ios "$tmp/odin.ios" --dt tests/data/dt/ayn-odin2-sd-before.dts &&
    json_eq "Odin 2: by its label, sd-uhs-sdr104 added, the mask and the clamp neutral in the overlay and deleted in the .dts edit" \
        "[p['kind'] for p in j['persistent']], 'target = <&sdhc_2>;' in j['persistent'][0]['text'], [x in j['persistent'][0]['text'] for x in ('sd-uhs-sdr104;', 'sdhci-caps-mask = <0x0 0x0>;', 'max-sd-hs-hz = <50000000>;')], [x in j['persistent'][1]['text'] for x in ('&sdhc_2 {', '/delete-property/ sdhci-caps-mask;', '/delete-property/ max-sd-hs-hz;')]" \
        "['dt-overlay', 'dts-edit'] True [True, True, True] [True, True, True]"
run 0 $MB --ios "$tmp/odin.ios" --dt tests/data/dt/ayn-odin2-sd-before.dts && expect "Odin 2 (mmc-bus): names sdhci-caps-mask" "$out" "sdhci-caps-mask"
run 0 $T bus -J --ios "$tmp/hs.ios" --caps 0x400f0007 --kernel 6.12 &&
    json_eq "without --dt: no form, and a sentence why" "j['persistent'], j['persistent_for'], j['persistent_none'][:38]" \
        "[] None no device tree for the host (--dt FILE"
# --emit with nothing to emit, and an untested form without --untested: exit 0, no file, the reason.
run 0 $T bus -J --ios "$tmp/hs.ios" --dt tests/data/dt/rpi3-sdhost.dts --emit "$tmp/none.dts" &&
    json_eq "--emit with nothing to emit: exit 0, persistent_not_written with its reason" \
        "j['persistent_not_written']['reason'].startswith('no persistent form: the doctor names the host')" "True"
[ -e "$tmp/none.dts" ] && fail "--emit with nothing to emit wrote a file" || pass "--emit with nothing to emit: no file"
run 0 $T bus --ios "$tmp/hs.ios" --dt tests/data/dt/rpi3-sdhost.dts --emit "$tmp/none.dts" &&
    expect "--emit with nothing to emit (text): a sentence on stderr" "$err" "^mmc-tune: --emit .*none.dts: nothing written: no persistent form"
run 0 $T bus -J --ios "$tmp/odin.ios" --dt tests/data/dt/ayn-odin2-sd-before.dts --emit "$tmp/odin.dts" &&
    json_eq "--emit of an untested form without --untested: not written, and why" \
        "j['persistent_not_written']['reason']" \
        "SDR104 is untested on this card: trial it with --apply first, or give --untested to write it anyway"
[ -e "$tmp/odin.dts" ] && fail "--emit wrote an untested form without --untested" || pass "--emit: no untested form written without --untested"
run 0 $T bus -J --ios "$tmp/odin.ios" --dt tests/data/dt/ayn-odin2-sd-before.dts --emit "$tmp/odin.dts" --untested &&
    json_eq "--emit --untested: written, no persistent_not_written" "'persistent_not_written' in j" "False"
if grep -q 'target = <&sdhc_2>;' "$tmp/odin.dts" 2>/dev/null; then pass "--emit --untested writes the overlay"; else fail "--emit --untested: no overlay in the file"; fi
run 2 $T bus --ios "$tmp/odin.ios" --untested && expect "--untested without --emit: usage" "$err" "--untested qualifies --emit"

# --- hostile input ----------------------------------------------------------
head -c 3000 /dev/urandom >"$tmp/noise"
printf 'clock:\t\t99999999999999999999999 Hz\n' >"$tmp/huge.ios"
printf '\320\015\376\355 rest' >"$tmp/blob.dtb"
run 1 $T bus --ios "$tmp/noise" && expect "noise as ios: a clear error" "$err" "^mmc-tune: .*noise"
run 1 $T bus --ios "$tmp/huge.ios" && expect "an ios value the kernel never prints: refused" "$err" "^mmc-tune: .*huge.ios"
run 1 $T bus --ios /nonexistent/ios && expect "a missing ios file" "$err" "^mmc-tune: .*/nonexistent/ios"
run 1 $T bus --ios "$tmp/hs.ios" --dt "$tmp/blob.dtb" && expect "a binary dtb as --dt: give its source" "$err" "dtc -I dtb -O dts"
run 1 $T bus --ios "$tmp/hs.ios" --dt "$tmp/noise" && expect "noise as --dt: a clear error naming --dt, not --ios" "$err" "^mmc-tune: --dt: "
run 1 $T bus --ios "$tmp/hs.ios" --dmesg /nonexistent/log && expect "a missing --dmesg file names --dmesg" "$err" "^mmc-tune: --dmesg: /nonexistent/log"
# A log of two SD hosts and a dump that names none: not read, and said; --dmesg-host picks.
printf '[ 1.0] mmc0: new high speed SDHC card at address 0001\n[ 2.0] mmc1: new ultra high speed SDR104 SDXC card at address aaaa\n[ 3.0] mmc1: Data CRC error\n' >"$tmp/two-sd.log"
run 0 $T bus -J --ios "$tmp/sdr50.ios" --caps 0x400f0007 --kernel 6.12 --dmesg "$tmp/two-sd.log" &&
    json_eq "two SD hosts in the log: not read, no clock steps, the JSON says why" \
        "[p['clock_hz'] for p in j['plan'] if p['clock_hz']], 'give --dmesg-host' in j['kernel_log_note']" "[] True"
run 0 $T bus --ios "$tmp/sdr50.ios" --caps 0x400f0007 --kernel 6.12 --dmesg "$tmp/two-sd.log" &&
    expect "two SD hosts in the log: the text says so" "$out" "^Kernel log: the kernel log names mmc0 and mmc1"
run 0 $T bus -J --ios "$tmp/sdr50.ios" --caps 0x400f0007 --kernel 6.12 --dmesg "$tmp/two-sd.log" --dmesg-host mmc1 &&
    json_eq "--dmesg-host mmc1: its CRC error calls for clock steps" "len([p for p in j['plan'] if p['clock_hz']]) > 0" "True"
run 2 $T bus --ios "$tmp/hs.ios" --dmesg-host mmc1 && expect "--dmesg-host without --dmesg: usage" "$err" "give --dmesg FILE"
run 2 $T bus --ios "$tmp/hs.ios" --caps 0xZZ && expect "--caps not hex: usage" "$err" "expected a 32-bit hex number"
run 2 $T bus --ios "$tmp/hs.ios" --kernel '6.1; rm -rf' && expect "--kernel not a version: usage" "$err" "not a kernel version"
run 2 $T bus --ios "$tmp/hs.ios" --apply && expect "--apply with a pasted dump: usage" "$err" "a pasted dump is planned only"
run 2 $T bus --apply --destructive mmc0 && expect "--destructive without its region: usage" "$err" "needs a scratch region"
run 2 $T bus --keep mmc0 && expect "--keep alone qualifies --apply" "$err" "give --apply too"
run 2 $T bus --apply --mode SDR999 mmc0 && expect "--mode of no mode: usage" "$err" "is no bus mode"

# --- the persistent overlay on a real board's tree ---------------------------
dtc -q -I dts -O dtb -o "$tmp/board.dtb" tests/data/dt/rk3328-roc-cc.dtc-dtb.dts
fdtput -d "$tmp/board.dtb" /mmc@ff500000 sd-uhs-sdr104
dtc -q -I dtb -O dts -o "$tmp/board.dts" "$tmp/board.dtb"
run 0 $T bus -J --ios "$tmp/sdr50.ios" --caps 0x40070007 --kernel 6.12 --dt "$tmp/board.dts" --dt-node mmc@ff500000 \
    --emit "$tmp/sdmmc.dts" --untested &&
    json_eq "a DT-limited board: the overlay adds sd-uhs-sdr104 on the host's node" \
        "[(p['kind'], 'sd-uhs-sdr104;' in p['text'], 'target-path = \"/mmc@ff500000\"' in p['text']) for p in j['persistent']]" \
        "[('dt-overlay', True, True)]"
if dtc -q -@ -I dts -O dtb -o "$tmp/sdmmc.dtbo" "$tmp/sdmmc.dts" 2>"$tmp/dtc.err"; then pass "the emitted overlay compiles with dtc -@"
else fail "dtc -@: $(head -3 "$tmp/dtc.err")"; fi
if fdtget "$tmp/board.dtb" /mmc@ff500000 sd-uhs-sdr104 >/dev/null 2>&1; then fail "the base tree already had sd-uhs-sdr104"
else pass "the base tree lacks sd-uhs-sdr104"; fi
if fdtoverlay -i "$tmp/board.dtb" -o "$tmp/merged.dtb" "$tmp/sdmmc.dtbo" 2>"$tmp/fo.err" &&
    fdtget "$tmp/merged.dtb" /mmc@ff500000 sd-uhs-sdr104 >/dev/null 2>&1; then
    pass "fdtoverlay applies it: the node carries sd-uhs-sdr104"
else fail "fdtoverlay: $(head -3 "$tmp/fo.err")"; fi

# --- trials on a fake tree ---------------------------------------------------
mkdir -p "$tmp/t" && cp -a tests/data/sysfs/sd-qemu/sys "$tmp/t/"
S="$tmp/t/sys" D="$S/kernel/debug/mmc0"
P="$S/devices/pci0000:00/0000:00:04.0/mmc_host/mmc0/mmc0:4567/power"
mkdir -p "$P" "$tmp/t/dev"
truncate -s 4G "$tmp/t/dev/mmcblk0"
reset_tree() {
    echo 0x4000000f >"$D/caps"; echo 0x00024000 >"$D/caps2"; echo 50000000 >"$D/clock"; chmod 0600 "$D/caps"
    echo auto >"$P/control"; echo 3000 >"$P/autosuspend_delay_ms"; echo "${1:-suspended}" >"$P/runtime_status"
}
as_started() { # the files hold what they held before the run
    [ "$(cat "$D/caps")" = 0x4000000f ] && [ "$(cat "$D/caps2")" = 0x00024000 ] && [ "$(cat "$D/clock")" = 50000000 ] &&
        [ "$(cat "$P/control")" = auto ] && [ "$(cat "$P/autosuspend_delay_ms")" = 3000 ]
}
reset_tree
run 0 $T bus -J --no-ioctl --sysfs-root "$S" mmcblk0 &&
    json_eq "a fake tree with writable caps: live trials possible, HS in use" "j['live_trials'], j['start']['mode'], j['start']['caps']" \
        "True HS 0x4000000f"
run 0 $T bus --apply --yes -J --mode HS --no-ioctl --sysfs-root "$S" mmcblk0 &&
    json_eq "--apply --mode HS: one trial, ios confirmed, data equal, clean, chosen" \
        "[(t['mode'], t['ios_confirmed'], t['data_ok'], t['verdict']) for t in j['trials']], j['chosen']['mode']" \
        "[('HS', True, True, 'clean')] HS"
json_eq "put back, as ios shows" "j['restored']['done'], j['restored']['ios_mode'], j['restored']['ios_clock_hz']" "True HS 50000000"
if as_started; then pass "caps, caps2, clock, power/control and autosuspend_delay_ms hold their start values"
else fail "not put back: caps $(cat "$D/caps") control $(cat "$P/control") delay $(cat "$P/autosuspend_delay_ms")"; fi
if [ -e "$MMCKIT_RUN_DIR/tune-bus-mmc0.json" ]; then fail "the state file is left after a clean put-back"; else pass "the state file is removed once put back"; fi
reset_tree
run 0 $T bus --apply --yes -J --mode legacy --no-ioctl --sysfs-root "$S" mmcblk0 &&
    json_eq "--mode legacy: the switch is not seen in ios: rejected with the reason, nothing chosen" \
        "[(t['mode'], t['verdict'], t['reason']) for t in j['trials']], j['chosen']" \
        "[('legacy', 'rejected', 'the switch failed: ios shows HS at 50 MHz, asked legacy')] None"
as_started && pass "after a rejected trial, the files hold their start values" || fail "not put back after a rejection"

# --keep, then --undo from the state file.
reset_tree
run 0 $T bus --apply --yes --keep -J --mode HS --no-ioctl --sysfs-root "$S" mmcblk0 &&
    json_eq "--keep: kept, not put back" "j['restored']['kept'], j['restored']['done']" "True False"
[ -f "$MMCKIT_RUN_DIR/tune-bus-mmc0.json" ] && pass "--keep leaves the state file for --undo" || fail "no state file after --keep"
echo 0x4000008b >"$D/caps"; echo on >"$P/control"; echo 25000000 >"$D/clock"
run 0 $T bus --undo --no-ioctl --sysfs-root "$S" mmcblk0 && expect "--undo: put back" "$out" "^Put back as it was: ios shows HS at 50 MHz"
[ "$(cat "$D/caps")" = 0x4000000f ] && [ "$(cat "$P/control")" = auto ] && pass "--undo wrote the start caps and power/control back" ||
    fail "--undo: caps $(cat "$D/caps") control $(cat "$P/control")"
run 1 $T bus --undo --no-ioctl --sysfs-root "$S" mmcblk0 && expect "--undo with no state file: nothing to undo" "$err" "no state file: nothing to undo"
mkdir -p "$MMCKIT_RUN_DIR" && printf '{"kind": "mmc-tune bus state", "host": "../../etc", "caps": "0x1"}' >"$MMCKIT_RUN_DIR/tune-bus-mmc0.json"
run 1 $T bus --undo --no-ioctl --sysfs-root "$S" mmcblk0 && expect "--undo: a hostile state file is refused" "$err" "tune-bus-mmc0.json: "
rm -f "$MMCKIT_RUN_DIR/tune-bus-mmc0.json"

# A kernel whose caps are read-only (before 6.4): the sentence, and --apply refused.
reset_tree; chmod 0400 "$D/caps"
run 1 $T bus --apply --yes -J --no-ioctl --sysfs-root "$S" mmcblk0 &&
    json_eq "read-only caps: no live trials, with the reason" "j['live_trials'], 'is read-only (mode 0400)' in j['live_trials_reason'], j['trials']" "False True []"
expect "read-only caps: --apply says why nothing was trialled" "$err" "no trials: .*read-only"
[ "$(cat "$D/caps")" = 0x4000000f ] && pass "read-only caps: nothing written" || fail "caps changed: $(cat "$D/caps")"

# SIGINT while the trial waits for the card to power off: the handshake is
# power/control turning "auto"; then the put-back's own wait is let through.
reset_tree active
$T bus --apply --yes -J --mode HS --no-ioctl --sysfs-root "$S" mmcblk0 >"$tmp/int.json" 2>"$tmp/int.err" &
pid=$!
i=0
while [ "$(cat "$P/control")" != auto ] || [ "$(cat "$D/caps")" = 0x4000000f ]; do
    i=$((i + 1)); [ $i -gt 300 ] && break
    sleep 0.05
done
if [ "$(cat "$D/caps")" = 0x4000008f ]; then pass "mid-trial: caps written with AGGRESSIVE_PM (0x4000008f)"; else fail "handshake: caps $(cat "$D/caps")"; fi
kill -INT $pid
echo suspended >"$P/runtime_status"
i=0
while kill -0 $pid 2>/dev/null; do i=$((i + 1)); [ $i -gt 400 ] && { kill -9 $pid; break; }; sleep 0.05; done
wait $pid; status=$?
[ $status -eq 130 ] && pass "SIGINT mid-trial: exit 130" || fail "SIGINT: exit $status: $(head -2 "$tmp/int.err")"
cp "$tmp/int.json" "$out"
json_eq "SIGINT: interrupted, put back and proven by ios" "j['interrupted'], j['restored']['done'], j['restored']['ios_mode']" "True True HS"
as_started && pass "SIGINT: every file holds its start value" || fail "SIGINT: not put back: caps $(cat "$D/caps") control $(cat "$P/control")"

finish
