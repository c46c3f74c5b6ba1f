#!/bin/sh
# The persistent form of `mmc-tune bus` on a real board's device tree: the
# RockPro64 (RK3399) as Debian 12's arm64 kernel ships it
# (tests/data/dt/rk3399-rockpro64.dtb, provenance beside it), whose SD node
# names no UHS mode. The overlay the offline plan prints is compiled with
# `dtc -@`, applied to that dtb with `fdtoverlay`, and the merged node is read
# back with `fdtget`: it carries every property the overlay sets, and
# everything it had before, unchanged. Then a clock raise (Rock960), a
# removal (the Odin 2's fix on the RB5's Qualcomm node: an overlay's neutral
# values, and the .dts edit that deletes) and the Raspberry Pi 4, each on a
# tree from Debian's kernel package (tests/data/dt/README).
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
tune=build/bin/mmc-tune
dtb=tests/data/dt/rk3399-rockpro64.dtb
node=/mmc@fe320000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

for t in dtc fdtoverlay fdtget; do
    command -v $t >/dev/null 2>&1 || { skip "$t not installed (device-tree-compiler: make deps)"; finish; exit; }
done

# The fixture is the one its provenance names, and it shows the limit.
want=$(sed -n 's/^  sha256 *//p' "$dtb.source")
got=$(sha256sum "$dtb" | cut -d' ' -f1)
[ -n "$want" ] && [ "$got" = "$want" ] && pass "the dtb is Debian's, as its provenance says" || fail "dtb sha256 $got, provenance says '$want'"
props_before=$(fdtget -p "$dtb" $node | sort)
if echo "$props_before" | grep -q '^sd-uhs-'; then fail "the SD node already names a UHS mode: not a DT-limited case"
else pass "the SD node names no UHS mode (sd-uhs-*), has cap-sd-highspeed: $(echo "$props_before" | grep -c '^cap-sd-highspeed$')"; fi

# The evidence as a user would paste it: the board's tree in source form
# (mmc-bus and mmc-tune read DTS, not a .dtb), the ios of a card running at
# high speed in that slot, and the host's debugfs caps as dw_mmc builds them
# from that node (4_BIT_DATA, SD_HIGHSPEED from cap-sd-highspeed, CMD23; no
# UHS bit: the node names none).
dtc -q -I dtb -O dts -o "$tmp/board.dts" "$dtb"
printf 'clock:\t\t50000000 Hz\nactual clock:\t50000000 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\nchip select:\t0 (don'"'"'t care)\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\ndriver type:\t0 (driver type B)\n' >"$tmp/ios.txt"

evidence="--ios $tmp/ios.txt --caps 0x40000005 --dt $tmp/board.dts --dt-node mmc@fe320000 --kernel 6.1 --family sd"
# shellcheck disable=SC2086
run 0 $tune bus $evidence -n -J || cat "$err"
cp "$out" "$tmp/plan.json"
json_eq "the plan names SDR104 first, and the persistent form is for it" \
    "j['plan'][0]['mode'], j['persistent_for'].startswith('SDR104')" "SDR104 True"
json_eq "one dt-overlay in the persistent form" "[p['kind'] for p in j['persistent']].count('dt-overlay')" "1"
$PY -c "import json,sys; print(next(p['text'] for p in json.load(open(sys.argv[1]))['persistent'] if p['kind'] == 'dt-overlay'))" \
    "$tmp/plan.json" >"$tmp/tune.dtso" 2>/dev/null
expect "the overlay targets the node by path (the dtb has no __symbols__)" "$tmp/tune.dtso" '&\{/mmc@fe320000\}|target-path *= *"/mmc@fe320000"'
expect "the overlay adds sd-uhs-sdr104" "$tmp/tune.dtso" '^[[:space:]]*sd-uhs-sdr104;'
expect "and says it is for that node only" "$tmp/plan.json" '"scope": "[^"]*mmc@fe320000'
json_eq "a pasted node is not checked as a whole tree, and the report says so" \
    "j['overlay_check'][0].startswith('not checked: a pasted node is no whole tree')" "True"

