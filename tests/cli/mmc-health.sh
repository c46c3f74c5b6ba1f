#!/bin/sh
# mmc-health from the command line: --decode, --from and the --save-raw round
# trip, the fixture trees, hostile input, exit statuses, and the Prometheus
# file checked by promtool.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
health=build/bin/mmc-health
data=tests/data/health
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --from: each fixture's verdict and exit status (README.md gives provenance).
verdict_of() { # FIXTURE STATUS VERDICT
    run "$2" $health -J --from "$data/$1" && json_eq "$1: $3, exit $2" "j['verdict'], j['cards'][0]['verdict']" "$3 $3"
}
verdict_of emmc-cm4.json 0 healthy
verdict_of sandisk-worn.json 3 worn
verdict_of emmc-pre-eol-urgent.json 4 end_of_life
verdict_of sd-switch-on.json 5 read_only
verdict_of emmc-rev6.json 6 unknown
verdict_of all-ff.json 6 unknown
verdict_of all-00.json 6 unknown
verdict_of mbr-ld-card.json 6 unknown
verdict_of two-step-kingston-sdce.json 0 healthy
verdict_of adata-iudd33k.json 0 healthy
verdict_of transcend-230i.json 0 healthy

run 0 $health -J --from $data/two-step-kingston-sdce.json &&
    json_eq "published SDCE figures come back (sdmon issue 30)" \
        "*[j['cards'][0]['wear'][0][k] for k in ('source', 'power_cycles')], j['cards'][0]['wear'][0]['bad_blocks']['factory'], j['cards'][0]['wear'][0]['erase_count']['total'], j['cards'][0]['wear'][0]['fields']['good_block_rate_percent']" \
        "cmd56:two_step 16 24 66 99.81"
run 0 $health -J --from $data/adata-iudd33k.json &&
    json_eq "published IUDD33K figures come back (sdmon PR 22)" \
        "*[j['cards'][0]['wear'][0][k] for k in ('rated_erase_cycles', 'power_cycles')], *[j['cards'][0]['wear'][0]['fields'][k] for k in ('raw_card_capacity_mb', 'controller')]" \
        "30 8 60351 SM2706"
run 6 $health -J --from $data/mbr-ld-card.json &&
    json_eq "boot code is no health data, never decoded" "j['cards'][0]['wear'], 'MBR' in j['cards'][0]['no_health_data'][0]['why']" "[] True"
run 6 $health --from $data/all-ff.json && expect "a block of 0xff is said to be one" "$out" "cmd56:sandisk +the card answered with a block of 0xff bytes"
run 5 $health --from $data/sd-switch-on.json
first=$(head -n1 "$out")
case $first in
*read-only*"write-protect switch"*) pass "the verdict and its reason are on the first line: $first" ;;
*) fail "first line: $first" ;;
esac
expect "the remedy is given" "$out" "what to do: slide the lock switch"
# A text field the block leaves blank is said to be blank, never an empty
# value: "Product" and "Manufactured" here.
expect "a blank field says so" "$out" "^      Product +none \(blank in the block\)$"
# (a field line is six spaces, the label padded to 26, a space, the value)
if grep -qE '^      .{26} ?$' "$out"; then fail "a value left blank: '$(grep -E '^      .{26} ?$' "$out" | head -n1)'"
else pass "no value left blank"; fi
run 5 $health -J --from $data/sd-switch-on.json &&
    json_eq "the switch is a host_switch reason of the whole card, not permanent" \
        "*[j['cards'][0]['writability']['reasons'][0][k] for k in ('cause', 'scope', 'permanent')], j['cards'][0]['writability']['writable']" \
        "host_switch card False False"

# --save-raw then --from gives the same answer.
run 3 $health -J --from $data/sandisk-worn.json --save-raw "$work/raw.json" && cp "$out" "$work/first.json"
run 3 $health -J --from "$work/raw.json"
if cmp -s "$out" "$work/first.json"; then pass "--save-raw then --from: the same JSON"; else fail "--save-raw round trip differs"; fi
json_eq "the raw file keeps the CID" "json.load(open('$work/raw.json'))['cards'][0]['registers']['cid']" "035344534336344780ffffffff0172a3"

