#!/bin/sh
# check: expect 110
# mmc-probe geometry: usage and --from-flashbench anywhere; then, as root
# with loop and FUSE, smoke tests through the simulator's real-time chain
# (nbdkit, nbdfuse, loop): what its noise cannot change. A destructive probe
# answers for the device it was given, and every block it wrote is back; a
# read-only probe writes nothing; writing is refused before the ladder; Ctrl-C
# in the middle of the writes leaves the card as it was.
# Whether the probe finds the page, the AU and the open AUs that were set is
# logic, tested exactly on the flash model's virtual clock
# (tests/unit/probe_geometry_cards_test.cpp: the eight geometries this suite
# once read through the chain, and the second reading of an unclear ladder);
# how small a step it can see through a real chain is bench/'s question
# (bench/probe-vs-flashbench).
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
probe=build/bin/mmc-probe
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# --- Usage ---
run 2 $probe && expect "no subcommand" "$err" "no subcommand given"
run 2 $probe sideways && expect "unknown subcommand" "$err" "unknown subcommand 'sideways'"
run 2 $probe geometry && expect "no DEVICE" "$err" "no DEVICE given"
run 2 $probe geometry --repeats 0 /dev/null && expect "bad --repeats" "$err" "--repeats 0: expected a whole number"
run 2 $probe geometry --from-flashbench x --destructive && expect "--destructive needs a device" "$err" "--destructive needs a device"
run 2 $probe geometry --from-flashbench x -n && expect "-n needs a device" "$err" "--dry-run needs a device"
run 0 $probe geometry --help && expect "geometry --help: -n beside --destructive" "$out" "-n, --dry-run"
run 2 $probe geometry --bogus && expect "unknown option" "$err" "unknown option '--bogus'"
run 0 $probe geometry --help && expect "geometry --help" "$out" "--from-flashbench FILE"
run 1 $probe capacity /dev/null && expect "the dispatcher hands capacity its own arguments" "$err" "/dev/null: not a block device"
run 1 $probe geometry /nonexistent && expect "missing device" "$err" "mmc-probe: /nonexistent: no such device"
not_devices "mmc-probe geometry" "" $probe geometry
run 1 $probe geometry /dev/null && expect "not a block device" "$err" "/dev/null: not a block device"

# --- --from-flashbench on the real outputs (tests/data/flashbench) ---
$PY - "$work" <<'PY'
import json, sys
d = json.load(open("tests/data/flashbench/outputs.json"))
for o in d["outputs"]:
    if o["test"] == "-a":
        open(f"{sys.argv[1]}/{o['id']}.txt", "w").write(o["output"])
PY
run 0 $probe geometry -J --from-flashbench "$work/readme-align.txt" &&
    json_eq "README ladder: 8 KiB page, 16 KiB multi-plane, 4 MiB AU" "j['page_size'], j['multi_plane_size'], j['au_size'], j['confidence']" \
        "8192 16384 4194304 high" &&
    json_eq "no card: registers in the documented shape, bytes and agrees null" \
        "sorted((k, sorted(v.items())) for k, v in j['registers'].items())" \
        "[('csd_sector_size', [('agrees', None), ('bytes', None)]), ('ext_csd_erase_group', [('agrees', None), ('bytes', None)]), ('preferred_erase_size', [('agrees', None), ('bytes', None)]), ('ssr_au_size', [('agrees', None), ('bytes', None)])]"
run 0 $probe geometry -J --from-flashbench - <"$work/sandisk4g-sdhc-align.txt" &&
    json_eq "SanDisk 4 GB from stdin: 4 KiB page, 512 KiB AU" "j['page_size'], j['au_size'], j['file']" "4096 524288 -"
run 0 $probe geometry --from-flashbench "$work/issue9-nvme-align.txt" &&
    expect "NVMe: no boundary" "$out" "^AU: +no boundary$"
if grep -q "^Time:" "$out"; then fail "a pasted ladder has no Time line (it was not timed here)"; else pass "a pasted ladder has no Time line (it was not timed here)"; fi
run 0 $probe geometry --from-flashbench "$work/issue16-negative-diff.txt" &&
    expect "cut-off line noted" "$out" "note: line 16: align 1048576 cut off"
