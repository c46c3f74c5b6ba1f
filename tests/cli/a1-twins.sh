#!/bin/sh
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
# The served card's figures are the model's plus the host chain's cost per
# request (mmc-sim(1)): 0.1-0.4 ms on these virtual machines, a third of the
# pass card's modelled 0.33 ms read. So the assertions are the ones the
# chain cannot turn: the A1 random-write verdicts (1.5x the requirement for
# one card, a quarter of it for the other), the fail card's read verdict, the
# pass card's sustained write (1.2x), the ratio of the two cards' reads, and
# each card's sequential write against the model. The pass
# card's read verdict is printed with the table.
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

run 0 $bin/mmc-bus -J --ios tests/data/sysfs/sd-qemu/sys/kernel/debug/mmc0/ios --caps 0xc0000027 --card sd &&
    cp "$out" "$tmp/bus.json"

# bench CARD SUITE SIZE: mmc-bench -J on a fresh simulated CARD, over a
# region of SIZE, into $tmp/CARD-SUITE.json.
bench() {
    # shellcheck disable=SC2016
    run 0 taskset -c "$last_cpu" $bin/mmc-sim -p "$1" --size 256M -- sh -c '"$0" -J --suite "$1" --destructive --yes \
        --any-device --size "$2" --runtime 4s --warmup 0 "$MMC_SIM_DEV"' "$bin/mmc-bench" "$2" "$3" &&
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
json_eq "A1 random write tells them apart: pass for a1-pass-c10, fail for a1-fail-c10" \
    "(lambda v: (v[('a1-pass-c10', 'A1 random write 4 KiB QD1')], v[('a1-fail-c10', 'A1 random write 4 KiB QD1')]))($verdict)" \
    "('pass', 'fail')"
json_eq "a1-pass-c10 passes A1 sustained sequential write, as a1-fail-c10 does" \
    "(lambda v: (v[('a1-pass-c10', 'A1 sustained sequential write')], v[('a1-fail-c10', 'A1 sustained sequential write')]))($verdict)" \
    "('pass', 'pass')"
json_eq "a1-fail-c10 fails A1 random read too" \
    "(lambda v: v[('a1-fail-c10', 'A1 random read 4 KiB QD1')])($verdict)" "fail"
results="{r['card']: r for g in j['groups'] for r in g['results']}"
# Each check prints ok, or the two figures it compared.
json_eq "a1-pass-c10 reads 4 KiB at least 1.3x as fast (modelled: 2.5x)" \
    "(lambda a, b: 'ok' if a >= 1.3 * b else f'{a} vs {b} IOPS')(*[$results[c]['rand_read_iops']['4k'] for c in ('a1-pass-c10', 'a1-fail-c10')])" "ok"
# Each card's sequential write against its own model figure, held to -15%/+5%:
# two figures held to 15.25 and 15.12 MB/s are equal to within that margin.
# The host chain only ever slows the served card, and more when the CPUs are
# busy: CI measured 14.80 and 14.06 MB/s (-3% and -7%) with nothing beside
# it, and a fresh-clone make check here 13.40 (-12%) with the eMMC lab
# booting beside it. Comparing the two measured figures directly adds both
# cards' chain costs to one margin.
json_eq "equal sequential write speed: each the model's (15.25 and 15.12 MB/s), -15%/+5%" \
    "(lambda a, b: 'ok' if -0.15 <= a / 15.25 - 1 <= 0.05 and -0.15 <= b / 15.12 - 1 <= 0.05 else f'{a} vs {b} MB/s')(*[$results[c]['seq_write_mb_s'] for c in ('a1-pass-c10', 'a1-fail-c10')])" "ok"
finish