# --decode: registers and blocks as pasted.
ext=$(python3 -c "import json; print(json.load(open('$data/emmc-cm4.json'))['cards'][0]['registers']['ext_csd'])")
run 0 $health -J --decode "ext_csd=$ext" && json_eq "--decode ext_csd: an MMC card, life used 10%" \
    "j['cards'][0]['wear'][0]['source'], j['cards'][0]['wear'][0]['life_used_percent']" "ext_csd 10.0"
run 0 $health -J --family mmc --decode "ext_csd=$ext" && json_eq "--family mmc: the same card" "j['cards'][0]['wear'][0]['life_used_percent']" "10.0"
run 0 $health -J --card mmc --decode "ext_csd=$ext" && json_eq "deprecated --card: still the family" "j['cards'][0]['wear'][0]['life_used_percent']" "10.0"
expect "deprecated --card: says so" "$err" "^mmc-health: --card is deprecated: use --family$"
run 2 $health --family xd --decode "ext_csd=$ext" && expect "a bad --family is named" "$err" "--family xd: expected sd or mmc"
sandisk_block=$(python3 -c "import json; print(json.load(open('$data/sandisk-worn.json'))['cards'][0]['cmd56'][0]['blocks'][0]['hex'])")
printf '%s\n' "$sandisk_block" >"$work/block.hex"
run 3 $health --decode cid=035344534336344780ffffffff0172a3 --decode "cmd56=@$work/block.hex" &&
    expect "--decode cid + cmd56: the CID names the layout" "$out" "worn - life used 85% \(cmd56:sandisk\)"
run 3 $health --layout sandisk --decode "cmd56=@$work/block.hex" && expect "--layout names it without a CID" "$out" "^input: worn"
run 6 $health --layout adata --decode "cmd56=@$work/block.hex" && expect "the wrong layout is refused by its signature" "$out" "cmd56:adata +the block does not start"
run 2 $health --decode "cmd56=@$work/block.hex" && expect "a block without a layout or CID" "$err" "name the layout with --layout NAME, or give the card's CID"
run 2 $health --layout sandisk --decode "cmd56=@$work/block.hex" --decode "cmd56=@$work/block.hex" &&
    expect "more blocks than the layout reads" "$err" "layout sandisk reads 1 block\(s\), 2 given"
run 2 $health --layout samsung_cmd62 && expect "unknown layout lists the known ones" "$err" "expected sandisk, longsys, innodisk, adata, transcend, micron_sd, swissbit, two_step or micron_emmc"
run 2 $health --decode foo=00 && expect "unknown kind" "$err" "unknown kind 'foo'"
run 2 $health --decode cid=0353 && expect "short CID" "$err" "cid: expected 16 bytes"
run 2 $health --from x --decode cid=00 && expect "--from and --decode together" "$err" "one of them"

# Hostile --from files: a clear answer, never a crash.
head -c 200 $data/sandisk-worn.json >"$work/truncated.json"
run 1 $health --from "$work/truncated.json" && expect "truncated file" "$err" "truncated.json: not JSON"
head -c 2000000 /dev/zero | tr '\0' ' ' >"$work/big.json"
run 1 $health --from "$work/big.json" && expect "oversized file" "$err" "more than 1 MiB"
head -c 4096 /dev/urandom >"$work/random.json"
run 1 $health --from "$work/random.json" && expect "random bytes" "$err" "random.json: not JSON"
run 1 $health --from /nonexistent/raw.json && expect "missing file: named with its option" "$err" "^mmc-health: --from: /nonexistent/raw.json: "
python3 - "$data/sandisk-worn.json" "$work/long-block.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cards"][0]["cmd56"][0]["blocks"][0]["hex"] *= 8
json.dump(d, open(sys.argv[2], "w"))
PY
run 6 $health --from "$work/long-block.json" && expect "an oversized block is no health data" "$out" "the block is 4096 bytes, not 512"
printf '{"format":"mmckit-health-raw","format_version":1,"cards":[{"name":"x","family":"sd","registers":{"csd":"zz"}}]}' >"$work/badhex.json"
run 1 $health --from "$work/badhex.json" && expect "bad hex names where" "$err" "/cards/0/registers/csd"

