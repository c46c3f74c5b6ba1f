#!/bin/sh
# The persistent form of `mmc-tune bus` on a real board's device tree: the
# RockPro64 (RK3399) as Debian 12's arm64 kernel ships it
# (tests/data/dt/rk3399-rockpro64.dtb, provenance beside it), whose SD node
# names no UHS mode. The overlay the offline plan prints is compiled with
# `dtc -@`, applied to that dtb with `fdtoverlay`, and the merged node is read
# back with `fdtget`: it carries every property the overlay sets, and
# everything it had before, unchanged.
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

# --emit writes the same text to a file; the plan changes nothing else.
# shellcheck disable=SC2086
run 0 $tune bus $evidence -n --emit "$tmp/emitted" || cat "$err"
if [ -s "$tmp/emitted" ] && grep -q 'sd-uhs-sdr104;' "$tmp/emitted"; then pass "--emit writes the overlay"
else fail "--emit wrote no overlay: $(head -c 300 "$tmp/emitted" 2>&1)"; fi
finish
