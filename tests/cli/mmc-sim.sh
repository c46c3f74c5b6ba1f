#!/bin/sh
# check: expect 50
# mmc-sim: option errors and --describe anywhere; then, as root with loop and
# FUSE, the simulated card through a real block device with plain dd: data,
# discard, the fakes, the counters, exit statuses, signals and teardown.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# --- Options and --describe (no device) ---
run 2 $sim --capacity 1x --describe && expect "bad size names the option" "$err" "--capacity 1x: .*unknown unit"
run 2 $sim --state sideways --describe && expect "bad state" "$err" "--state sideways"
# One duration syntax: a bare number is seconds here too, as in every mmckit tool.
run 0 $sim --command 0.0015 --page-read 40us --describe -J &&
    json_eq "--command 0.0015 is 1.5 ms, --page-read 40us" "j['card']['command'], j['card']['page_read']" "1500000 40000" 
run 2 $sim --command 2h --describe && expect "a time beyond an hour refused" "$err" "longer than an hour"
run 2 $sim --command 5d --describe && expect "a bad unit: the one parser's message" "$err" "unknown unit 'd' \(use ns, us, ms, s, m or h; seconds without one\)"
run 2 $sim --capacity 1G && expect "no COMMAND" "$err" "no COMMAND"
run 2 $sim --bogus -- true && expect "unknown option" "$err" "unknown option '--bogus'"
run 2 $sim -J -- true && expect "-J only with --describe" "$err" "-J goes with --describe"
run 2 $sim --preset no-such-card --describe && expect "unknown preset lists the others" "$err" "no such preset"
run 1 $sim --card-file /nonexistent.json --describe && expect "a missing card file: a failure, as every missing input file" "$err" "^mmc-sim: --card-file /nonexistent.json: .*/nonexistent.json: No such file or directory$"
run 2 $sim --page 64k --au 32k --describe && expect "a card that cannot exist" "$err" "not a card that can exist"
run 0 $sim --help && expect "--help shows the synopsis" "$out" "-- COMMAND \[ARG...\]"
run 0 $sim -V && expect "-V" "$out" "mmc-sim from mmckit [0-9]"

run 0 $sim --capacity 1G --au 12M --page 32k --open-aus 2 --state full --command 1ms --describe -J &&
    json_eq "describe -J resolves the options" "j['tool'], j['card']['size'], j['card']['au'], j['card']['page'], j['card']['open_aus'], j['card']['state'], j['card']['command']" \
        "mmc-sim 1073741824 12582912 32768 2 full 1000000"
cp "$out" "$work/card.json"
run 0 $sim --card-file "$work/card.json" --open-aus 3 --describe -J &&
    json_eq "--card-file takes describe output; later options win" "j['card']['au'], j['card']['open_aus'], j['card']['command']" "12582912 3 1000000"
# --card and -c, the old spellings (--card meant four things across the
# tools): still the card file, with one warning line each.
run 0 $sim --card "$work/card.json" --describe -J && json_eq "deprecated --card: still the card file" "j['card']['au']" "12582912"
[ "$(cat "$err")" = "mmc-sim: --card is deprecated: use --card-file" ] && pass "deprecated --card: one warning line" || fail "deprecated --card: stderr '$(cat "$err")'"
run 0 $sim -c "$work/card.json" --describe -J && json_eq "deprecated -c: still the card file" "j['card']['au']" "12582912"
[ "$(cat "$err")" = "mmc-sim: -c is deprecated: use --card-file" ] && pass "deprecated -c: one warning line" || fail "deprecated -c: stderr '$(cat "$err")'"
run 2 $sim --preset a1 --card-file "$work/card.json" --describe && expect "--preset and --card-file: one of them" "$err" "give one --preset or --card-file"
# --size, the old spelling (--size is a region's length in every other tool).
run 0 $sim --size 1G --describe -J && json_eq "deprecated --size: still the capacity" "j['card']['size']" "1073741824"
[ "$(cat "$err")" = "mmc-sim: --size is deprecated: use --capacity" ] && pass "deprecated --size: one warning line" || fail "deprecated --size: stderr '$(cat "$err")'"
run 0 $sim --fake wraparound --capacity 64M --real-size 16M --describe &&
    expect "describe text: aligned names and units" "$out" "^real_size +16 MiB$"
