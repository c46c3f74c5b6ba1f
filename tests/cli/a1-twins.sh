#!/bin/sh
# check: expect 30
# The seeds' question on presets: two cards of equal sequential write speed,
# one built to pass A1 (sim/presets/a1-pass-c10) and one to fail it
# (a1-fail-c10), measured by mmc-bench on the simulator, put in one
# mmc-report table beside the bus ceiling of the lab card's HS bus (its ios,
# 13 MB/s), and told apart by the A1 verdict.
#
# The region is 16 MiB, four AUs: within both cards' open AUs, so the random
# writes meet the model's figures for writes over open AUs, and the
# sustained write after them passes over its region three times in its
# budget (a first pass over AUs the random writes left out of order pays
# their merges).
#
# That the verdicts tell the two cards apart, by the margins their models
# set, is logic, tested exactly on the model's virtual clock
# (tests/unit/bench_preset_verdicts_test.cpp). Through the simulator's real
# chain (nbdkit, nbdfuse, loop) this suite asserts what the chain cannot
# turn: the chain only ever slows a served card (mmc-sim(1): 0.1-0.4 ms a
# request on these virtual machines), so no figure may exceed its model's
# (beyond 5%, one request's share of a short run), and a card that fails a
# claim on its model still fails it measured; the report puts both cards in
# one table beside the bus ceiling. Whether the pass card passes is printed
# with the table, not asserted: a busy host could slow it below the line.
# Everything runs on one CPU: a wake-up on another, idle virtual CPU is the
# chain's most variable cost.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
bin=$PWD/build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/fuse ] || ! command -v nbdkit >/dev/null || ! command -v nbdfuse >/dev/null; then
    skip "the A1 twins on simulated cards (need root, /dev/fuse, nbdkit and nbdfuse)"
    finish; exit $?
fi
last_cpu=$(($(nproc) - 1))

run 0 $bin/mmc-bus -J --ios tests/data/sysfs/sd-qemu/sys/kernel/debug/mmc0/ios --caps 0xc0000027 --family sd &&
    cp "$out" "$tmp/bus.json"

# bench CARD SUITE SIZE: mmc-bench -J on a fresh simulated CARD, over a
# region of SIZE, into $tmp/CARD-SUITE.json.
bench() {
    # shellcheck disable=SC2016
    run 0 taskset -c "$last_cpu" $bin/mmc-sim -p "$1" --capacity 256M -- sh -c '"$0" -J --suite "$1" --destructive --yes \
        --any-device --size "$2" --runtime 2s --warmup 0 "$MMC_SIM_DEV"' "$bin/mmc-bench" "$2" "$3" &&
        cp "$out" "$tmp/$1-$2.json"
}
for card in a1-pass-c10 a1-fail-c10; do
    # quick: sequential speeds on a clean card, over a region its writes
    # cross once (a second pass would meet the first's state, which the two
    # cards handle differently); a1: the A1 verdicts.
    bench $card quick 128M && bench $card a1 16M &&
        run 0 $bin/mmc-report --make-bundle --out "$tmp/bundles" --bus "$tmp/bus.json" --bench "$tmp/$card-quick.json" \
            --bench "$tmp/$card-a1.json" --card-label "$card" ||
        fail "$card: no bundle: $(head -3 "$err")"
done

run 0 $bin/mmc-report "$tmp/bundles" && sed -n '/Verdicts/,$p' "$out" | sed 's/^/    | /'
run 0 $bin/mmc-report -J "$tmp/bundles" || { finish; exit $?; }
json_eq "one table: two cards on one host" \
    "[(g['cards'], g['hosts']) for g in j['groups']]" "[(['a1-fail-c10', 'a1-pass-c10'], ['vm, HS'])]"
json_eq "the bus ceiling (13 MB/s) beside every verdict" \
    "sorted(set(v['bus_ceiling_mb_s'] for g in j['groups'] for v in g['verdicts'])), len([v for g in j['groups'] for v in g['verdicts']]) >= 6" \
    "[13.0] True"
verdict="{(v['card'], v['claim']): v['result'] for g in j['groups'] for v in g['verdicts']}"
json_eq "a1-fail-c10 fails A1 random write and random read (its model misses both; the chain only slows it)" \
    "(lambda v: (v[('a1-fail-c10', 'A1 random write 4 KiB QD1')], v[('a1-fail-c10', 'A1 random read 4 KiB QD1')]))($verdict)" \
    "('fail', 'fail')"
# No card measured faster than its model (mmc-sim --describe).
cp "$out" "$tmp/report.json"
for card in a1-pass-c10 a1-fail-c10; do
    $bin/mmc-sim -p $card --capacity 256M --describe -J >"$tmp/$card-model.json" || fail "$card: mmc-sim --describe failed"
done
$PY - "$tmp" >"$err" 2>&1 <<'PY' && pass "no card measured faster than its model: sequential write, 4 KiB random read (+5%)" || fail "faster than the model: $(tail -n 1 "$err")"
import json, sys
tmp = sys.argv[1]
results = {r['card']: r for g in json.load(open(f"{tmp}/report.json"))['groups'] for r in g['results']}
over = []
for card in ('a1-pass-c10', 'a1-fail-c10'):
    model = json.load(open(f"{tmp}/{card}-model.json"))['modelled']
    got = results[card]
    for what, measured, modelled in (('seq write MB/s', got['seq_write_mb_s'], model['seq_write_mb_s_clean']),
                                     ('4k read IOPS', got['rand_read_iops']['4k'], model['rand_read_iops'])):
        print(f"    {card} {what}: measured {measured}, model {modelled}")
        if measured > 1.05 * modelled:
            over.append(f"{card} {what} {measured} > {modelled}")
assert not over, over
PY
grep '^    ' "$err"
finish