# A ladder whose line breaks were lost (mail clients and archives rewrap):
# 1, 2, 3 or every row per line, and wrapped at 72 columns mid-row, reads as
# the intact one does, and says the paste looks rewrapped.
$PY - "$work" <<'PY'
import sys, textwrap
w = sys.argv[1]
for name in ("readme-align", "sandisk4g-sdhc-align", "smi-0x1b-align", "issue16-negative-diff"):
    lines = open(f"{w}/{name}.txt").read().splitlines()
    head = [l for l in lines if "align" not in l.split()]
    rows = [l.strip() for l in lines if "align" in l.split()]
    for k in (2, 3, len(rows)):
        wrapped = head + [" ".join(rows[i:i + k]) for i in range(0, len(rows), k)]
        open(f"{w}/{name}.{k if k < len(rows) else 'all'}.txt", "w").write("\n".join(wrapped) + "\n")
    open(f"{w}/{name}.oneline.txt", "w").write(" ".join(lines) + "\n")
    open(f"{w}/{name}.72.txt", "w").write(textwrap.fill(" ".join(lines), 72) + "\n")
PY
geometry_of() { $PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['page_size'], j['multi_plane_size'], j['au_size'], j['confidence'], len(j['ladder']['rows']), j['ladder']['read_bytes'])" "$1"; }
for name in readme-align sandisk4g-sdhc-align smi-0x1b-align issue16-negative-diff; do
    run 0 $probe geometry -J --from-flashbench "$work/$name.txt" || continue
    intact=$(geometry_of "$out")
    for k in 2 3 all oneline 72; do
        if run 0 $probe geometry -J --from-flashbench "$work/$name.$k.txt"; then
            got=$(geometry_of "$out")
            if [ "$got" = "$intact" ]; then pass "$name rewrapped ($k): reads as intact ($intact)"
            else fail "$name rewrapped ($k): got '$got', intact '$intact'"; fi
            expect "$name rewrapped ($k): says so" "$out" "looks rewrapped"
        fi
    done
done
run 0 $probe geometry --from-flashbench "$work/readme-align.txt" &&
    if grep -q "rewrapped" "$out"; then fail "intact ladder: no rewrap note"; else pass "intact ladder: no rewrap note"; fi
printf 'hello\n' >"$work/not.txt"
run 1 $probe geometry --from-flashbench "$work/not.txt" && expect "not flashbench" "$err" "not the output of flashbench -a"

# --- On simulated cards ---
if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/fuse ] || ! command -v nbdkit >/dev/null; then
    skip "simulated cards (needs root, /dev/fuse and nbdkit)"
    finish; exit $?
fi

# The smoke cards read with steps of 400 us a page and 1 ms an AU (the
# defaults are 150 us and 150 us): through the chain, rows with no boundary
# vary by up to +-35 us on these machines, so steps ten and thirty times
# that are found however busy the machine is, and the probe goes on to its
# writes. (Larger steps slow every read of the card, its hashes too.)
read_steps="--page-read 400us --au-cross 1ms"

# One destructive probe: exit 0, the answer is about this device (its size),
# the ladder stays inside it, the open-AU test ran and says it restored
# every block, and the card reads as before, byte for byte.
# shellcheck disable=SC2016,SC2086
$sim --page 8k --au 2M --open-aus 2 --cache 256k --state full --capacity 64M $read_steps -- sh -c '
    dev=$MMC_SIM_DEV
    echo "$dev" >"$0/dev"
    dd if=$dev bs=1M iflag=direct status=none | sha256sum >"$0/before"
    "$1" geometry -J --destructive --yes --any-device "$dev" >"$0/probe.json" 2>"$0/probe.err"; echo $? >"$0/status"
    dd if=$dev bs=1M iflag=direct status=none | sha256sum >"$0/after"
' "$work" "$probe" >"$work/sim.err" 2>&1
cp "$work/probe.json" "$out"
json_eq "destructive probe: exit 0, about this device, the ladder inside it" \
    "$(cat "$work/status"), j['device'] == '$(cat "$work/dev")', max(r['align'] for r in j['ladder']['rows']) <= 64 << 20" "0 True True"
json_eq "  the open-AU test ran and restored every block" \
    "j['open_au_test'] is not None and len(j['open_au_test']['trials']) > 0, j['open_au_test']['restored']" "True True"
if cmp -s "$work/before" "$work/after"; then pass "  the card reads as before"; else fail "  the card's data changed"; fi

