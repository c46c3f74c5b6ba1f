#!/bin/sh
# check: expect 75
# mmc-tune queue: option errors and hostile input first (no device); then,
# as root, a loop device (not a card: --any-device; -n changes nothing); then
# a simulated card (mmc-sim: nbdkit, nbdfuse, loop) whose every command costs
# 2 ms, so that 4 KiB buffered reads gain several times from a 512 KiB
# read-ahead over a 16 KiB one (16 KiB a command against 128 KiB or more):
# the tool finds it, puts the start back, its udev rule matches the card's
# loop device in `udevadm test` and not another loop device; --apply refuses
# without a yes, applies with one, --undo takes it back; two schedulers the
# card cannot tell apart give "no measurable difference" (and --emit nothing
# to emit); raced with read-aheads that differ, the read-ahead changes and
# the scheduler in force is kept; a SIGINT once the
# measurement has changed the read-ahead puts the start back (exit 130).
# Real time: only what noise cannot change is asserted (the race's exact
# logic is tests/unit/tune_queue_race_test.cpp's, on a virtual clock).
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
T=build/bin/mmc-tune
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# --- Options and hostile input (no device touched) --------------------------
run 2 $T queue && expect "no DEVICE" "$err" "no DEVICE given"
run 2 $T queue --time 0 /dev/null && expect "--time 0 refused" "$err" "--time 0: give a time above zero"
run 2 $T queue --time 5d /dev/null && expect "--time: the one duration parser's message" "$err" "--time: '5d': unknown unit 'd'"
run 2 $T queue --read-ahead 1x /dev/null && expect "--read-ahead: a bad size names the option" "$err" "--read-ahead: '1x'"
run 2 $T queue --read-ahead 1500 /dev/null && expect "--read-ahead: whole KiB only" "$err" "--read-ahead 1500: a whole number of KiB"
run 2 $T queue --read-ahead 128k,,512k /dev/null && expect "--read-ahead: an empty item" "$err" "an empty item in the list"
run 2 $T queue --offset 1M /dev/null && expect "--offset alone: it qualifies --destructive" "$err" "give it too"
run 2 $T queue --destructive /dev/null && expect "--destructive needs its scratch region" "$err" "give --size"
run 2 $T queue --apply --undo /dev/null && expect "--apply and --undo contradict" "$err" "contradict"
run 2 $T queue --undo --emit x /dev/null && expect "--undo alone" "$err" "give it alone"
run 1 $T queue /dev/mmcblk99 && expect "no such device, named as typed" "$err" "^mmc-tune: /dev/mmcblk99: no such device"
run 1 $T queue "$work" && expect "a directory is not a block device" "$err" "not a block device"
run 0 $T queue --help && expect "--help: the synopsis" "$out" "queue \[options\] DEVICE"
run 0 $T --help && expect "the tool's --help lists queue" "$out" "^ queue  "
run 2 $T queu /dev/null && expect "an unknown subcommand names every one" "$err" "expected emmc, bus, queue or rpmb"

