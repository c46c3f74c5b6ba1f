#!/bin/sh
# check: expect 30
# mmc-health --canary: options; then, as root with loop and FUSE, through
# the real chain (mmc-sim: nbdkit, nbdfuse, loop): a canary in a raw region
# of a simulated card that wears out, one step a day (the canary, then a
# workload that erases one AU), is ok until the card's end of life and
# catches it on the first step after it begins, as lost writes or as a
# refusal (read-only); a canary file on a mounted file system is removed and
# leaves the user's files as they were.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
health=build/bin/mmc-health
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# --- Options (no device) ---
run 0 $health --help && expect "--help shows the canary's form" "$out" "--canary \[--destructive --offset SIZE --size SIZE\]"
run 2 $health --destructive /dev/null && expect "--destructive alone" "$err" "only qualify --canary"
run 2 $health --canary --destructive --offset 1M /dev/null && expect "--destructive needs --offset and --size" "$err" "--offset SIZE and --size SIZE"
run 2 $health --canary --offset 1M --size 64k /dev/null && expect "--offset and --size need --destructive" "$err" "all three"
run 2 $health --canary --destructive --offset 1M --size 1G /dev/null && expect "a region of at most 16 MiB" "$err" "at most 16 MiB"
run 2 $health --canary --from /dev/null && expect "not with --from" "$err" "not with --decode or --from"
run 1 $health --canary /dev/null && expect "/dev/null is no block device" "$err" "/dev/null: not a block device"

need_sim_chain

# --- A card that wears out: the canary in the region at 32 MiB, each step
# the canary then AU 5 written whole (O_DIRECT). AU 5's first write takes an
# erased block, each later one erases it: with --endurance 3 and no spare,
# step 4's workload is its 3rd erase and the end of life begins there.
cat >"$work/days.sh" <<'SH'
d=$MMC_SIM_DEV w=$1
for step in 1 2 3 4 5 6; do
    $HEALTH --canary --any-device --destructive --offset 32M --size 64k --yes -J "$d" >"$w/step$step.json" 2>"$w/step$step.err"
    echo $? >"$w/step$step.rc"
    dd if=/dev/zero of="$d" bs=4M count=1 seek=5 oflag=direct status=none 2>/dev/null
done
SH
export HEALTH=$health
# days END: six steps on a card with --end-of-life END; the states and exit
# statuses in $work/END.states, the card's counters in $work/END.stats.
days() {
    rm -f "$work"/step*
    # shellcheck disable=SC2086
    $sim $fast --capacity 64M --au 4M --endurance 3 --end-of-life "$1" --stats "$work/$1.stats" -- sh "$work/days.sh" "$work" \
        >"$work/$1.simout" 2>"$work/$1.simerr"
    for step in 1 2 3 4 5 6; do
        state=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['cards'][0]['canary']['state'])" "$work/step$step.json" 2>/dev/null)
        echo "$step ${state:-none} $(cat "$work/step$step.rc" 2>/dev/null)"
    done >"$work/$1.states"
    cp "$work/step5.json" "$out" 2>/dev/null || : >"$out"
}