# --- Sustained writing: the SLC cache and GC stalls ---
run 2 $sim --native-rate fast --describe && expect "a bad rate names the option" "$err" "--native-rate fast: "
run 2 $sim --slc-rate -5 --describe && expect "a negative rate refused" "$err" "slc-rate: .*not a flash's rate"
run 2 $sim --size 1G --slc-cache 2G --describe && expect "a cache larger than the card refused" "$err" "slc-cache: .*larger than the card"
run 2 $sim --gc-every 0 --describe && expect "gc-every 0 refused" "$err" "--gc-every 0: "
run 0 $sim --preset v30-slc-tlc --size 1G --slc-cache 64M --describe -J &&
    json_eq "describe -J predicts the knee at the cache size, the burst and the speed after it" \
        "j['card']['slc_cache'], j['modelled']['sustained']['knee_bytes'], j['modelled']['sustained']['burst_mb_s'] > 85, j['modelled']['sustained']['post_cache_mb_s'] < 30" \
        "67108864 67108864 True True"
run 0 $sim --preset v30-slc-tlc --size 1G --slc-cache 64M --describe &&
    expect "describe text names the knee" "$out" "^ SLC cache knee +64 MiB written$"
run 0 $sim --preset v30-slc-tlc --size 1G --slc-cache 0 --describe -J &&
    json_eq "no cache: no knee" "j['modelled']['sustained']['knee_bytes']" "None"
run 0 $sim --preset v30-stalls --size 1G --describe -J &&
    json_eq "the stall pattern: clean stalls, fragmented more, 500 ms each" \
        "j['modelled']['sustained']['gc_stalls']['clean']['count'] > 0, j['modelled']['sustained']['gc_stalls']['fragmented']['count'] > j['modelled']['sustained']['gc_stalls']['clean']['count'], j['modelled']['sustained']['gc_stalls']['clean']['longest_ns']" \
        "True True 500000000"
run 0 $sim --preset v30-stalls --size 1G --describe &&
    expect "describe text: the stalls on a fragmented card" "$out" "fragmented  [0-9]+ stalls, the longest 500 ms, the first after 4 MiB, then one every 8 MiB"
run 0 $sim --size 1G --describe -J &&
    json_eq "a card without the options: no cache, no stalls" \
        "j['card']['slc_cache'], j['modelled']['sustained']['knee_bytes'], j['modelled']['sustained']['gc_stalls']['fragmented']['count']" "0 None 0"

# --- Wear ---
run 0 $sim --capacity 64M --endurance tlc --age 17520h --spare-blocks 3 --end-of-life lose-writes --weak 8M,1M --weak 16M,64k,9 --describe -J &&
    json_eq "describe -J: the wear options resolved" "j['card']['endurance'], j['card']['age'], j['card']['spare_blocks'], j['card']['end_of_life'], j['card']['weak']" \
        "3000 63072000000000000 3 lose-writes ['8388608,1048576,4', '16777216,65536,9']"
run 2 $sim --end-of-life melt --describe && expect "a bad end of life names the choices" "$err" "--end-of-life melt: .*read-only, lose-writes or dead"
run 2 $sim --capacity 64M --weak 63M,4M --describe && expect "a weak region beyond the card refused" "$err" "weak: .*outside the card"

