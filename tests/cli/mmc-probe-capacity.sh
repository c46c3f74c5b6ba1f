#!/bin/sh
# check: expect 100
# mmc-probe capacity: options anywhere; then, as root with loop and FUSE, the
# probe on simulated fakes served as real block devices by mmc-sim: the
# verdict, the usable size and the exit status per fake, what it says it
# wrote against the card's own counters, the device's storage byte-identical
# afterwards (read with O_DIRECT, past the page cache), the refusals, and
# Ctrl-C restoring.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
probe=build/bin/mmc-probe
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# --- Options (no device) ---
run 0 $probe capacity --help && expect "--help shows the synopsis" "$out" "capacity \[options\] DEVICE"
run 0 $probe capacity --help && expect "--help lists the exit statuses" "$out" "10 limbo, 11 wraparound, 12 chain, 13 bad"
run 0 $probe --help && expect "mmc-probe --help names capacity" "$out" "capacity"
run 0 $probe capacity -V && expect "-V" "$out" "mmc-probe from mmckit [0-9]"
run 2 $probe capacity && expect "no DEVICE" "$err" "no DEVICE given"
run 2 $probe capacity --max-cache 1x /dev/null && expect "bad --max-cache names the option" "$err" "--max-cache: '1x'"
run 2 $probe capacity --bogus /dev/null && expect "unknown option" "$err" "--bogus"
not_devices "mmc-probe capacity -n --any-device" "" $probe capacity -n --any-device
run 2 $probe frobnicate && expect "unknown subcommand" "$err" "unknown subcommand 'frobnicate'; expected geometry, capacity"

if [ "$(id -u)" -ne 0 ] || ! command -v nbdfuse >/dev/null || ! command -v nbdkit >/dev/null ||
    [ ! -e /dev/loop-control ] || [ ! -e /dev/fuse ]; then
    skip "block device tests (need root, /dev/loop-control, /dev/fuse, nbdkit and nbdfuse)"
    finish
    exit
fi

# in_sim NAME CARD-OPTIONS -- SCRIPT: runs SCRIPT (sh, $MMC_SIM_DEV set) on a
# simulated card, with the card's counters in $work/NAME.stats.
in_sim() {
    name=$1; shift
    opts=""
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift
    # shellcheck disable=SC2086
    $sim $opts --stats "$work/$name.stats" -- sh -c "$1" >"$work/$name.simout" 2>"$work/$name.simerr"
}

# storage_sum DEV BYTES: sha256 of the first BYTES (whole MiB) of DEV, past the page cache.
cat >"$work/sum.sh" <<'SH'
dd if="$1" iflag=direct bs=1M count=$(($2 / 1048576)) status=none | sha256sum
SH

# probe_fake NAME WANT_VERDICT WANT_USABLE WANT_STATUS STORAGE_BYTES CARD-OPTIONS
probe_fake() {
    name=$1 verdict=$2 usable=$3 status=$4 storage=$5; shift 5
    in_sim "$name" --capacity 64M --state full "$@" -- "
        sh $work/sum.sh \"\$MMC_SIM_DEV\" $storage >$work/$name.before
        $probe capacity --yes --any-device -J \"\$MMC_SIM_DEV\" >$work/$name.json 2>$work/$name.err
        echo \$? >$work/$name.rc
        sh $work/sum.sh \"\$MMC_SIM_DEV\" $storage >$work/$name.after"
    if [ ! -s "$work/$name.rc" ]; then
        fail "$name: the probe did not run"; sed 's/^/    | /' "$work/$name.simerr" | head -5; return
    fi
    rc=$(cat "$work/$name.rc")
    if [ "$rc" -eq "$status" ]; then pass "$name: exit status $status"; else fail "$name: exit $rc, expected $status"; sed 's/^/    | /' "$work/$name.err" | head -5; fi
    cp "$work/$name.json" "$out"
    json_eq "$name: verdict and usable size to the byte" "j['verdict'], j['usable_bytes']" "$verdict $usable"
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); s=json.load(open(sys.argv[2]));
print(j['blocks_written'] * j['block_size'] == s['counters']['write']['bytes'])" "$work/$name.json" "$work/$name.stats" 2>&1)
    if [ "$got" = True ]; then pass "$name: blocks_written is what the card was given"; else fail "$name: blocks_written vs the card's counters: $got"; fi
    if [ -s "$work/$name.before" ] && cmp -s "$work/$name.before" "$work/$name.after"; then
        pass "$name: the storage is byte-identical afterwards"
    else
        fail "$name: the storage changed (or was not read)"
    fi
}

