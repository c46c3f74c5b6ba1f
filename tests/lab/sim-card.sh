#!/bin/sh
# check: expect 70
# The SD lab's card backed by the flash simulator (scripts/sdlab --sim): the
# guest's kernel finds it through the real MMC stack, mmc-info reads it, and
# dd in the guest sees the modelled speed. QEMU's SD card model moves data a
# sector at a time and, under TCG, a few MB/s; the plugin joins the sectors
# back into the commands they were (join=sectors), and the card here is
# modelled well below QEMU (page read and program 48 ms: 0.34 MB/s), so its
# own speed is what dd measures. The counters must show the joined commands
# and a busy time equal to the model's prediction. A second card, with a
# 16 KiB page and a 4 MiB AU whose costs stand above QEMU's own per-sector
# time (page read and AU crossing 3 ms), is read by mmc-probe geometry
# through the real kernel stack: the read ladder must show both. A third,
# a limbo fake, is named by mmc-probe capacity.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
command -v qemu-system-x86_64 >/dev/null || { skip "lab: qemu-system-x86_64 not installed (make deps)"; finish; exit; }
command -v nbdkit >/dev/null || { skip "lab: nbdkit not installed (make deps)"; finish; exit; }
res=$(mktemp -d)
trap 'rm -rf "$res" "$out" "$err"' EXIT
card="--preset class10-2015 --capacity 1G --state clean --page-read 48ms --page-program 48ms"
# shellcheck disable=SC2086
build/bin/mmc-sim $card --describe -J >"$res/card.json" || { fail "mmc-sim --describe"; finish; exit 1; }

# One MiB read and written at 64 MiB (inside the card's measured area),
# timed by the guest's uptime (10 ms steps: under 1% of each), less the
# time of a dd that moves nothing (the guest's own cost of starting one).
# shellcheck disable=SC2016
scripts/sdlab --sim "$card" --out "$res" -- sh -c '
    mmc-info -J /dev/mmcblk0 >$SDLAB_OUT/info.json; echo $? >$SDLAB_OUT/info.rc
    s0=$(cut -d" " -f1 /proc/uptime)
    dd if=/dev/mmcblk0 of=/dev/null bs=1M count=0 iflag=direct 2>/dev/null
    t0=$(cut -d" " -f1 /proc/uptime)
    dd if=/dev/mmcblk0 of=/dev/null bs=1M count=1 skip=64 iflag=direct 2>$SDLAB_OUT/read.err; echo $? >$SDLAB_OUT/read.rc
    t1=$(cut -d" " -f1 /proc/uptime)
    dd if=/dev/zero of=/dev/mmcblk0 bs=1M count=1 seek=64 oflag=direct 2>$SDLAB_OUT/write.err; echo $? >$SDLAB_OUT/write.rc
    t2=$(cut -d" " -f1 /proc/uptime)
    echo "$s0 $t0 $t1 $t2" >$SDLAB_OUT/times' || { fail "lab run failed"; finish; exit 1; }

[ "$(cat "$res/info.rc")" = 0 ] && pass "mmc-info reads the simulated card" || fail "mmc-info exit $(cat "$res/info.rc")"
cp "$res/info.json" "$out"
json_eq "it is an SD card of the simulated 1 GiB, its CSD says so too" \
    "j['card']['type'], j['card']['capacity_bytes'], j['registers']['csd']['decoded']['capacity_bytes']" "SD 1073741824 1073741824"
[ "$(cat "$res/read.rc") $(cat "$res/write.rc")" = "0 0" ] && pass "dd read and wrote 1 MiB" ||
    fail "dd exit $(cat "$res/read.rc") $(cat "$res/write.rc"): $(cat "$res/read.err" "$res/write.err")"