# The fixture trees (no card commands there): sysfs and debugfs only.
run 0 $health --sysfs-root tests/data/sysfs/emmc-cm4/sys && expect "CM4 eMMC: healthy from its EXT_CSD" "$out" "^mmc1:0001 \(/dev/mmcblk1\): healthy"
run 6 $health --sysfs-root tests/data/sysfs/sd-qemu/sys mmcblk0 &&
    expect "QEMU's SD card: unknown, and why" "$out" "no health data known for this card \(MID 0xaa, OID \"XY\"\)"
expect "the hint names --layout" "$err" "--layout NAME tries a vendor layout on purpose"
run 1 $health --sysfs-root tests/data/sysfs/usb-reader/sys sda && expect "a USB reader's disk is refused" "$err" "sda"

# Several cards: the worst verdict is the exit status.
python3 - "$data" "$work/two.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1] + "/emmc-cm4.json"))
b = json.load(open(sys.argv[1] + "/emmc-pre-eol-urgent.json"))
a["cards"] += b["cards"]
json.dump(a, open(sys.argv[2], "w"))
PY
run 4 $health -J --from "$work/two.json" && json_eq "two cards: the worst decides" "j['verdict'], len(j['cards'])" "end_of_life 2"

# Prometheus: written atomically, checked by promtool.
run 4 $health --from "$work/two.json" --prometheus "$work/mmc.prom" && expect "the metrics file has the verdict" "$work/mmc.prom" 'mmc_health_verdict\{card="mmc1:0001",verdict="end_of_life"\} 1'
if grep -q '=""' "$work/mmc.prom"; then fail "--from: an empty label: $(grep -m1 '=""' "$work/mmc.prom")"; else pass "--from: no empty device label"; fi
# No card: a failure for a person (exit 1); for the metrics an answer, the
# file rewritten to say mmc_health_cards 0 without the old card's series
# (exit 0); for a check UNKNOWN.
mkdir -p "$work/nocard/sys"
run 1 $health --sysfs-root "$work/nocard/sys" && expect "no card: a failure for a person" "$err" "no MMC/SD card found$"
cp "$work/mmc.prom" "$work/nocard.prom"
run 0 $health --sysfs-root "$work/nocard/sys" --prometheus "$work/nocard.prom" &&
    expect "no card with --prometheus: exit 0, and it says why" "$err" "no MMC/SD card found; .*nocard.prom says mmc_health_cards 0"
[ "$(grep -v '^#' "$work/nocard.prom")" = "mmc_health_cards 0" ] && pass "no card: the file says mmc_health_cards 0, the old series gone" ||
    fail "no card: the file holds $(grep -vc '^#' "$work/nocard.prom") series: $(grep -v '^#' "$work/nocard.prom" | head -c 200)"
run 3 $health --nagios --sysfs-root "$work/nocard/sys" && expect "no card with --nagios: UNKNOWN" "$out" "^MMC_HEALTH UNKNOWN - no MMC/SD card found"
if [ -n "$(find "$work" -name '*.tmp*' -o -name '.mmc.prom*')" ]; then fail "a temporary file was left"; else pass "no temporary file left beside the metrics"; fi
if command -v promtool >/dev/null; then
    if promtool check metrics <"$work/mmc.prom" >"$work/promtool.out" 2>&1; then pass "promtool check metrics: clean"
    else fail "promtool check metrics"; sed 's/^/    | /' "$work/promtool.out" | head; fi
    run 0 $health --from $data/two-step-kingston-sdce.json --prometheus "$work/sdce.prom"
    if promtool check metrics <"$work/sdce.prom" >"$work/promtool.out" 2>&1; then pass "promtool: every wear metric of a two-step card"
    else fail "promtool on the two-step card"; sed 's/^/    | /' "$work/promtool.out" | head; fi
else
    skip "promtool is not installed (Debian package prometheus; make deps)"
fi

finish
