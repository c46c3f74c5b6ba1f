#!/bin/sh
# mmc-qualify end to end in the lab: a destructive run and a read-only run
# each write one bundle with every part; mmc-report reads them back.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
command -v qemu-system-x86_64 >/dev/null || { skip "lab: qemu-system-x86_64 not installed (make deps)"; finish; exit; }
res=$(mktemp -d)
trap 'rm -rf "$res" "$out" "$err"' EXIT
scripts/sdlab --size 4G --card2 1G --out "$res" --timeout 600 -- sh -c "$(cat tests/lab/guest/mmc-qualify.sh)" \
    || { fail "lab run failed"; finish; exit 1; }
rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || { fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    | /' "$res/$2.err" | tail -5; }; }
bundle_of() { grep -l "\"$1\"" "$res"/results/*.json 2>/dev/null | head -n1; }

rc "destructive run: every step ok" destructive 0
b=$(grep -l '"erase"' "$res"/results/*.json | head -n1)
if [ -n "$b" ]; then
    cp "$b" "$out"
    json_eq "bundle: measured, card QEMU! 4 GiB" "j['kind'], j['card']['product'], j['card']['capacity_bytes']" "measured QEMU! 4294967296"
    json_eq "bundle: registers, bus, erase, bench present" "all(k in j for k in ('registers','bus','erase','bench'))" "True"
    json_eq "bundle: steps info, bus, erase, bench all ok" "sorted((s['name'], s['ok']) for s in j['steps'])" \
        "[('bench-a1', True), ('bench-quick', True), ('bus', True), ('erase', True), ('info', True)]"
    json_eq "bundle: erase verified" "j['erase']['verify']['result'] in ('pass', 'warning')" "True"
    json_eq "bundle: sequential and 4K random figures" "j['results']['seq_read_mb_s'] > 0 and j['results']['rand_read_iops']['4k'] > 0 and j['results']['rand_write_iops']['4k'] > 0" "True"
    # Whether the emulated card reaches A1's IOPS depends on the host's CPU
    # (QEMU under TCG): check that every A1 claim was judged on a figure.
    json_eq "bundle: A1 verdicts judged" "len([v for v in j['verdicts'] if v['claim'].startswith('A1')]) >= 2 and all(v['result'] in ('pass', 'fail') and v['measured'] is not None for v in j['verdicts'] if v['claim'].startswith('A1'))" "True"
    json_eq "bundle: bus ceiling 13 MB/s, mode HS" "j['bus']['ceiling_mb_s'], j['bus']['ios']['mode']" "13.0 HS"
else
    fail "no destructive bundle written"
fi
expect "summary names the card" "$res/destructive.txt" "QEMU!"
expect "summary names the bus limit" "$res/destructive.txt" "Cause: +host"
expect "summary has the verdicts" "$res/destructive.txt" "A1 random read 4 KiB QD1"

rc "read-only run ok" readonly 0
rc "read-only run left the data intact" readonly-intact 0
expect "read-only run did not erase" "$res/readonly.err" "bench-quick ... ok"
if grep -q "erase ..." "$res/readonly.err"; then fail "read-only run erased"; else pass "read-only run has no erase step"; fi

rc "--destructive without --yes and no terminal is refused" refused 1
expect "refusal says why" "$res/refused.err" "without confirmation"
[ -z "$(ls "$res/refused" 2>/dev/null)" ] && pass "refused run wrote no bundle" || fail "refused run wrote a bundle"

rc "a failing step gives exit 1" broken 1
expect "the failing step is named" "$res/broken.err" "info ... failed"
expect "  with its real exit status" "$res/broken.err" "info ... failed \\(exit [1-9]"
json_eq_file() { cp "$2" "$out" && json_eq "$1" "$3" "$4"; }
b=$(ls "$res"/broken/*.json 2>/dev/null | head -n1)
[ -n "$b" ] && json_eq_file "  and the bundle records it" "$b" "[s['message'] for s in j['steps'] if s['name'] == 'info'][0].startswith('exit-') and [s['message'] for s in j['steps'] if s['name'] == 'info'][0] != 'exit-0'" "True"
[ -n "$(ls "$res"/broken/*.json 2>/dev/null)" ] && pass "the bundle is still written" || fail "no bundle after a failed step"

run 0 build/bin/mmc-report -J "$res/results" &&
    json_eq "mmc-report reads both bundles" "sum(len(g['cards']) for g in j['groups'])" "2"
finish
