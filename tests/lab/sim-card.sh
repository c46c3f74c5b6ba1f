#!/bin/sh
# The SD lab's card backed by the flash simulator (scripts/sdlab --sim): the
# guest's kernel finds it through the real MMC stack, mmc-info reads it, and
# dd in the guest sees the modelled speed. QEMU's SD card model moves data a
# sector at a time and, under TCG, a few MB/s; the plugin joins the sectors
# back into the commands they were (join=sectors), and the card here is
# modelled slower than QEMU (page read and program 24 ms: 0.65 MB/s), so its
# own speed is what dd measures. The counters must show the joined commands
# and a busy time equal to the model's prediction.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
command -v qemu-system-x86_64 >/dev/null || { skip "lab: qemu-system-x86_64 not installed (make deps)"; finish; exit; }
command -v nbdkit >/dev/null || { skip "lab: nbdkit not installed (make deps)"; finish; exit; }
res=$(mktemp -d)
trap 'rm -rf "$res" "$out" "$err"' EXIT
card="--preset class10-2015 --size 1G --state clean --page-read 24ms --page-program 24ms"
# shellcheck disable=SC2086
build/bin/mmc-sim $card --describe -J >"$res/card.json" || { fail "mmc-sim --describe"; finish; exit 1; }

# Two MiB read and written at 64 MiB (inside the card's measured area),
# timed by the guest's uptime (10 ms steps: under 1% of each).
# shellcheck disable=SC2016
scripts/sdlab --sim "$card" --out "$res" -- sh -c '
    mmc-info -J /dev/mmcblk0 >$SDLAB_OUT/info.json; echo $? >$SDLAB_OUT/info.rc
    t0=$(cut -d" " -f1 /proc/uptime)
    dd if=/dev/mmcblk0 of=/dev/null bs=1M count=2 skip=64 iflag=direct 2>$SDLAB_OUT/read.err; echo $? >$SDLAB_OUT/read.rc
    t1=$(cut -d" " -f1 /proc/uptime)
    dd if=/dev/zero of=/dev/mmcblk0 bs=1M count=2 seek=64 oflag=direct 2>$SDLAB_OUT/write.err; echo $? >$SDLAB_OUT/write.rc
    t2=$(cut -d" " -f1 /proc/uptime)
    echo "$t0 $t1 $t2" >$SDLAB_OUT/times' || { fail "lab run failed"; finish; exit 1; }

[ "$(cat "$res/info.rc")" = 0 ] && pass "mmc-info reads the simulated card" || fail "mmc-info exit $(cat "$res/info.rc")"
cp "$res/info.json" "$out"
json_eq "it is an SD card of the simulated 1 GiB, its CSD says so too" \
    "j['card']['type'], j['card']['capacity_bytes'], j['registers']['csd']['decoded']['capacity_bytes']" "SD 1073741824 1073741824"
[ "$(cat "$res/read.rc") $(cat "$res/write.rc")" = "0 0" ] && pass "dd read and wrote 2 MiB" ||
    fail "dd exit $(cat "$res/read.rc") $(cat "$res/write.rc"): $(cat "$res/read.err" "$res/write.err")"

# measured: MB/s in the guest; modelled: the card's prediction; busy: what
# the card counted for the requests it got. The card's busy time for the
# 2 MiB written is the model's to within 1% (joined, it is four 512 KiB
# writes; unjoined it would be 4096 of a sector). dd's figures are within
# -20% (QEMU's own per-sector time overlaps the card's only in part on a
# loaded machine) and +5% of the model.
$PY - "$res" >"$out" 2>&1 <<'PY'
import json, sys
res = sys.argv[1]
model = json.load(open(f"{res}/card.json"))["modelled"]
c = json.load(open(f"{res}/sim-stats.json"))["counters"]
t0, t1, t2 = map(float, open(f"{res}/times").read().split())
mb = 2 * 2**20 / 1e6
read, write = mb / (t1 - t0), mb / (t2 - t1)
busy_write = mb / (c["write"]["busy_ns"] / 1e9)
print(json.dumps({"read": read, "write": write, "model_read": model["seq_read_mb_s"], "model_write": model["seq_write_mb_s_clean"],
                  "write_requests": c["write"]["requests"], "write_bytes": c["write"]["bytes"], "busy_write": busy_write,
                  "read_ratio": read / model["seq_read_mb_s"], "write_ratio": write / model["seq_write_mb_s_clean"],
                  "busy_ratio": busy_write / model["seq_write_mb_s_clean"]}))
PY
sed 's/^/    | /' "$out"
json_eq "the card got the 2 MiB written as four 512 KiB commands" "j['write_requests'], j['write_bytes']" "4 2097152"
json_eq "its busy time for them is the model's, within 1%" "abs(j['busy_ratio'] - 1) <= 0.01" "True"
json_eq "dd's sequential read is the modelled one (-20%/+5%)" "0.80 <= j['read_ratio'] <= 1.05" "True"
json_eq "dd's sequential write is the modelled one (-20%/+5%)" "0.80 <= j['write_ratio'] <= 1.05" "True"
finish