M=1048576
probe_fake good good $((64 * M)) 0 $((64 * M))
probe_fake limbo limbo $((13 * M)) 10 $((13 * M)) --fake limbo --real-size 13M
probe_fake limbo-strict-cache limbo $((13 * M)) 10 $((13 * M)) --fake limbo --real-size 13M --cache 512k --strict-cache
probe_fake limbo-cache limbo $((13 * M)) 10 $((13 * M)) --fake limbo --real-size 13M --cache 512k
probe_fake wraparound wraparound $((16 * M)) 11 $((16 * M)) --fake wraparound --real-size 16M
probe_fake chain chain $((8 * M)) 12 $((8 * M)) --fake chain --real-size 8M --module 32M
probe_fake bad bad 0 13 0 --fake bad
cp "$work/limbo.json" "$out"
json_eq "JSON: every key of the contract" "all(k in j for k in ['tool','version','card','verdict','announced_bytes','usable_bytes','module_bytes','cache_bytes','blocks_written','seconds'])" "True"
json_eq "JSON: limbo without a cache says cache 0, no module" "j['cache_bytes'], j['module_bytes'], j['announced_bytes']" "0 None $((64 * M))"
json_eq "JSON: the sfdisk line for the usable size" "'start=2048, size=$((13 * 2048 - 2048)), type=c' in j['shrink_command'] and j['shrink_command'].endswith('| sfdisk ' + j['device'])" "True"
cp "$work/chain.json" "$out"
json_eq "JSON: chain names its module" "j['module_bytes']" "$((32 * M))"
cp "$work/limbo-cache.json" "$out"
json_eq "JSON: the cache is seen (an upper bound)" "524288 <= j['cache_bytes'] <= 524288 * 17 // 16 + 32768" "True"

# --- Refusals: nothing written ---
in_sim refuse --capacity 64M -- "
    $probe capacity \"\$MMC_SIM_DEV\" >$work/refuse-mmc.out 2>$work/refuse-mmc.err </dev/null; echo \$? >$work/refuse-mmc.rc
    $probe capacity --any-device \"\$MMC_SIM_DEV\" >$work/refuse-yes.out 2>$work/refuse-yes.err </dev/null; echo \$? >$work/refuse-yes.rc"
[ "$(cat "$work/refuse-mmc.rc" 2>/dev/null)" = 1 ] && pass "a loop device without --any-device: exit 1" || fail "non-MMC refusal: exit $(cat "$work/refuse-mmc.rc" 2>/dev/null)"
expect "the refusal says how to go on" "$work/refuse-mmc.err" "not an MMC/SD.*use --any-device"
[ "$(cat "$work/refuse-yes.rc" 2>/dev/null)" = 1 ] && pass "no terminal and no --yes: exit 1" || fail "no --yes: exit $(cat "$work/refuse-yes.rc" 2>/dev/null)"
expect "the refusal names --yes and --dry-run" "$work/refuse-yes.err" "refusing to write without confirmation.*--yes.*--dry-run"
cp "$work/refuse.stats" "$out"
json_eq "refused: the card was given no write" "j['counters']['write']['bytes']" "0"

# --- Ctrl-C: a slow card, interrupted during the cache check ---
in_sim ctrlc --capacity 64M --state full --bus-rate 2M -- "
    sh $work/sum.sh \"\$MMC_SIM_DEV\" $((64 * M)) >$work/ctrlc.before
    $probe capacity --yes --any-device -J \"\$MMC_SIM_DEV\" >$work/ctrlc.json 2>$work/ctrlc.err &
    pid=\$!
    sleep 1
    kill -INT \$pid
    wait \$pid
    echo \$? >$work/ctrlc.rc
    sh $work/sum.sh \"\$MMC_SIM_DEV\" $((64 * M)) >$work/ctrlc.after"
[ "$(cat "$work/ctrlc.rc" 2>/dev/null)" = 130 ] && pass "Ctrl-C: exit 130" || { fail "Ctrl-C: exit $(cat "$work/ctrlc.rc" 2>/dev/null)"; sed 's/^/    | /' "$work/ctrlc.err" | head -5; }
cp "$work/ctrlc.json" "$out"
json_eq "Ctrl-C: JSON says interrupted, no verdict, restored" "j['interrupted'], j['verdict'], j['restored']" "True None True"
expect "Ctrl-C: stderr says the card is as it was" "$work/ctrlc.err" "interrupted: the [0-9]+ stamped blocks were written back"
if [ -s "$work/ctrlc.before" ] && cmp -s "$work/ctrlc.before" "$work/ctrlc.after"; then
    pass "Ctrl-C: the card is byte-identical afterwards"
else
    fail "Ctrl-C: the card changed"
fi
finish