# --- A loop device: not a card ----------------------------------------------
loop=""
if [ "$(id -u)" -eq 0 ] && truncate -s 32M "$work/disk.img" && loop=$(losetup -f --show "$work/disk.img" 2>/dev/null); then
    q=/sys/block/${loop#/dev/}/queue
    run 1 $T queue "$loop" && expect "a loop device without --any-device: refused with the remedy" "$err" "not an MMC/SD device: .*use --any-device to measure it anyway"
    ra0=$(cat $q/read_ahead_kb)
    run 0 $T queue -n --any-device --read-ahead 16k,64k "$loop" &&
        expect "-n lists the candidates" "$out" "^  .*read-ahead 64 KiB$"
    [ "$(cat $q/read_ahead_kb)" = "$ra0" ] && pass "-n changed nothing" || fail "-n changed read_ahead_kb: $ra0 -> $(cat $q/read_ahead_kb)"
    run 2 $T queue --any-device --scheduler 'bogus' "$loop" && expect "a scheduler the kernel does not offer" "$err" "offers no such scheduler"
    run 2 $T queue --any-device --scheduler "$(sed 's/.*\[\(.*\)\].*/\1/' $q/scheduler)" --read-ahead "${ra0}k" "$loop" &&
        expect "one candidate: nothing to compare" "$err" "nothing to compare it with"
    run 1 $T queue --any-device --apply --read-ahead 16k "$loop" </dev/null &&
        expect "--apply with no terminal and no --yes: refused before measuring" "$err" "without confirmation.*--yes"
    losetup -d "$loop"
else
    for n in 1 2 3 4 5 6; do skip "loop device tests (need root and a free loop device)"; done
fi

# --- A simulated card ---------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v nbdfuse >/dev/null && command -v nbdkit >/dev/null && command -v udevadm >/dev/null &&
    [ -e /dev/fuse ] && [ -e /dev/loop-control ]; then
    truncate -s 16M "$work/other.img"
    # The runs, inside mmc-sim's life; what they say is checked below.
    cat >"$work/inner.sh" <<'EOF'
T=$1 W=$2 dev=$MMC_SIM_DEV
q=/sys/block/${dev#/dev/}/queue
s0=$(sed 's/.*\[\(.*\)\].*/\1/' $q/scheduler)
echo "$s0" >$W/s0
echo 16 >$q/read_ahead_kb
race() { "$T" queue --any-device --runtime 0.3s "$@" "$dev"; }
# The read-ahead race, the start's scheduler only: two candidates.
race --scheduler "$s0" --read-ahead 512k --time 20s -J --emit $W/emitted.rules >$W/race.json 2>$W/race.err; echo $? >$W/race.rc
cat $q/read_ahead_kb >$W/ra_after_race
# The rule in udev's runtime directory, tested on the card and another loop
# device (udevadm test of systemd 252 performs the ATTR writes it matches).
made_run_udev=0; [ -d /run/udev ] || made_run_udev=1
mkdir -p /run/udev/rules.d
cp $W/emitted.rules /run/udev/rules.d/60-mmckit-queue-test-$$.rules
udevadm test --action=add /sys/block/${dev#/dev/} >$W/udev-card.txt 2>&1
other=$(losetup -f --show $W/other.img)
udevadm test --action=add /sys/block/${other#/dev/} >$W/udev-other.txt 2>&1
losetup -d $other
rm -f /run/udev/rules.d/60-mmckit-queue-test-$$.rules
[ $made_run_udev = 1 ] && rm -rf /run/udev
echo 16 >$q/read_ahead_kb
export MMCKIT_UDEV_RULES_DIR=$W/rules MMCKIT_RUN_DIR=$W/run
race --scheduler "$s0" --read-ahead 512k --time 20s --apply --yes -J >$W/apply.json 2>$W/apply.err; echo $? >$W/apply.rc
cat $q/read_ahead_kb >$W/ra_applied; ls $W/rules >$W/rules_applied 2>&1
"$T" queue --any-device --undo -J "$dev" >$W/undo.json 2>$W/undo.err; echo $? >$W/undo.rc
cat $q/read_ahead_kb >$W/ra_undone; ls -A $W/rules >$W/rules_undone 2>&1
# Two schedulers a card that serves one command at a time cannot tell apart;
# nothing to emit.
echo 512 >$q/read_ahead_kb
race --scheduler none,mq-deadline --read-ahead 512k --time 20s -J --emit $W/same.rules >$W/same.json 2>$W/same.err; echo $? >$W/same.rc
# Both knobs at once: read-aheads that differ, schedulers that cannot.
echo 16 >$q/read_ahead_kb
race --scheduler none,mq-deadline --read-ahead 512k --time 30s -J >$W/knobs.json 2>$W/knobs.err; echo $? >$W/knobs.rc
# Writes and a discard in a scratch region (the data there is the card's to lose).
race --scheduler none,mq-deadline --read-ahead 512k --time 8s --destructive --offset 64M --size 64M --yes -J \
    >$W/destructive.json 2>$W/destructive.err; echo $? >$W/destructive.rc
# SIGINT once the measurement has put 512 KiB in force (the handshake).
echo 16 >$q/read_ahead_kb
"$T" queue --any-device --runtime 0.3s --scheduler "$s0" --read-ahead 512k --time 60s -J "$dev" >$W/int.json 2>$W/int.err &
pid=$!
i=0; while [ "$(cat $q/read_ahead_kb)" = 16 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
cat $q/read_ahead_kb >$W/ra_during
kill -INT $pid; wait $pid; echo $? >$W/int.rc
cat $q/read_ahead_kb >$W/ra_after_int; cat $q/scheduler >$W/sched_after_int
EOF
    $sim --capacity 256M --state clean --command 2ms -- sh "$work/inner.sh" "$PWD/$T" "$work" >"$out" 2>"$err" ||
        { fail "mmc-sim run failed"; sed 's/^/    | /' "$err" | head -5; }
    cp "$work/race.json" "$out"
    [ "$(cat "$work/race.rc")" = 0 ] && pass "race on the simulated card: exit 0" || { fail "race: exit $(cat "$work/race.rc")"; sed 's/^/    | /' "$work/race.err" | head -5; }
    json_eq "it finds the 512 KiB read-ahead better (a change, by more than the noise)" \
        "j['result']['read_ahead_kb'], j['result']['verdict'], j['result']['change']" "512 better True"
    json_eq "512 KiB is at least twice as fast on seq-read (the model: 8x fewer commands)" \
        "min(m['mb_s'] for m in j['measured'] if m['read_ahead_kb'] == 512 and m['suite'] == 'seq-read') > 2 * max(m['mb_s'] for m in j['measured'] if m['read_ahead_kb'] == 16 and m['suite'] == 'seq-read')" "True"
    json_eq "the contract: each measured with its interval and runs" \
        "sorted(j['measured'][0]), j['measured'][0]['interval'][0] <= j['measured'][0]['mb_s'] <= j['measured'][0]['interval'][1]" \
        "['interval', 'mb_s', 'read_ahead_kb', 'runs', 'scheduler', 'suite'] True"
    json_eq "the start put back, and said so" "j['restored'], j['start']['read_ahead_kb'], j['tool'], j['subcommand']" "True 16 mmc-tune queue"
    [ "$(cat "$work/ra_after_race")" = 16 ] && pass "read_ahead_kb is 16 again after measuring" || fail "read_ahead_kb after measuring: $(cat "$work/ra_after_race")"
    json_eq "the rule: matched by the loop's backing file, sets 512 KiB; nothing changed" \
        "j['persistent'][0]['kind'], 'ATTR{loop/backing_file}==' in j['persistent'][0]['text'], 'ATTR{queue/read_ahead_kb}=\"512\"' in j['persistent'][0]['text'], j['applied']" \
        "udev-rule True True None"
    cmp -s "$work/emitted.rules" /dev/stdin <<EOF && pass "--emit wrote the rule printed" || fail "--emit: the file differs from the JSON's rule"
$($PY -c "import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))['persistent'][0]['text'])" "$work/race.json")
EOF
    expect "udevadm test: the rule matches the simulated card's loop device" "$work/udev-card.txt" "60-mmckit-queue-test-[0-9]+.rules:[0-9]+ ATTR '.*/queue/read_ahead_kb' writing '512'"
    grep -q "60-mmckit-queue-test" "$work/udev-other.txt" && grep -q "Reading rules file: .*60-mmckit-queue-test" "$work/udev-other.txt" &&
        ! grep -q "60-mmckit-queue-test-[0-9]*.rules:[0-9]* ATTR" "$work/udev-other.txt" &&
        pass "udevadm test: it was read, and matches no other loop device" || { fail "udevadm test on another loop device"; grep mmckit "$work/udev-other.txt" | sed 's/^/    | /' | head -5; }
    cp "$work/apply.json" "$out"
    [ "$(cat "$work/apply.rc")" = 0 ] && pass "--apply --yes: exit 0" || { fail "--apply: exit $(cat "$work/apply.rc")"; sed 's/^/    | /' "$work/apply.err" | head -5; }
    json_eq "--apply: what it changed, printed" "[c['what'] for c in j['applied']['changes']], j['applied']['changes'][-1]['from'], j['applied']['changes'][-1]['to']" \
        "['udev rule', 'queue/read_ahead_kb'] 16 512"
    [ "$(cat "$work/ra_applied")" = 512 ] && grep -q "^60-mmckit-queue-loop-.*\.rules$" "$work/rules_applied" &&
        pass "--apply: 512 KiB in force and the rule in MMCKIT_UDEV_RULES_DIR" || fail "--apply: read_ahead_kb $(cat "$work/ra_applied"), rules: $(cat "$work/rules_applied")"
    cp "$work/undo.json" "$out"
    [ "$(cat "$work/undo.rc")" = 0 ] && [ "$(cat "$work/ra_undone")" = 16 ] && [ ! -s "$work/rules_undone" ] &&
        pass "--undo: the rule removed, 16 KiB back" || fail "--undo: exit $(cat "$work/undo.rc"), read_ahead_kb $(cat "$work/ra_undone"), rules: $(cat "$work/rules_undone")"
    json_eq "--undo: its changes" "[c['what'] for c in j['undone']['changes']]" "['udev rule', 'queue/read_ahead_kb']"
    cp "$work/same.json" "$out"
    [ "$(cat "$work/same.rc")" = 0 ] || { fail "same: exit $(cat "$work/same.rc")"; sed 's/^/    | /' "$work/same.err" | head -5; }
    json_eq "two schedulers the card cannot tell apart: no measurable difference, the current setting kept, no rule" \
        "j['result']['verdict'], j['result']['change'], j['result']['scheduler_decision']['reason'].startswith('kept, the current setting'), j['persistent']" \
        "no measurable difference False True []"
    json_eq "--emit with nothing to emit: exit 0, no file, a sentence, persistent_not_written with its reason" \
        "$(cat "$work/same.rc"), __import__('os').path.exists('$work/same.rules'), any(n.startswith('--emit $work/same.rules: nothing written: ') for n in j['notes']), sorted(j['persistent_not_written'])" \
        "0 False True ['reason']"
    cp "$work/knobs.json" "$out"
    [ "$(cat "$work/knobs.rc")" = 0 ] || { fail "knobs: exit $(cat "$work/knobs.rc")"; sed 's/^/    | /' "$work/knobs.err" | head -5; }
    json_eq "both knobs raced: the read-ahead changed to 512 KiB on its own evidence" \
        "j['result']['read_ahead_kb'], j['result']['read_ahead_decision']['change'], j['result']['change']" "512 True True"
    json_eq "both knobs raced: the scheduler kept, the one in force, and said so" \
        "j['result']['scheduler'] == j['start']['scheduler'], j['result']['scheduler_decision']['change'], j['result']['scheduler_decision']['reason'].startswith('kept, the current setting (' + j['start']['scheduler'] + ')')" \
        "True False True"
    cp "$work/destructive.json" "$out"
    [ "$(cat "$work/destructive.rc")" = 0 ] && pass "--destructive: exit 0" || { fail "--destructive: exit $(cat "$work/destructive.rc")"; sed 's/^/    | /' "$work/destructive.err" | head -5; }
    json_eq "--destructive: the write suites measured, and a timed discard of the 64 MiB region gives a policy" \
        "sorted({m['suite'] for m in j['measured']}), j['discard']['measured_bytes'], j['discard']['advice'] in ('discard', 'fstrim.timer'), j['discard']['seconds_per_gib'] > 0" \
        "['rand-read', 'rand-write', 'seq-read', 'seq-write'] 67108864 True True"
    [ "$(cat "$work/ra_during")" = 512 ] && pass "SIGINT handshake: the measurement had put 512 KiB in force" || fail "handshake: read_ahead_kb $(cat "$work/ra_during")"
    [ "$(cat "$work/int.rc")" = 130 ] && pass "SIGINT: exit 130" || fail "SIGINT: exit $(cat "$work/int.rc")"
    [ "$(cat "$work/ra_after_int")" = 16 ] && grep -q "\[$(cat "$work/s0")\]" "$work/sched_after_int" &&
        pass "SIGINT: the start read-ahead and scheduler back" || fail "SIGINT: read_ahead_kb $(cat "$work/ra_after_int"), scheduler $(cat "$work/sched_after_int")"
    cp "$work/int.json" "$out"
    json_eq "SIGINT: the JSON says interrupted and restored" "j['interrupted'], j['restored']" "True True"
    expect "SIGINT: the message says what is back" "$work/int.err" "interrupted; .*read-ahead 16 KiB is back in force"
else
    for n in $(seq 1 26); do skip "simulated card tests (need root, nbdkit, nbdfuse, udevadm, /dev/fuse and loop)"; done
fi

finish
