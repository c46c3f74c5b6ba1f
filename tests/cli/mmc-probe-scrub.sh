#!/bin/sh
# check: expect 5
# mmc-probe scrub: options; then, as root with loop and FUSE, through the
# real chain (mmc-sim: nbdkit, nbdfuse, loop): a worn card's weak region
# named at its offset, an unreadable page named by its blocks, nothing written.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
probe=build/bin/mmc-probe
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

run 0 $probe scrub --help && expect "--help shows the synopsis" "$out" "scrub \[options\] DEVICE"
run 0 $probe --help && expect "mmc-probe --help names scrub" "$out" "scrub"
run 2 $probe scrub && expect "no DEVICE" "$err" "no DEVICE given"
run 2 $probe scrub --bogus /dev/null && expect "unknown option" "$err" "--bogus"

need_sim_chain
# The weak region's reads need 7 retries of every page: over 4 times a
# healthy read here, a margin no host's own latency closes.
$sim $fast --capacity 128M --weak 32M,16M,7 --weak 83902464,16k,9 --stats "$work/stats.json" -- \
    sh -c "$probe scrub --any-device -J \"\$MMC_SIM_DEV\" >$work/scrub.json 2>$work/scrub.err; echo \$? >$work/scrub.rc" \
    >/dev/null 2>"$work/sim.err" || true
[ "$(cat "$work/scrub.rc" 2>/dev/null)" = 16 ] && pass "read errors: exit 16" || fail "exit $(cat "$work/scrub.rc" 2>/dev/null): $(cat "$work/scrub.err" "$work/sim.err" 2>/dev/null | head -3)"
cp "$work/scrub.json" "$out" 2>/dev/null || : >"$out"
json_eq "every byte read, in 16 MiB regions" "j['bytes_read'], len(j['regions']), j['regions'][2]['offset'], j['regions'][2]['size']" "134217728 8 33554432 16777216"
json_eq "the weak region named at its offset and size" "[(s['offset'], s['size'], s['factor'] > 2) for s in j['slow_regions']]" "[(33554432, 16777216, True)]"
json_eq "the unreadable page named by its blocks" "j['read_error_count'], j['read_errors'][0]['offset'], j['read_errors'][-1]['offset']" "32 83902464 83918336"
cp "$work/stats.json" "$out" 2>/dev/null || : >"$out"
json_eq "nothing written" "j['counters']['write']['requests']" "0"
finish