days lose-writes
[ "$(cat "$work/lose-writes.states")" = "1 ok 6
2 ok 6
3 ok 6
4 ok 6
5 lost_writes 4
6 lost_writes 4" ] && pass "lose-writes: ok for 4 steps, lost writes from step 5 on (exit 4, end_of_life)" ||
    fail "lose-writes: steps $(tr '\n' ' ' <"$work/lose-writes.states") $(head -3 "$work/step5.err" "$work/lose-writes.simerr" 2>/dev/null)"
json_eq "lose-writes: step 5's canary: acknowledged, none of it read back" \
    "[(c['written'], c['read_back_ok'], c['lost'], c['first_bad_offset']) for c in [j['cards'][0]['canary']]][0], j['cards'][0]['verdict_basis']" \
    "(65536, False, 65536, 0) {'source': 'canary', 'figure': 'canary'}"
cp "$work/lose-writes.stats" "$out"
json_eq "lose-writes: the model's end of life came with AU 5's 3rd erase, and the writes after it were lost" \
    "j['counters']['wear']['end_of_life'], [r['erases'] for r in j['counters']['wear']['erase_counts'] if r['block'] == 5], j['counters']['wear']['lost_write_bytes'] >= 2 * 4 * 2**20 + 2 * 65536" \
    "True [3] True"

days read-only
[ "$(cat "$work/read-only.states")" = "1 ok 6
2 ok 6
3 ok 6
4 ok 6
5 read_only 5
6 read_only 5" ] && pass "read-only: ok for 4 steps, refused from step 5 on (exit 5, read_only)" ||
    fail "read-only: steps $(tr '\n' ' ' <"$work/read-only.states") $(head -3 "$work/step5.err" "$work/read-only.simerr" 2>/dev/null)"
json_eq "read-only: step 5's canary: nothing written" \
    "[(c['written'], c['read_back_ok'], c['error'] is not None) for c in [j['cards'][0]['canary']]][0], j['cards'][0]['verdict']" \
    "(0, False, True) read_only"

# The Prometheus and Nagios answers of a card that loses writes.
cat >"$work/views.sh" <<'SH'
d=$MMC_SIM_DEV w=$1
dd if=/dev/zero of="$d" bs=4M count=1 seek=5 oflag=direct status=none
dd if=/dev/zero of="$d" bs=4M count=1 seek=5 oflag=direct status=none # its 1st erase: the end
$HEALTH --canary --any-device --destructive --offset 32M --size 64k --yes --prometheus "$w/health.prom" "$d" >/dev/null 2>&1
$HEALTH --canary --any-device --destructive --offset 32M --size 64k --yes --nagios "$d" >"$w/nagios.out" 2>/dev/null
echo $? >"$w/nagios.rc"
SH
$sim $fast --capacity 64M --au 4M --endurance 1 --end-of-life lose-writes -- sh "$work/views.sh" "$work" >/dev/null 2>"$work/views.err"
expect "Prometheus: mmc_health_canary_ok 0" "$work/health.prom" '^mmc_health_canary_ok\{card="loop[0-9]+",device="/dev/loop[0-9]+"\} 0$'
expect "Prometheus: the bytes lost" "$work/health.prom" '^mmc_health_canary_lost_bytes\{card="loop[0-9]+",device="/dev/loop[0-9]+"\} 65536$'
[ "$(cat "$work/nagios.rc" 2>/dev/null)" = 2 ] && pass "Nagios: CRITICAL (exit 2)" || fail "Nagios: exit $(cat "$work/nagios.rc" 2>/dev/null)"
expect "Nagios: the canary's loss on the status line" "$work/nagios.out" "^MMC_HEALTH CRITICAL - loop[0-9]+ end of life, canary lost_writes \(65536 of 65536 bytes\)"

# --- A file on a mounted file system: ok, removed, the user's file kept;
# mounted read-only: read_only; nothing mounted: a failure that says what to do.
cat >"$work/fs.sh" <<'SH'
d=$MMC_SIM_DEV w=$1
mkfs.ext4 -q -F "$d" >/dev/null 2>&1
mkdir -p "$w/mnt"
mount "$d" "$w/mnt" || exit 9
echo "keep me" >"$w/mnt/keep.txt"
$HEALTH --canary --any-device --dry-run -J "$d" >"$w/dry.json" 2>"$w/dry.err"
ls -A "$w/mnt" >"$w/dry.ls"
$HEALTH --canary --any-device -J "$d" >"$w/fs.json" 2>"$w/fs.err"; echo $? >"$w/fs.rc"
ls -A "$w/mnt" >"$w/fs.ls"
cat "$w/mnt/keep.txt" >"$w/fs.keep"
mount -o remount,ro "$w/mnt"
$HEALTH --canary --any-device -J "$d" >"$w/ro.json" 2>"$w/ro.err"; echo $? >"$w/ro.rc"
umount "$w/mnt"
$HEALTH --canary --any-device "$d" >/dev/null 2>"$w/none.err"; echo $? >"$w/none.rc"
SH
$sim $fast --capacity 64M --au 4M -- sh "$work/fs.sh" "$work" >/dev/null 2>"$work/fs.simerr"
expect "file: --dry-run says where" "$work/dry.err" "^Dry run: the canary would write 64 KiB to a file of its own in $work/mnt, then remove it.$"
cp "$work/dry.json" "$out" 2>/dev/null || : >"$out"
json_eq "file: --dry-run: no canary run, no file made" "'canary' in j['cards'][0], open('$work/dry.ls').read().split()" "False ['keep.txt', 'lost+found']"
[ "$(cat "$work/fs.rc" 2>/dev/null)" = 6 ] && pass "file: exit 6 (unknown: a loop device has no health record)" || fail "file: exit $(cat "$work/fs.rc" 2>/dev/null): $(cat "$work/fs.err")"
cp "$work/fs.json" "$out" 2>/dev/null || : >"$out"
json_eq "file: a file of its own, written and read back" \
    "[(c['mode'], c['where'].endswith('/mnt/mmc-health-canary.0'), c['state'], c['written'], c['read_back_ok'], c['lost']) for c in [j['cards'][0]['canary']]][0]" \
    "('file', True, 'ok', 65536, True, 0)"
[ "$(cat "$work/fs.ls" 2>/dev/null | tr '\n' ' ')" = "keep.txt lost+found " ] && pass "file: the canary's file is removed" || fail "file: left $(cat "$work/fs.ls" | tr '\n' ' ')"
[ "$(cat "$work/fs.keep" 2>/dev/null)" = "keep me" ] && pass "file: the user's file intact" || fail "file: the user's file changed"
[ "$(cat "$work/ro.rc" 2>/dev/null)" = 5 ] && pass "file: mounted read-only: exit 5 (read_only)" || fail "file: read-only: exit $(cat "$work/ro.rc" 2>/dev/null): $(cat "$work/ro.err")"
cp "$work/ro.json" "$out" 2>/dev/null || : >"$out"
json_eq "file: mounted read-only: the canary says so" "j['cards'][0]['canary']['state'], j['cards'][0]['verdict']" "read_only read_only"
[ "$(cat "$work/none.rc" 2>/dev/null)" = 1 ] && pass "file: nothing mounted: exit 1" || fail "file: nothing mounted: exit $(cat "$work/none.rc" 2>/dev/null)"
expect "file: nothing mounted: says what to do" "$work/none.err" "no file system of loop[0-9]+ is mounted to hold the canary; mount one, or name a raw region with --destructive"

finish