# measured: MB/s in the guest; modelled: the card's prediction; busy: what
# the card counted for the requests it got. The card's busy time for the
# 1 MiB written is the model's to within 1.5% (joined, it is two 512 KiB
# writes; unjoined it would be 2048 of a sector). dd's figures are never
# above the model's (+5%: the guest's clock steps and the start-up estimate):
# a load on this machine can only slow dd down, so that bound holds on any
# machine, while how close dd comes from below depends on the load (a fresh
# clone's check at load 12-16 read 0.89 of the model) and is not asserted
# here; the model's timing itself is exact on the virtual clock
# (tests/unit: SimFigures, SimCardTiming).
$PY - "$res" >"$out" 2>&1 <<'PY'
import json, sys
res = sys.argv[1]
model = json.load(open(f"{res}/card.json"))["modelled"]
c = json.load(open(f"{res}/sim-stats.json"))["counters"]
s0, t0, t1, t2 = map(float, open(f"{res}/times").read().split())
start = t0 - s0  # a dd that moves nothing: starting a process under TCG takes a good part of a second
mb = 2**20 / 1e6
read, write = mb / (t1 - t0 - start), mb / (t2 - t1 - start)
busy_write = mb / (c["write"]["busy_ns"] / 1e9)
print(json.dumps({"read": read, "write": write, "model_read": model["seq_read_mb_s"], "model_write": model["seq_write_mb_s_clean"],
                  "dd_start_s": start, "write_requests": c["write"]["requests"], "write_bytes": c["write"]["bytes"], "busy_write": busy_write,
                  "read_ratio": read / model["seq_read_mb_s"], "write_ratio": write / model["seq_write_mb_s_clean"],
                  "busy_ratio": busy_write / model["seq_write_mb_s_clean"]}))
PY
sed 's/^/    | /' "$out"
json_eq "the card got the 1 MiB written as two 512 KiB commands" "j['write_requests'], j['write_bytes']" "2 1048576"
json_eq "its busy time for them is the model's (printed to 0.01 MB/s), within 1.5%" "abs(j['busy_ratio'] - 1) <= 0.015" "True"
json_eq "dd's sequential read is no faster than the modelled card (+5%)" "j['read_ratio'] <= 1.05" "True"
json_eq "dd's sequential write is no faster than the modelled card (+5%)" "j['write_ratio'] <= 1.05" "True"

# shellcheck disable=SC2016
scripts/sdlab --sim "--capacity 1G --page 16k --au 4M --command 1ms --page-read 3ms --au-cross 3ms" --out "$res/geo" -- sh -c '
    mmc-probe geometry -J /dev/mmcblk0 >$SDLAB_OUT/geo.json 2>$SDLAB_OUT/geo.err; echo $? >$SDLAB_OUT/geo.rc' ||
    { fail "lab run (geometry) failed"; finish; exit 1; }
cp "$res/geo/geo.json" "$out"
json_eq "mmc-probe geometry in the guest: 16 KiB page, 4 MiB AU, high confidence" \
    "$(cat "$res/geo/geo.rc"), j['page_size'], j['au_size'], j['confidence']" "0 16384 4194304 high"
# A reading of real time in a guest: when it is wrong, its evidence and rows
# up to the AU are what says why (a load burst, the probe's rule).
$PY -c 'import json, sys
j = json.load(open(sys.argv[1]))
if (j.get("page_size"), j.get("au_size"), j.get("confidence")) == (16384, 4194304, "high"): sys.exit(0)
for e in j.get("evidence", []): print("    | " + e)
for r in j.get("ladder", {}).get("rows", []):
    if r["align"] <= 8 << 20: print("    | row %(align)d: pre %(pre_ns).0f on %(on_ns).0f post %(post_ns).0f diff %(diff_ns).0f ns" % r)' "$out"

# A limbo fake (1 GiB announced, 256 MiB real) behind the lab's SD host:
# mmc-probe capacity names it through the kernel stack, exit 10.
# shellcheck disable=SC2016
scripts/sdlab --sim "--preset fake-limbo-64g-8g --capacity 1G --real-size 256M" --out "$res/cap" -- sh -c '
    mmc-probe capacity -J --yes /dev/mmcblk0 >$SDLAB_OUT/cap.json 2>$SDLAB_OUT/cap.err; echo $? >$SDLAB_OUT/cap.rc' ||
    { fail "lab run (capacity) failed"; finish; exit 1; }
cp "$res/cap/cap.json" "$out"
json_eq "mmc-probe capacity in the guest: limbo, 256 MiB of 1 GiB usable, exit 10" \
    "$(cat "$res/cap/cap.rc"), j['verdict'], j['usable_bytes'], j['announced_bytes']" "10 limbo 268435456 1073741824"
finish