# The overlay compiles, applies to the board's own dtb, and the node carries it.
if dtc -@ -q -I dts -O dtb -o "$tmp/tune.dtbo" "$tmp/tune.dtso" 2>"$tmp/dtc.err"; then pass "dtc -@ compiles the overlay"
else fail "dtc -@ refuses the overlay: $(head -3 "$tmp/dtc.err")"; fi
if fdtoverlay -i "$dtb" -o "$tmp/merged.dtb" "$tmp/tune.dtbo" 2>"$tmp/fdt.err"; then pass "fdtoverlay applies it to Debian's rk3399-rockpro64.dtb"
else fail "fdtoverlay fails: $(head -3 "$tmp/fdt.err")"; fi
if fdtget "$tmp/merged.dtb" $node sd-uhs-sdr104 >/dev/null 2>&1; then pass "the merged node carries sd-uhs-sdr104"
else fail "the merged node has no sd-uhs-sdr104: $(fdtget -p "$tmp/merged.dtb" $node 2>&1 | tr '\n' ' ')"; fi
# Every property the overlay sets (its compiled fragment's __overlay__,
# whichever source form it used) is on the node, with the overlay's value.
set_by_overlay=$(fdtget -p "$tmp/tune.dtbo" /fragment@0/__overlay__ 2>/dev/null | sort -u)
[ -n "$set_by_overlay" ] && pass "the overlay sets: $(echo $set_by_overlay)" || fail "no property in the compiled overlay's /fragment@0/__overlay__"
missing=""
for p in $set_by_overlay; do
    [ "$(fdtget -t bx "$tmp/merged.dtb" $node "$p" 2>&1)" = "$(fdtget -t bx "$tmp/tune.dtbo" /fragment@0/__overlay__ "$p" 2>&1)" ] || missing="$missing $p"
done
[ -z "$missing" ] && pass "every property the overlay sets is on the node, as set" || fail "not as the overlay set them:$missing"
# And nothing else the node had is gone or changed.
changed="" kept=0
for p in $props_before; do
    echo "$set_by_overlay" | grep -qx -- "$p" && continue
    kept=$((kept + 1))
    [ "$(fdtget -t bx "$dtb" $node "$p")" = "$(fdtget -t bx "$tmp/merged.dtb" $node "$p" 2>&1)" ] || changed="$changed $p"
done
[ -z "$changed" ] && pass "the node's $kept other properties are as Debian shipped them" || fail "changed by the overlay:$changed"

# The harness can fail: the same overlay aimed at a node this board lacks is
# refused by fdtoverlay (so a pass above means the path matched).
sed 's#/mmc@fe320000#/mmc@fe3f0000#' "$tmp/tune.dtso" >"$tmp/wrong.dtso"
dtc -@ -q -I dts -O dtb -o "$tmp/wrong.dtbo" "$tmp/wrong.dtso" 2>/dev/null
if fdtoverlay -i "$dtb" -o "$tmp/wrong.dtb" "$tmp/wrong.dtbo" 2>/dev/null; then fail "fdtoverlay accepted an overlay for a missing node"
else pass "an overlay for a node the board lacks is refused"; fi

# --emit writes the same text to a file, for an untested mode only with
# --untested; the plan changes nothing else.
# shellcheck disable=SC2086
run 0 $tune bus $evidence -n --emit "$tmp/emitted" || cat "$err"
[ -e "$tmp/emitted" ] && fail "--emit wrote an untested mode's overlay without --untested" || pass "--emit without --untested: nothing written"
# shellcheck disable=SC2086
run 0 $tune bus $evidence -n --emit "$tmp/emitted" --untested || cat "$err"
if [ -s "$tmp/emitted" ] && grep -q 'sd-uhs-sdr104;' "$tmp/emitted"; then pass "--emit --untested writes the overlay"
else fail "--emit wrote no overlay: $(head -c 300 "$tmp/emitted" 2>&1)"; fi