# Read-only by default, and it writes nothing; writing is refused on a
# non-card without --any-device and without --yes when stdin is no
# terminal, before the ladder is read.
# shellcheck disable=SC2016,SC2086
$sim -p tlc-12m-au --capacity 128M $read_steps -- sh -c '
    dd if=$MMC_SIM_DEV bs=1M iflag=direct status=none | sha256sum >"$0/ro-before"
    "$1" geometry -J "$MMC_SIM_DEV" >"$0/ro.json" 2>"$0/ro.err"; echo $? >"$0/ro.status"
    "$1" geometry -n --any-device "$MMC_SIM_DEV" </dev/null >"$0/dry.txt" 2>"$0/dry.err"; echo $? >"$0/dry.status"
    dd if=$MMC_SIM_DEV bs=1M iflag=direct status=none | sha256sum >"$0/ro-after"
    "$1" geometry --destructive --yes "$MMC_SIM_DEV" >/dev/null 2>"$0/nocard.err"; echo $? >"$0/nocard.status"
    "$1" geometry --destructive --any-device "$MMC_SIM_DEV" </dev/null >/dev/null 2>"$0/noyes.err"; echo $? >"$0/noyes.status"
' "$work" "$probe" >"$work/sim.err" 2>&1
cp "$work/ro.json" "$out"
json_eq "read-only probe: exit 0, no open-AU test, the ladder and its evidence" \
    "$(cat "$work/ro.status"), j['open_aus'], j['open_au_test'], len(j['ladder']['rows']) > 20, len(j['evidence']) >= 1" "0 None None True True"
if cmp -s "$work/ro-before" "$work/ro-after"; then pass "  it wrote nothing (nor did -n)"; else fail "  the card's data changed"; fi
[ "$(cat "$work/dry.status")" = 0 ] && expect "-n: says what the open-AU test would write, asks nothing" "$work/dry.txt" \
    "note: dry run: (the open-AU test would write .* to [0-9]+ AUs, between offset 0 and |the open-AU test would not run without|too small).*; nothing was written" ||
    { fail "-n: exit $(cat "$work/dry.status")"; sed 's/^/    | /' "$work/dry.err" | head -5; }
[ "$(cat "$work/nocard.status")" = 1 ] && expect "a loop device is refused for writing" "$work/nocard.err" "not an MMC/SD device.*--any-device" ||
    fail "a loop device is refused for writing: exit $(cat "$work/nocard.status")"
[ "$(cat "$work/noyes.status")" = 1 ] && expect "no --yes without a terminal" "$work/noyes.err" "refusing to write without confirmation" ||
    fail "no --yes without a terminal: exit $(cat "$work/noyes.status")"

# Ctrl-C in the middle of the writes: exit 130, "interrupted": true, every
# block back. The interrupt comes once the card's second 16 MiB (where the
# open-AU test's trials write) have changed, not after a fixed time, so the
# check cannot pass on a probe that had not yet written anything.
# shellcheck disable=SC2016,SC2086
$sim --page 16k --au 1M --open-aus 4 --state full --capacity 64M $read_steps -- sh -c '
    dev=$MMC_SIM_DEV
    dd if=$dev bs=1M iflag=direct status=none | sha256sum >"$0/before"
    dd if=$dev bs=1M skip=16 count=16 iflag=direct status=none | sha256sum >"$0/start"
    "$1" geometry -J --destructive --yes --any-device "$dev" >"$0/int.json" 2>"$0/int.err" &
    pid=$!
    i=0
    while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do
        dd if=$dev bs=1M skip=16 count=16 iflag=direct status=none | sha256sum >"$0/during"
        cmp -s "$0/start" "$0/during" || break
        sleep 0.1; i=$((i + 1))
    done
    kill -INT $pid; wait $pid; echo $? >"$0/int.status"
    dd if=$dev bs=1M iflag=direct status=none | sha256sum >"$0/after"
' "$work" "$probe" >"$work/sim.err" 2>&1
if ! cmp -s "$work/start" "$work/during"; then pass "SIGINT: sent while the probe's writes were on the card"
else fail "SIGINT: the card never changed before the interrupt (nothing written: the check below would prove nothing)"; fi
cp "$work/int.json" "$out"
json_eq "SIGINT: exit 130, interrupted, the open-AU test's blocks written back" \
    "$(cat "$work/int.status"), j['interrupted'], j['open_au_test'] is not None and j['open_au_test']['restored']" "130 True True"
if cmp -s "$work/before" "$work/after"; then pass "SIGINT: the card reads as before"; else fail "SIGINT: the card's data changed"; fi

finish
