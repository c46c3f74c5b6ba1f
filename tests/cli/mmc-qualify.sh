#!/bin/sh
# check: expect 100
# mmc-qualify on the host: options and the plan anywhere; the sysfs fixture
# card (identify and bus from the captured tree; the benchmark has no device
# and fails with its real exit status); then, as root, a simulated card
# (mmc-sim, --any-device): the geometry probe finds the model's page and AU,
# erase, capacity probe, benchmarks and the state comparison work, the bundle
# reads back in mmc-report and its database, a fake card's capacity verdict
# is an answer, not a failure, and Ctrl-C during the erase starts no later
# step (the simulated card's counters show no write).
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
q=build/bin/mmc-qualify
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT
tree=tests/data/sysfs/sd-qemu/sys
fixture="--no-ioctl --sysfs-root $tree"
# pyjson FILE EXPR: EXPR over the JSON in FILE as j.
pyjson() { $PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1" 2>&1; }
want() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', expected '$3'"; fi; }

# --- Options ---
run 0 $q --help && expect "--help on stdout" "$out" "^ mmc-qualify \\[options\\] DEVICE"
run 0 $q -V && expect "-V" "$out" "mmc-qualify from mmckit [0-9]"
run 2 $q && expect "no DEVICE: usage error" "$err" "no DEVICE given"
run 2 $q --suite quick,bogus mmcblk0 && expect "unknown suite: usage error" "$err" "unknown suite 'bogus'"
run 2 $q --suites quick,bogus mmcblk0 && expect "deprecated --suites: still --suite, and says so" "$err" "^mmc-qualify: --suites is deprecated: use --suite$"
run 2 $q --erase half mmcblk0 && expect "--erase: card or region" "$err" "expected card or region"
run 2 $q --size 0 mmcblk0 && expect "--size 0 refused" "$err" "--size 0"
run 2 $q --runtime -3s mmcblk0 && expect "--runtime must be a time above zero" "$err" "--runtime"
run 2 $q --bogus mmcblk0 && expect "unknown option: hint" "$err" "Try 'mmc-qualify --help'"

run 2 $q --erase region mmcblk0 && expect "--erase without --destructive: usage error naming --destructive" "$err" "--erase .*add --destructive"
run 2 $q -n --erase card $fixture mmcblk0 && expect "--erase card without --destructive: usage error in a dry run too" "$err" "add --destructive"
run 2 $q -n --sustained $fixture mmcblk0 && expect "--sustained without --destructive: usage error naming --destructive" "$err" "whole card; add --destructive"
run 2 $q -n --suite quick,sustained $fixture mmcblk0 && expect "--suite sustained is --sustained: the same refusal" "$err" "whole card; add --destructive"

# --- The device is checked before any step: nothing runs, no bundle ---
# (each in a directory of its own: the default ./mmc-results must not appear)
mkdir -p "$work/cwd"
(cd "$work/cwd" && exec "$OLDPWD/$q" /dev/mmcblk9) >"$out" 2>"$err"; rc=$?
want "a missing device: exit 1" "$rc" "1"
expect "a missing device: the resolver's one message, the path as typed" "$err" "^mmc-qualify: /dev/mmcblk9: no such device$"
if grep -q " \.\.\. " "$err"; then fail "a missing device: a step was run"; else pass "a missing device: no step was run"; fi
[ ! -e "$work/cwd/mmc-results" ] && pass "a missing device: no bundle, no directory" || fail "a missing device: wrote $work/cwd/mmc-results"
not_devices "mmc-qualify" "" $q --out "$work/none"
[ ! -e "$work/none" ] && pass "not a device: no bundle, no directory" || fail "not a device: wrote $work/none"
if grep -q -- "--file" "$err"; then fail "mmc-qualify advises --file, which it has not"; else pass "mmc-qualify does not advise --file"; fi
run 1 $q -n /dev/mmcblk9 && expect "dry run on a missing device: the same refusal" "$err" "^mmc-qualify: /dev/mmcblk9: no such device$"
# A block device that is not a card (the usb-reader tree's /dev/sda): a dry
# run prints the plan and says the run would be refused, and why.
reader="--no-ioctl --sysfs-root tests/data/sysfs/usb-reader/sys"
run 1 $q -n $reader sda && expect "dry run on a device that is no card: the plan" "$out" "^Plan for sda"
expect "  and the refusal, on stdout" "$out" "^A run would be refused before its first step: sda: not an MMC/SD device: sda is on USB"
expect "  and on stderr with the remedy" "$err" "^mmc-qualify: sda: not an MMC/SD device: .*; use --any-device to measure it anyway$"
run 1 $q -n -J $reader sda && json_eq "dry run -J: the refusal" "j['refused'].startswith('sda: not an MMC/SD device')" "True"
run 0 $q -n -J $fixture mmcblk0 && json_eq "dry run -J on a card: not refused" "j['refused']" "None"
run 1 $q --out "$work/reader" $reader sda && expect "a device that is no card: refused with the remedy" "$err" "use --any-device to measure it anyway$"
[ ! -e "$work/reader" ] && pass "a device that is no card: no bundle" || fail "a device that is no card: wrote $work/reader"
run 0 $q -n --any-device $reader sda && expect "--any-device: the plan, no refusal" "$out" "^Dry run: no step was run"

# --- The plan: printed, nothing done ---
run 0 $q -n --destructive --out "$work/dry" $fixture mmcblk0 &&
    expect "dry run: the erase says what it destroys" "$out" "erase +ERASES every byte of /dev/mmcblk0"
expect "dry run: the benchmarks say they write" "$out" "bench-a1 +mmc-bench suite a1: READS AND WRITES the first 64 MiB"
expect "dry run: the geometry probe reads, with the run's register sources" "$out" "geometry +mmc-probe geometry -J --no-ioctl --sysfs-root $tree mmcblk0: .*read-only"
expect "dry run: the health step reads, with the run's register sources" "$out" "health +mmc-health -J --no-ioctl --sysfs-root $tree mmcblk0: reads wear"
expect "dry run: the capacity probe says it writes" "$out" "capacity +mmc-probe capacity -J --yes --no-ioctl .*: WRITES stamps"
expect "dry run: the state comparison comes last" "$out" "bench-state +mmc-bench suite state: WRITES the first 64 MiB"
want "dry run: the order of the steps" "$(sed -n 's/^ [0-9]*\. \([a-z0-9-]*\) .*/\1/p' "$out" | tr '\n' ' ')" \
    "info bus health geometry erase capacity bench-quick bench-iozone bench-a1 bench-state "
expect "dry run: says nothing was done" "$out" "no step was run"
[ ! -e "$work/dry" ] && pass "dry run wrote no bundle" || fail "dry run created $work/dry"
run 0 $q -n -J --suite quick,a1 $fixture mmcblk0 &&
    json_eq "dry run -J: read-only plan, erase left out" "[s['name'] for s in j['plan']['steps']], j['plan']['left_out'], j['dry_run']" \
        "['info', 'bus', 'health', 'geometry', 'bench-quick', 'bench-a1'] ['erase', 'capacity', 'bench-state'] True"
run 0 $q -n --destructive --sustained $fixture mmcblk0 &&
    expect "dry run --sustained: the step says it writes the whole card" "$out" "bench-sustained +mmc-bench suite sustained: WRITES the whole card once"
want "dry run --sustained: its step before the state comparison" "$(sed -n 's/^ [0-9]*\. \([a-z0-9-]*\) .*/\1/p' "$out" | tr '\n' ' ')" \
    "info bus health geometry erase capacity bench-quick bench-iozone bench-a1 bench-sustained bench-state "
run 0 $q -n -J --destructive --suite sustained,quick $fixture mmcblk0 &&
    json_eq "dry run -J: --suite sustained is the sustained step, once" "[s['name'] for s in j['plan']['steps']][-3:]" \
        "['bench-quick', 'bench-sustained', 'bench-state']"
run 0 $q -n -J --suite state,quick $fixture mmcblk0 &&
    json_eq "dry run -J: --suite state is the state step, left out without --destructive" \
        "[s['name'] for s in j['plan']['steps']], j['plan']['left_out']" "['info', 'bus', 'health', 'geometry', 'bench-quick'] ['erase', 'capacity', 'bench-state']"

# --- Refusal: --destructive with no --yes and no terminal ---
run 1 $q --destructive --out "$work/refused" $fixture mmcblk0 </dev/null &&
    expect "--destructive without --yes and no terminal is refused" "$err" "refusing to destroy data without confirmation"
[ ! -e "$work/refused" ] && pass "the refused run did nothing" || fail "the refused run wrote $work/refused"

# --- The fixture card: identify and bus in-process; the benchmark fails for real ---
if [ -e /dev/mmcblk0 ]; then
    skip "fixture card: this machine has a real /dev/mmcblk0 the benchmark step would read"
else
    run 1 $q -J --host-label fixture --out "$work/fixture" $fixture mmcblk0 && cp "$out" "$work/run.json"
    expect "a failed step is named on stderr with its exit status" "$err" "bench-quick \\.\\.\\. failed \\(exit 1\\)"
    want "steps and their real exit statuses" "$(pyjson "$work/run.json" "[(s['name'], s['state'], s['exit_status']) for s in j['steps']]")" \
        "[('info', 'ok', 0), ('bus', 'ok', 0), ('health', 'ok', 6), ('geometry', 'failed', 1), ('bench-quick', 'failed', 1)]"
    want "run JSON: not interrupted, partial" "$(pyjson "$work/run.json" "j['interrupted'], j['partial'], j['tool']")" "False True mmc-qualify"
    run 0 build/bin/mmc-info -J $fixture mmcblk0 && cp "$out" "$work/info.json"
    want "the card identity object is mmc-info's" \
        "$(pyjson "$work/run.json" "j['card'] == json.load(open('$work/info.json'))['card']")" "True"
    bundle=$(pyjson "$work/run.json" "j['bundle']")
    if [ -f "$bundle" ]; then
        want "bundle: card, host label, bus ceiling" "$(pyjson "$bundle" "j['format'], j['card']['product'], j['host']['label'], j['bus']['ceiling_mb_s']")" \
            "mmckit-bundle QEMU! fixture 13.0"
        want "bundle: each step's exit status" "$(pyjson "$bundle" "[(s['name'], s['ok'], s['exit_status']) for s in j['steps']]")" \
            "[('info', True, 0), ('bus', True, 0), ('health', True, 6), ('geometry', False, 1), ('bench-quick', False, 1)]"
        want "bundle: the failure's message names its exit status" "$(pyjson "$bundle" "j['steps'][4]['message'].startswith('exit 1: ')")" "True"
        want "bundle: the health step's document, whole (verdict unknown: QEMU's card is in no layout's row)" \
            "$(pyjson "$bundle" "j['health']['tool'], j['health']['verdict'], 'documents' in j")" "mmc-health unknown False"
        run 0 build/bin/mmc-report "$work/fixture" &&
            expect "mmc-report shows the card's latest health" "$out" "QEMU! .*unknown"
        want "bundle: registers from the info step" "$(pyjson "$bundle" "j['registers']['tool'], 'csd' in j['registers']['registers']")" "mmc-info True"
        want "bundle: partial, not interrupted" "$(pyjson "$bundle" "j['partial'], j['interrupted']")" "True False"
        run 0 build/bin/mmc-report -J "$work/fixture" &&
            json_eq "mmc-report reads the bundle, failed step listed" \
                "sum(len(g['cards']) for g in j['groups']), [s['name'] for g in j['groups'] for s in g['failed_steps']]" "1 ['geometry', 'bench-quick']"
    else
        fail "no bundle written for the fixture card ($bundle)"
    fi
    # mmc-health not installed (mmc-qualify alone, nothing on PATH): the
    # health step is skipped with why, not failed. The geometry step needs no
    # mmc-probe (it runs in mmc-qualify): it runs, and fails as above.
    mkdir -p "$work/solo" && cp $q "$work/solo/"
    run 1 env PATH=/nonexistent "$work/solo/mmc-qualify" -J --out "$work/solo-out" $fixture mmcblk0 &&
        want "no mmc-probe: the geometry step still runs (in-process), with its real exit status" \
            "$(pyjson "$out" "' '.join(str(x) for x in (lambda s: (s['name'], s['state'], s['exit_status'], 'not found' in s['message']))(j['steps'][3]))")" \
            "geometry failed 1 False"
        want "no mmc-health: the health step is skipped, with why" "$(pyjson "$out" "j['steps'][2]['name'], j['steps'][2]['state'], j['steps'][2]['message']")" \
            "health skipped mmc-health not found beside mmc-qualify or on PATH"
    # --tune: mmc-tune bus and queue run last, as child steps with
    # the run's device sources; their documents go to the bundle's "tune"
    # part and mmc-report shows before and after. An mmc-tune beside a copy
    # of mmc-qualify stands in for the tool: it prints the contract's
    # fixtures (tests/data/report/tune-*.json) and notes its arguments.
    mkdir -p "$work/tunebin" && cp $q "$work/tunebin/"
    printf '#!/bin/sh\necho "$*" >>"%s/tune-args"\ncase $1 in\nbus) cat "%s/tests/data/report/tune-bus.json" ;;\nqueue) cat "%s/tests/data/report/tune-queue.json" ;;\n*) exit 2 ;;\nesac\n' \
        "$work" "$(pwd)" "$(pwd)" >"$work/tunebin/mmc-tune"
    chmod +x "$work/tunebin/mmc-tune"
    run 0 "$work/tunebin/mmc-qualify" -n --tune $fixture mmcblk0 &&
        want "--tune: the plan's last steps, bus then queue" "$(sed -n 's/^ [0-9]*\. \([a-z0-9-]*\) .*/\1/p' "$out" | tail -2 | tr '\n' ' ')" "tune-bus tune-queue "
    expect "--tune: the bus step plans only (-n), with the run's device sources" "$out" \
        "tune-bus +mmc-tune bus -J -n --no-ioctl --sysfs-root $tree mmcblk0: plans the bus modes .*changes nothing"
    expect "--tune: the plan is read-only" "$out" "^Plan for mmcblk0 \\(read-only\\):"
    run 0 "$work/tunebin/mmc-qualify" -n --tune --apply $fixture mmcblk0 &&
        expect "--tune --apply: the plan says the host changes" "$out" "^Plan for mmcblk0 \\(read-only; CHANGES the host's bus mode for the trials\\):"
    expect "--tune --apply: the trials, confirmed once by mmc-qualify" "$out" "tune-bus +mmc-tune bus -J --apply --yes --no-ioctl .*: CHANGES the host's bus mode .*puts the mode it found back"
    run 2 $q -n --apply $fixture mmcblk0 && expect "--apply without --tune: usage error naming --tune" "$err" "--apply .*add --tune"
    run 2 $q -n --tune --keep $fixture mmcblk0 && expect "--keep without --apply: usage error" "$err" "--keep .*add --tune --apply"
    run 1 "$work/tunebin/mmc-qualify" --tune --apply --out "$work/tune-refused" $fixture mmcblk0 </dev/null &&
        expect "--apply without --yes and no terminal is refused" "$err" "refusing to change the host's bus mode without confirmation"
    [ ! -e "$work/tune-args" ] && pass "... and mmc-tune was not run" || fail "refused, yet mmc-tune ran: $(cat "$work/tune-args")"
    run 1 "$work/tunebin/mmc-qualify" -J --tune --apply --keep --yes --host-label fixture --out "$work/tune" $fixture mmcblk0 &&
        want "--tune: both steps ran, ok" "$(pyjson "$out" "[(s['name'], s['state'], s['exit_status']) for s in j['steps'][-2:]]")" \
            "[('tune-bus', 'ok', 0), ('tune-queue', 'ok', 0)]"
    want "--tune --apply --keep: mmc-tune's arguments" "$(cat "$work/tune-args")" \
        "bus -J --apply --yes --keep --no-ioctl --sysfs-root $tree mmcblk0
queue -J --apply --yes --sysfs-root $tree mmcblk0"
    bundle=$(pyjson "$out" "j['bundle']")
    want "--tune: the bundle keeps both documents whole" \
        "$(pyjson "$bundle" "j['tune']['bus']['chosen']['mode'], len(j['tune']['bus']['trials']), j['tune']['queue']['result']['verdict']")" \
        "SDR104 3 no measurable difference"
    run 0 build/bin/mmc-report "$work/tune" &&
        expect "--tune: mmc-report shows before and after" "$out" "QEMU! .* +SDR50 at 100 MHz +43\.9 +SDR104 at 150 MHz +58\.7 +3, 1 rejected +yes$"
    run 1 "$work/tunebin/mmc-qualify" --tune --db "$work/tune.sqlite" --out "$work/tune-db" $fixture mmcblk0 &&
        want "--tune --db: the chosen mode and MB/s before and after in the database" \
            "$(sqlite3 "$work/tune.sqlite" "SELECT tune_bus_before_mode, tune_bus_before_mb_s, tune_bus_chosen_mode, tune_bus_chosen_mb_s, tune_queue_verdict FROM bundles")" \
            "SDR50|43.9|SDR104|58.7|no measurable difference"
    # --db: the bundle is stored as it finishes, and the store reads it back.
    run 1 $q --db "$work/results.sqlite" --out "$work/db" $fixture mmcblk0 && expect "--db: stored" "$out" "^Stored: .*stored"
    run 0 build/bin/mmc-report -J --db "$work/results.sqlite" &&
        json_eq "mmc-report --db reads the stored bundle" "sum(len(g['cards']) for g in j['groups'])" "1"
    # A second run of the same card: the database keeps both readings, and
    # the report shows them as the card's health history (one row). A second
    # later: a bundle made in the same second is the same bundle, stored once.
    sleep 1
    run 1 $q --db "$work/results.sqlite" --out "$work/db2" $fixture mmcblk0
    run 0 build/bin/mmc-report --db "$work/results.sqlite" &&
        expect "--db: two readings of one card are its health history" "$out" "QEMU! 4GB +unknown .* – [0-9-]{10}, – [0-9-]{10}"
fi

# --- A simulated card (root, nbdkit, nbdfuse, loop) ---
if [ "$(id -u)" -ne 0 ] || ! command -v nbdfuse >/dev/null || ! command -v nbdkit >/dev/null ||
    [ ! -e /dev/loop-control ] || [ ! -e /dev/fuse ]; then
    skip "simulated card (needs root, /dev/loop-control, /dev/fuse, nbdkit and nbdfuse)"
    finish; exit
fi
sim=build/bin/mmc-sim
export PATH="$PWD/build/bin:$PATH"

# A destructive run on a non-MMC device: identify and bus fail (exit 1),
# erase and benchmark work; everything lands in one bundle.
run 1 $sim -p class10-2015 --capacity 256M --stats "$work/stats.json" -- sh -c \
    'mmc-qualify -J --destructive --yes --any-device --erase region --size 16M --runtime 1s --suite quick \
        --card-label sim --host-label host --out "$0" "$MMC_SIM_DEV"' "$work/sim" && cp "$out" "$work/sim.json"
want "sim: steps and exit statuses" "$(pyjson "$work/sim.json" "[(s['name'], s['exit_status']) for s in j['steps']]")" \
    "[('info', 1), ('bus', 1), ('health', 1), ('geometry', 0), ('erase', 0), ('capacity', 0), ('bench-quick', 0), ('bench-state', 0)]"
want "sim: the failed step says why" "$(pyjson "$work/sim.json" "'not an MMC/SD device' in j['steps'][0]['message']")" "True"
bundle=$(pyjson "$work/sim.json" "j['bundle']")
if [ -f "$bundle" ]; then
    want "sim bundle: erase verified, figures measured" \
        "$(pyjson "$bundle" "j['erase']['verify']['result'] in ('pass', 'warning'), j['results']['seq_read_mb_s'] > 0, j['results']['rand_write_iops']['4k'] > 0")" \
        "True True True"
    # The simulated card's geometry (class10-2015: 16 KiB pages, 4 MiB AUs)
    # as mmc-probe found it through the real-time chain. Whether the ladder
    # sees the AU is logic, tested exactly on the virtual clock
    # (tests/unit/probe_geometry_cards_test.cpp); here, beside two other
    # lanes, timing noise once hid it, and in make check-all (the cross
    # builds and an ARM guest beside it) the page too: what noise cannot
    # change is asserted (a page and an AU that are the card's or none, never
    # a wrong one, and no missing page called a high-confidence answer), and
    # where the AU was found, that the erase and the state suite used it.
    au=$(pyjson "$bundle" "j['probe']['geometry']['au_size']")
    want "sim bundle: the probe's page and AU are the card's or none, never another; no page is no confident answer" \
        "$(pyjson "$bundle" "j['probe']['geometry']['page_size'] in (16384, None), j['probe']['geometry']['au_size'] in (4194304, None), j['probe']['geometry']['page_size'] is not None or j['probe']['geometry']['confidence'] != 'high'")" \
        "True True True"
    if [ "$au" = 4194304 ]; then
        want "sim bundle: with no AU in the registers, the erase aligned to the geometry step's" \
            "$(pyjson "$bundle" "j['erase']['plan']['erase_unit'], j['erase']['plan']['erase_unit_source'], j['erase']['plan']['au_aligned']")" \
            "4194304 the geometry step (mmc-probe geometry) True"
        want "sim bundle: the state suite ran on the probe's AU" \
            "$(pyjson "$bundle" "[d for d in j['bench'] if d['suite'] == 'state'][0]['notes'][-1]")" \
            "AU 4 MiB from the geometry step (mmc-probe geometry): the registers give none"
    else
        skip "sim bundle: the probe found no AU through the real-time chain this run (timing noise); the erase's and the state suite's use of it not checked here"
        want "sim bundle: with no AU from registers or probe, the erase aligns to the discard granularity" \
            "$(pyjson "$bundle" "j['erase']['plan']['erase_unit_source']")" "queue/discard_granularity"
        want "sim bundle: ... and the state suite says the AU is assumed" \
            "$(pyjson "$bundle" "[d for d in j['bench'] if d['suite'] == 'state'][0]['notes'][-1]")" \
            "the card's AU is unknown; 4 MiB assumed (an AU given overrides it)"
    fi
    want "sim bundle: capacity good, every byte usable" \
        "$(pyjson "$bundle" "j['probe']['capacity']['verdict'], j['probe']['capacity']['usable_bytes'] == j['probe']['capacity']['announced_bytes'] == 256 << 20")" \
        "good True"
    # The state suite: its line is in the bundle, and its writes (made in a
    # state chosen on purpose) are not the card's sequential write figure.
    want "sim bundle: the state comparison's line" \
        "$(pyjson "$bundle" "'after erase' in [d for d in j['bench'] if d['suite'] == 'state'][0]['state']['summary']")" "True"
    want "sim bundle: the sequential write figure is the quick suite's, not the state suite's" \
        "$(pyjson "$bundle" "j['results']['seq_write_mb_s'] == max((x for d in j['bench'] if d['suite'] == 'quick' for x in d['jobs'] if x['rw'] == 'write'), key=lambda x: x['block_size'])['mb_s']")" \
        "True"
    run 0 build/bin/mmc-report "$(dirname "$bundle")" &&
        expect "mmc-report shows the probe's answers, and how the card was attached" "$out" "sim @ host +block device loop[0-9]+ +(16 KiB|–) +(4 MiB|–) +– +[a-z–]+ +good" &&
        expect "mmc-report shows what erasing bought" "$out" "sim @ host: sequential write .* MB/s after erase"
else
    fail "sim: no bundle ($bundle)"
fi
want "sim: the card was written (the benchmark ran)" "$(pyjson "$work/stats.json" "j['counters']['write']['requests'] > 0, j['counters']['discard']['requests'] > 0")" "True True"

# A usage error inside a step is its real exit status (2), not "failed".
run 1 $sim -p class10-2015 --capacity 256M -- sh -c \
    'mmc-qualify -J --destructive --yes --any-device --erase region --size 1G --runtime 1s --suite quick \
        --out "$0" "$MMC_SIM_DEV"' "$work/big" && cp "$out" "$work/big.json"
want "a region past the card's end: the erase step exits 2, the rest still runs" \
    "$(pyjson "$work/big.json" "[(s['name'], s['exit_status']) for s in j['steps'][4:]], 'runs past the end' in j['steps'][4]['message']")" \
    "[('erase', 2), ('capacity', 0), ('bench-quick', 0), ('bench-state', 2)] True"

# A fake card (limbo: 64 MiB of 256 MiB store data): the capacity step's
# exit 10 is its answer, not a failure; the bundle and the report name it.
run 1 $sim -p class10-2015 --capacity 256M --fake limbo --real-size 64M -- sh -c \
    'mmc-qualify -J --destructive --yes --any-device --erase region --size 16M --runtime 0.5s --suite quick \
        --card-label fake --host-label host --out "$0" "$MMC_SIM_DEV"' "$work/fake" && cp "$out" "$work/fake.json"
want "fake: the capacity step is ok with its verdict's exit status" \
    "$(pyjson "$work/fake.json" "[(s['state'], s['exit_status'], s['message']) for s in j['steps'] if s['name'] == 'capacity']")" \
    "[('ok', 10, 'the card is fake (limbo): 64 MiB of 256 MiB usable')]"
bundle=$(pyjson "$work/fake.json" "j['bundle']")
if [ -f "$bundle" ]; then
    want "fake bundle: verdict limbo, usable size exact" \
        "$(pyjson "$bundle" "j['probe']['capacity']['verdict'], j['probe']['capacity']['usable_bytes'], [s['ok'] for s in j['steps'] if s['name'] == 'capacity']")" \
        "limbo 67108864 [True]"
    run 0 build/bin/mmc-report "$bundle" && expect "mmc-report names the fake" "$out" "fake @ host .*limbo: 64 MiB of 256 MiB usable"
else
    fail "fake: no bundle ($bundle)"
fi

# interrupt.sh STEP PAUSE NAME ARGS... (run by mmc-sim): mmc-qualify -J ARGS
# on the simulated card, its output in NAME.json and NAME.err; once its
# stderr shows STEP started, PAUSE seconds later, one SIGINT (Ctrl-C); its
# exit status in NAME.rc.
cat >"$work/interrupt.sh" <<'SH'
step=$1 pause=$2 name=$3; shift 3
mmc-qualify -J "$@" "$MMC_SIM_DEV" >"$name.json" 2>"$name.err" &
pid=$!
i=0
while ! grep -q "$step \.\.\." "$name.err" && [ $i -lt 2400 ]; do sleep 0.05; i=$((i + 1)); done
sleep "$pause"
kill -INT $pid
wait $pid
echo $? >"$name.rc"
SH

# Ctrl-C during the erase (a full card whose blocks take 10 ms to erase:
# about 2.5 s for each 1 GiB chunk the erase stops between): exit 130, the
# erase records it, no benchmark starts, and the card saw no write at all.
$sim -p class10-2015 --capacity 2G --state full --block-erase 10ms --stats "$work/int-stats.json" -- \
    sh "$work/interrupt.sh" erase 0.5 "$work/int" --destructive --yes --any-device --runtime 1s --suite quick,a1 \
    --out "$work/int" >/dev/null 2>&1
want "Ctrl-C during the erase: exit 130" "$(cat "$work/int.rc" 2>/dev/null)" "130"
expect "Ctrl-C: stderr says no later step started" "$work/int.err" "interrupted during the erase step; no later step was started"
want "Ctrl-C: the erase was interrupted, the benchmarks not started" \
    "$(pyjson "$work/int.json" "[(s['name'], s['state'], s['exit_status']) for s in j['steps'][3:]]")" \
    "[('geometry', 'ok', 0), ('erase', 'failed', 130), ('capacity', 'not started', None), ('bench-quick', 'not started', None), ('bench-a1', 'not started', None), ('bench-state', 'not started', None)]"
bundle=$(pyjson "$work/int.json" "j['bundle']")
[ -f "$bundle" ] && want "Ctrl-C: the bundle is written, marked interrupted and partial" \
    "$(pyjson "$bundle" "j['interrupted'], j['partial'], [s['message'] for s in j['steps']][-1]")" "True True not started: interrupted" ||
    fail "Ctrl-C: no bundle ($bundle)"
want "Ctrl-C: the card saw no write (the geometry probe only reads; no later step started)" "$(pyjson "$work/int-stats.json" "j['counters']['write']['requests']")" "0"

# Ctrl-C during the capacity probe (a slow card; the probe runs inside
# mmc-qualify): the step ends 130 with the probe's own words, every block it
# stamped is written back (past the erased first AU the card reads as
# before), and no later step starts.
$sim -p class10-2015 --capacity 64M --state full --bus-rate 2M -- sh -c '
    dd if="$MMC_SIM_DEV" iflag=direct bs=1M skip=4 status=none | sha256sum > "$0/cap.before"
    sh "$0/interrupt.sh" capacity 1 "$0/capint" --destructive --yes --any-device --erase region --size 4M --runtime 1s \
        --suite quick --out "$0/capint"
    dd if="$MMC_SIM_DEV" iflag=direct bs=1M skip=4 status=none | sha256sum > "$0/cap.after"' "$work" >/dev/null 2>&1
want "Ctrl-C during the capacity probe: exit 130" "$(cat "$work/capint.rc" 2>/dev/null)" "130"
want "Ctrl-C during the capacity probe: the step says the blocks were written back; no benchmark started" \
    "$(pyjson "$work/capint.json" "[(s['name'], s['state'], s['exit_status'], 'stamped blocks were written back' in (s['message'] or '')) for s in j['steps'][4:]]")" \
    "[('erase', 'ok', 0, False), ('capacity', 'failed', 130, True), ('bench-quick', 'not started', None, False), ('bench-state', 'not started', None, False)]"
if [ -s "$work/cap.before" ] && cmp -s "$work/cap.before" "$work/cap.after"; then
    pass "Ctrl-C during the capacity probe: the card past the erased first 4 MiB is byte-identical afterwards"
else
    fail "Ctrl-C during the capacity probe: the card changed (or was not read)"
fi
finish