if [ -d sim/presets ]; then
    for p in sim/presets/*.json; do
        name=$(basename "$p" .json)
        run 0 $sim --preset "$name" --describe -J && json_eq "preset $name resolves" "j['tool']" "mmc-sim"
    done
else
    skip "presets (sim/presets not in this tree yet)"
fi

# --- Through the block device ---
if [ "$(id -u)" -ne 0 ] || ! command -v nbdfuse >/dev/null || ! command -v nbdkit >/dev/null ||
    [ ! -e /dev/loop-control ] || [ ! -e /dev/fuse ]; then
    skip "block device tests (need root, /dev/loop-control, /dev/fuse, nbdkit and nbdfuse)"
    finish; exit
fi
# Fast flash so the suite stays short; the timing itself is bench/sim-timing's.
fast="--command 20us --page-read 10us --page-program 20us --block-erase 100us --au-cross 0ns --bus-rate 2e9"
export TMPDIR="$work/tmp"; mkdir -p "$TMPDIR"
dd if=/dev/urandom of="$work/data" bs=64k count=16 status=none
head -c 65536 "$work/data" >"$work/first"

# no_leftovers NAME: nothing of a served card remains.
no_leftovers() {
    left=""
    losetup -a | grep -q "$TMPDIR" && left="$left loop"
    grep -q "$TMPDIR" /proc/mounts && left="$left mount"
    pgrep -f "nbdkit.*$TMPDIR" >/dev/null && left="$left nbdkit"
    pgrep -f "nbdfuse.*$TMPDIR" >/dev/null && left="$left nbdfuse"
    [ -n "$(ls -A "$TMPDIR")" ] && left="$left directory"
    if [ -z "$left" ]; then pass "$1: nothing left behind"; else fail "$1: left behind:$left"; fi
}

cat >"$work/basic.sh" <<'SCRIPT'
set -e
d=$MMC_SIM_DEV; w=$1
[ -b "$d" ] || { echo "MMC_SIM_DEV=$d is not a block device"; exit 9; }
blockdev --getsize64 "$d" >"$w/size"
dd if="$w/data" of="$d" bs=64k oflag=direct status=none
dd if="$d" bs=64k count=16 iflag=direct status=none >"$w/back"
blkdiscard -o 8M -l 4M "$d"
dd if="$d" bs=4k skip=2048 count=1 iflag=direct status=none >"$w/discarded"
exit 7
SCRIPT
run 7 $sim $fast --capacity 64M --au 4M --erased-byte 0xff --stats "$work/stats.json" -- sh "$work/basic.sh" "$work" &&
    pass "COMMAND's exit status is mmc-sim's (7)"
if [ "$(cat "$work/size" 2>/dev/null)" = 67108864 ]; then pass "device has the announced size"; else fail "device size: $(cat "$work/size" 2>/dev/null)"; fi
if cmp -s "$work/data" "$work/back"; then pass "data written reads back"; else fail "data written does not read back"; fi
if [ "$(od -An -tx1 -v "$work/discarded" | tr -d ' \n' | tr -d f)" = "" ] && [ -s "$work/discarded" ]; then
    pass "a discarded AU reads the erased byte 0xff"
else fail "a discarded AU does not read 0xff"; fi
cp "$work/stats.json" "$out"
json_eq "stats: bytes written are the dd's" "j['counters']['write']['bytes']" "1048576"
json_eq "stats: 16 write requests of 64 KiB" "j['counters']['write']['requests']" "16"
json_eq "stats: one discard of 4 MiB" "j['counters']['discard']['bytes'], j['counters']['discard']['requests']" "4194304 1"
json_eq "stats: at least the reads dd made" "j['counters']['read']['bytes'] >= 1048576 + 4096" "True"
json_eq "stats: COMMAND's status and the card" "j['command_exit_status'], j['card']['size'], j['tool']" "7 67108864 mmc-sim"
json_eq "stats: every request answered once, its lateness counted" \
    "j['served']['answers'] == sum(j['counters'][k]['requests'] for k in ('read', 'write', 'discard', 'flush')), 0 <= j['served']['late_ns_mean'] <= j['served']['late_ns_max'], j['served']['late_over_50us'] <= j['served']['answers'], j['served']['host_gap_ns_mean'] > 0" \
    "True True True True"
no_leftovers "after a command"

cat >"$work/fake.sh" <<'SCRIPT'
d=$MMC_SIM_DEV; w=$1
dd if="$w/data" of="$d" bs=64k count=1 oflag=direct status=none
dd if="$w/data" of="$d" bs=64k count=1 seek=512 oflag=direct status=none   # at 32 MiB
dd if="$d" bs=64k count=1 skip=256 iflag=direct status=none >"$w/at16m"    # at 16 MiB
dd if="$d" bs=64k count=1 skip=512 iflag=direct status=none >"$w/at32m"
SCRIPT
run 0 $sim $fast --capacity 64M --fake wraparound --real-size 16M -- sh "$work/fake.sh" "$work"
if cmp -s "$work/first" "$work/at16m"; then pass "wraparound: offset real_size reads what was written at 0"; else fail "wraparound: 16 MiB does not read what 0 holds"; fi
run 0 $sim $fast --capacity 64M --fake limbo --real-size 16M -- sh "$work/fake.sh" "$work"
if [ -s "$work/at32m" ] && [ "$(od -An -tx1 -v "$work/at32m" | tr -d ' \n0')" = "" ]; then
    pass "limbo: a write beyond the real size reads back as zeros"
else fail "limbo: beyond the real size did not read zeros"; fi
no_leftovers "after the fakes"

# A read past the ECC is EIO through the whole chain; a worn-out card that
# turned read-only refuses writes (EROFS from the plugin, EPERM or EIO as the
# kernel passes it on) and keeps what it had.
cat >"$work/worn.sh" <<'SCRIPT'
d=$MMC_SIM_DEV; w=$1
dd if="$d" of=/dev/null bs=64k count=1 skip=512 iflag=direct 2>"$w/weak.err"; echo $? >"$w/weak.rc"   # 32 MiB
dd if="$d" of=/dev/null bs=64k count=1 skip=64 iflag=direct status=none; echo $? >"$w/strong.rc"
cat "$w/data" "$w/data" "$w/data" "$w/data" >"$w/data4"
dd if="$w/data4" of="$d" bs=1M seek=8 oflag=direct status=none; echo $? >"$w/first.rc"   # AU 2 whole: takes the erased block
dd if="$w/data4" of="$d" bs=1M seek=8 oflag=direct 2>/dev/null; echo $? >"$w/second.rc"  # its first request erases it: worn out
dd if=/dev/zero of="$d" bs=64k count=1 seek=128 oflag=direct 2>"$w/ro.err"; echo $? >"$w/ro.rc"
dd if="$d" bs=64k count=1 skip=128 iflag=direct status=none >"$w/kept"  # AU 2 again
SCRIPT
run 0 $sim $fast --capacity 64M --au 4M --fat-area 0 --endurance 1 --weak 32M,64k,9 --stats "$work/worn.json" -- sh "$work/worn.sh" "$work"
[ "$(cat "$work/weak.rc")" != 0 ] && grep -q "Input/output error" "$work/weak.err" && pass "a read past the ECC fails with EIO" ||
    fail "weak read: rc $(cat "$work/weak.rc") $(cat "$work/weak.err")"
[ "$(cat "$work/strong.rc")" = 0 ] && pass "the rest of the card reads" || fail "a healthy read failed"
[ "$(cat "$work/first.rc")" = 0 ] && [ "$(cat "$work/second.rc")" != 0 ] && pass "writes are taken until a block wears out, and refused after" ||
    fail "writes around the end: $(cat "$work/first.rc") $(cat "$work/second.rc")"
[ "$(cat "$work/ro.rc")" != 0 ] && pass "a read-only card refuses a write: $(head -1 "$work/ro.err")" || fail "a read-only card took a write"
cmp -s "$work/first" "$work/kept" && pass "the read-only card kept its data" || fail "the read-only card's data changed"
cp "$work/worn.json" "$out"
json_eq "stats: the read error, the end of life, the refused write and the erase count" \
    "j['counters']['wear']['read_errors'] >= 1, j['counters']['wear']['end_of_life'], j['counters']['wear']['refused_writes'] >= 1, j['counters']['wear']['max_erases']" \
    "True True True 1"
no_leftovers "after a worn card"

run 127 $sim $fast --capacity 16M -- /nonexistent/command && expect "a missing COMMAND is 127" "$err" "/nonexistent/command"

# Signals: sent to mmc-sim alone (as a service manager or kill does); it passes
# them on, tears down, and exits as the shell would (130, 143).
for sig in INT TERM; do
    $sim $fast --capacity 16M -- sh -c 'touch "$1/started"; sleep 30' sh "$work" >/dev/null 2>&1 &
    pid=$!
    i=0; while [ ! -e "$work/started" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -$sig $pid
    wait $pid; got=$?
    want=130; [ $sig = TERM ] && want=143
    if [ $got -eq $want ]; then pass "SIG$sig: exit $want"; else fail "SIG$sig: exit $got, expected $want"; fi
    rm -f "$work/started"
    no_leftovers "after SIG$sig"
done

finish