# apply DTB DTSO NAME: compile the overlay with dtc -@ and apply it to DTB
# with fdtoverlay into $tmp/NAME.dtb.
apply() {
    if dtc -@ -q -I dts -O dtb -o "$tmp/$3.dtbo" "$2" 2>"$tmp/$3.err"; then pass "$3: dtc -@ compiles the overlay"
    else fail "$3: dtc -@ refuses the overlay: $(head -3 "$tmp/$3.err")"; return 1; fi
    if fdtoverlay -i "$1" -o "$tmp/$3.dtb" "$tmp/$3.dtbo" 2>"$tmp/$3.err"; then pass "$3: fdtoverlay applies it to $(basename "$1")"
    else fail "$3: fdtoverlay fails: $(head -3 "$tmp/$3.err")"; return 1; fi
}
# form N KIND: the Nth persistent form of the JSON in $out, which must be of KIND, into stdout.
form() { $PY -c "import json,sys; p=json.load(open(sys.argv[1]))['persistent'][int(sys.argv[2])]; assert p['kind'] == sys.argv[3], p['kind']; print(p['text'])" "$out" "$1" "$2"; }
sha_ok() { # sha_ok FILE: as the README's provenance line says
    want=$(sed -n "s/^  $(basename "$1") .*sha256 \([0-9a-f]*\).*/\1/p" tests/data/dt/README)
    [ -n "$want" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$want" ] && pass "$(basename "$1") is Debian's, as tests/data/dt/README says" ||
        fail "$(basename "$1"): sha256 differs from tests/data/dt/README"
}

# --- a clock raise on a Rockchip board: the Rock960 (RK3399), whose SD node
# holds max-frequency at 100 MHz under sd-uhs-sdr104; the RK3399's dw_mmc runs
# 150 MHz. A card at SDR104 and 100 MHz: the doctor names the board's clock.
dtb=tests/data/dt/rk3399-rock960.dtb
sha_ok "$dtb"
dtc -q -I dtb -O dts -o "$tmp/rock960.dts" "$dtb"
printf 'clock:\t\t100000000 Hz\nactual clock:\t100000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t6 (sd uhs SDR104)\nsignal voltage:\t1 (1.80 V)\n' >"$tmp/sdr104.ios"
run 0 $tune bus -J --ios "$tmp/sdr104.ios" --dt "$tmp/rock960.dts" --dt-node mmc@fe320000 || cat "$err"
json_eq "Rock960: the form raises max-frequency to the RK3399's 150 MHz, untested" "j['persistent_for']" \
    "SDR104 at 150 MHz (untested on this card: trial it with --apply first)"
form 0 dt-overlay >"$tmp/raise.dtso" || fail "Rock960: no dt-overlay form"
[ "$(fdtget "$dtb" /mmc@fe320000 max-frequency)" = 100000000 ] && pass "Rock960: max-frequency 100000000 before" || fail "Rock960: max-frequency before: $(fdtget "$dtb" /mmc@fe320000 max-frequency)"
if apply "$dtb" "$tmp/raise.dtso" raise; then
    got=$(fdtget "$tmp/raise.dtb" /mmc@fe320000 max-frequency)
    [ "$got" = 150000000 ] && pass "Rock960: fdtget shows max-frequency changed to 150000000" || fail "Rock960: max-frequency after: $got"
fi

# --- a removal on a Qualcomm board: the Odin 2's fix (its SM8550 is not in
# Debian 6.1) on the RB5's SD node, the same sdhci-msm v5 at the same place
# (/soc@0/mmc@8804000, sdhc_2 in both boards' sources), given the two
# properties the Odin 2's board file adds, and what a tree built with dtc -@
# (as ROCKNIX's) carries for the label: its __symbols__ entry and the node's
# phandle (fdtoverlay resolves a label to it).
dtb=tests/data/dt/qrb5165-rb5.dtb
node=/soc@0/mmc@8804000
sha_ok "$dtb"
cp "$dtb" "$tmp/rb5-odin.dtb"
fdtput -t u "$tmp/rb5-odin.dtb" $node max-sd-hs-hz 37500000 && fdtput -t u "$tmp/rb5-odin.dtb" $node sdhci-caps-mask 3 0 &&
    fdtput -c "$tmp/rb5-odin.dtb" /__symbols__ && fdtput -t s "$tmp/rb5-odin.dtb" /__symbols__ sdhc_2 $node &&
    fdtput -t u "$tmp/rb5-odin.dtb" $node phandle $(($(dtc -q -I dtb -O dts "$dtb" | sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p' |
        while read -r h; do printf '%d\n' "$h"; done | sort -n | tail -1) + 1)) ||
    fail "could not give the RB5's node the Odin 2's properties"
printf 'clock:\t\t37500000 Hz\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n' >"$tmp/odin.ios"
run 0 $tune bus -J --ios "$tmp/odin.ios" --dt tests/data/dt/ayn-odin2-sd-before.dts || cat "$err"
json_eq "Odin 2: an overlay by label and a .dts edit" "[p['kind'] for p in j['persistent']]" "['dt-overlay', 'dts-edit']"
form 0 dt-overlay >"$tmp/odin.dtso" || fail "Odin 2: no dt-overlay form"
form 1 dts-edit >"$tmp/odin-edit.dtsi" || fail "Odin 2: no dts-edit form"
if apply "$tmp/rb5-odin.dtb" "$tmp/odin.dtso" odin; then
    [ "$(fdtget "$tmp/odin.dtb" $node sdhci-caps-mask)" = "0 0" ] && pass "Odin 2 overlay: fdtget shows sdhci-caps-mask changed to <0 0> (masks nothing)" ||
        fail "Odin 2 overlay: sdhci-caps-mask is $(fdtget "$tmp/odin.dtb" $node sdhci-caps-mask 2>&1)"
    [ "$(fdtget "$tmp/odin.dtb" $node max-sd-hs-hz)" = 50000000 ] && pass "Odin 2 overlay: max-sd-hs-hz changed to its default 50000000" ||
        fail "Odin 2 overlay: max-sd-hs-hz is $(fdtget "$tmp/odin.dtb" $node max-sd-hs-hz 2>&1)"
    fdtget "$tmp/odin.dtb" $node sd-uhs-sdr104 >/dev/null 2>&1 && pass "Odin 2 overlay: sd-uhs-sdr104 present" || fail "Odin 2 overlay: no sd-uhs-sdr104"
fi
# The .dts edit removes them: appended to the board's source (its label as
# the source has it), rebuilt with dtc.
dtc -q -I dtb -O dts "$tmp/rb5-odin.dtb" | sed 's/^\([[:space:]]*\)mmc@8804000 {/\1sdhc_2: mmc@8804000 {/' >"$tmp/board.dts"
cat "$tmp/odin-edit.dtsi" >>"$tmp/board.dts"
if dtc -q -I dts -O dtb -o "$tmp/edited.dtb" "$tmp/board.dts" 2>"$tmp/edit.err"; then pass "Odin 2 .dts edit: the board's source rebuilds with it"
else fail "Odin 2 .dts edit: dtc: $(head -3 "$tmp/edit.err")"; fi
for p in sdhci-caps-mask max-sd-hs-hz; do
    fdtget "$tmp/rb5-odin.dtb" $node $p >/dev/null 2>&1 || fail "the base lacks $p: the removal proves nothing"
    if fdtget "$tmp/edited.dtb" $node $p >/dev/null 2>&1; then fail "Odin 2 .dts edit: $p still there"; else pass "Odin 2 .dts edit: fdtget shows $p gone"; fi
done
fdtget "$tmp/edited.dtb" $node sd-uhs-sdr104 >/dev/null 2>&1 && pass "Odin 2 .dts edit: sd-uhs-sdr104 present" || fail "Odin 2 .dts edit: no sd-uhs-sdr104"

# --- the Raspberry Pi 4 as Debian ships its tree: SDR104 is above what the
# EMMC2 runs (DDR50), so no form offers it.
dtb=tests/data/dt/bcm2711-rpi-4-b.dtb
sha_ok "$dtb"
dtc -q -I dtb -O dts -o "$tmp/rpi4.dts" "$dtb"
printf 'clock:\t\t50000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t7 (sd uhs DDR50)\nsignal voltage:\t1 (1.80 V)\n' >"$tmp/ddr50.ios"
run 0 $tune bus -J --ios "$tmp/ddr50.ios" --dt "$tmp/rpi4.dts" --dt-node mmc@7e340000 --emit "$tmp/rpi4.dtso" --untested || cat "$err"
json_eq "Raspberry Pi 4 (Debian's tree): SDR104 ruled out by the SoC table, no form, nothing written" \
    "[(r['mode'], r['by']) for r in j['ruled_out']], j['persistent'], j['persistent_not_written']['reason'][:18]" \
    "[('SDR104', ['SoC table'])] [] no persistent form"
finish
