#!/bin/sh
# mmc-report on what today's tools write, made afresh in every run: the
# fixtures in tests/data/report are kept as they were first captured (an
# older mmc-report output must stay readable), so they cannot show that a
# change of a tool's JSON breaks mmc-report. Here mmc-info, mmc-erase and
# mmc-bus run on the sysfs captures and a pasted ios, mmc-bench on a
# simulated card (root, loop and FUSE), and mmc-report assembles a bundle
# from their output, reads it back and stores it in a SQLite database: the
# card, the bus ceiling, the erase and the figures must come through.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
bin=build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# The lab card's ios as debugfs prints it (HS, 26 of 50 MHz, 4 bits).
printf '%s\n' "clock:		50000000 Hz" "actual clock:	26000000 Hz" "vdd:		21 (3.3 ~ 3.4 V)" \
    "bus mode:	2 (push-pull)" "chip select:	0 (don't care)" "power mode:	2 (on)" "bus width:	2 (4 bits)" \
    "timing spec:	2 (sd high-speed)" "signal voltage:	0 (3.30 V)" "driver type:	0 (driver type B)" >"$tmp/ios.txt"

for fixture in sd-qemu:mmcblk0 emmc-cm4:mmcblk1; do
    name=${fixture%%:*} dev=${fixture#*:} tree=tests/data/sysfs/${fixture%%:*}/sys
    mkdir -p "$tmp/$name"
    run 0 $bin/mmc-info -J --no-ioctl --sysfs-root "$tree" "$dev" && cp "$out" "$tmp/$name/info.json" || continue
    run 0 $bin/mmc-erase -n -J --no-ioctl --sysfs-root "$tree" "$dev" && cp "$out" "$tmp/$name/erase.json" || continue
    run 0 $bin/mmc-report --make-bundle --out "$tmp/$name/bundles" --info "$tmp/$name/info.json" --erase-json "$tmp/$name/erase.json" ||
        { fail "$name: --make-bundle from today's mmc-info and mmc-erase: $(head -3 "$err")"; continue; }
    run 0 $bin/mmc-report -J "$tmp/$name/bundles" && cp "$out" "$tmp/$name/report.json"
    $PY - "$tmp/$name" >"$out" 2>&1 <<'PY'
import json, sys
d = sys.argv[1]
info = json.load(open(d + "/info.json"))["card"]
rep = json.load(open(d + "/report.json"))
labels = [b["card"] for b in rep["bundles"]]
cards = [c for g in rep["groups"] for c in g["cards"]]
# The card's product from today's identity object names it in the report.
print(len(labels) == 1 and info["product"] in labels[0], labels == cards)
PY
    [ "$(cat "$out")" = "True True" ] && pass "$name: mmc-report reads a bundle of today's mmc-info and mmc-erase, and names the card" ||
        { fail "$name: the card's product is not in the report: $(cat "$out")"; sed 's/^/    | /' "$tmp/$name/report.json" | head -5; }
done

run 0 $bin/mmc-bus -J --ios "$tmp/ios.txt" --caps 0xc0000027 --family sd && cp "$out" "$tmp/bus.json"

# mmc-bench's JSON needs a card it can write: a simulated one.
if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/fuse ] || ! command -v nbdkit >/dev/null; then
    skip "mmc-bench on a simulated card (needs root, /dev/fuse and nbdkit)"
    finish; exit $?
fi
# shellcheck disable=SC2016
run 0 $bin/mmc-sim -p a1 --capacity 256M -- sh -c '"$0" -J --suite quick --destructive --yes --any-device --size 32M \
    --runtime 1s --warmup 0 "$MMC_SIM_DEV"' "$bin/mmc-bench" && cp "$out" "$tmp/bench.json"
run 0 $bin/mmc-report --make-bundle --out "$tmp/all" --info "$tmp/sd-qemu/info.json" --bus "$tmp/bus.json" \
    --erase-json "$tmp/sd-qemu/erase.json" --bench "$tmp/bench.json" --step "erase:ok:discarded" ||
    fail "--make-bundle from today's four tools: $(head -3 "$err")"
run 0 $bin/mmc-report -J "$tmp/all" && cp "$out" "$tmp/all.json"
$PY - "$tmp" >"$out" 2>&1 <<'PY'
import glob, json, sys
d = sys.argv[1]
bench = json.load(open(d + "/bench.json"))
b = json.load(open(glob.glob(d + "/all/*.json")[0]))
rep = json.load(open(d + "/all.json"))
res = [r for g in rep["groups"] for r in g["results"]]
seq_read = [j["mb_s"] for j in bench["jobs"] if j["rw"] == "read"][0]
print(b["bus"]["ceiling_mb_s"], len(res) == 1 and res[0]["seq_read_mb_s"] == seq_read)
PY
json_eq_out=$(cat "$out")
[ "$json_eq_out" = "13.0 True" ] && pass "a bundle of today's four tools: the bus ceiling (13 MB/s) and mmc-bench's sequential read reach the report" ||
    { fail "today's four tools in one bundle: got '$json_eq_out', expected '13.0 True'"; }
run 0 $bin/mmc-report --db "$tmp/results.sqlite" --import "$tmp/all" &&
    run 0 $bin/mmc-report -J --db "$tmp/results.sqlite" && cp "$out" "$tmp/db.json" &&
    $PY -c "import json,sys; r=lambda f: [(x['card'], x['seq_read_mb_s'], x['seq_write_mb_s']) for g in json.load(open(f))['groups'] for x in g['results']]; sys.exit(r(sys.argv[1]) != r(sys.argv[2]) or not r(sys.argv[1]))" \
        "$tmp/all.json" "$tmp/db.json" && pass "stored in SQLite and read back: the same card and figures" || fail "SQLite round trip of today's bundle"
finish
