#!/bin/sh
# check: expect 20
# The test runner itself: a suite that crashes, exits non-zero or loses its
# summary line must turn "make check" red (make exits 2), and the counts must add up.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# suite NAME BODY: a throwaway suite script.
suite() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/$1"; chmod +x "$tmp/$1"; }
suite good.sh 'echo "  ok   a"; echo "good: 2 passed, 0 failed, 1 skipped"'
suite segv.sh 'echo "  ok   a"; kill -SEGV $$'
suite silent.sh 'echo "  ok   a"'
suite liar.sh 'echo "liar: 3 passed, 0 failed, 0 skipped"; exit 1'
suite failing.sh 'echo "failing: 1 passed, 2 failed, 0 skipped"; exit 1'
suite why.sh 'echo "  FAIL the page: got 8192"; echo "    | evidence 1"; echo "  ok   next"; echo "why: 1 passed, 1 failed, 0 skipped"; exit 1'
# A GoogleTest binary that dies halfway, before its summary.
suite unit_tests 'echo "[==========] Running 5 tests from 1 test suite."; kill -SEGV $$'

# The boards' suites ("# check: boards") are left out of make check, and the
# run says so by name; --boards runs only them, --all both.
# test_tree NAME: a throwaway tests directory $tmp/NAME (cli/, lab/ and a
# unit binary that passes one test) for CHECK_TESTS_DIR and CHECK_UNIT.
test_tree() {
    mkdir -p "$tmp/$1/cli" "$tmp/$1/lab"
    printf '#!/bin/sh\necho "[  PASSED  ] 1 test."\n' >"$tmp/$1/unit_tests"
    chmod +x "$tmp/$1/unit_tests"
}
test_tree t
printf '#!/bin/sh\necho "host: 1 passed, 0 failed, 0 skipped"\n' >"$tmp/t/cli/host.sh"
printf '#!/bin/sh\n# check: boards\necho "board: 1 passed, 0 failed, 0 skipped"\n' >"$tmp/t/lab/board.sh"
chmod +x "$tmp/t/cli/host.sh" "$tmp/t/lab/board.sh"
run 0 env CHECK_TESTS_DIR="$tmp/t" CHECK_UNIT="$tmp/t/unit_tests" "$top/tests/run-all" &&
    expect "make check leaves the boards' suites out" "$out" "^check: 2 passed, 0 failed, 0 skipped"
expect "  and names them" "$out" "^check: 1 suites not in this run \(make check-boards, or make check-all for both\): board.sh$"
run 0 env CHECK_TESTS_DIR="$tmp/t" CHECK_UNIT="$tmp/t/unit_tests" "$top/tests/run-all" --boards &&
    expect "--boards runs only them" "$out" "^check: 1 passed, 0 failed, 0 skipped"
expect "  and names what it left out" "$out" "^check: 1 suites not in this run \(make check\): host.sh$"
run 0 env CHECK_TESTS_DIR="$tmp/t" CHECK_UNIT="$tmp/t/unit_tests" "$top/tests/run-all" --all &&
    expect "--all runs every suite" "$out" "^check: 3 passed, 0 failed, 0 skipped"
if grep -q "not in this run" "$out"; then fail "  --all says something was left out"; else pass "  and leaves nothing out"; fi
# The busy slots default to the CPUs the runner may use, not the machine's.
run 0 taskset -c 0 env CHECK_TESTS_DIR="$tmp/t" CHECK_UNIT="$tmp/t/unit_tests" "$top/tests/run-all" &&
    expect "on one CPU (taskset), one busy group at a time" "$out" "^check: 2 suites in 4 lanes, at most 1 busy at once"

# The lanes take suites from one queue (the unit binary is one of the
# six): three suites that each wait for the other two to have started all
# pass only when they run at once. Two
# suites of one lab family (they source one NAME-lib.sh) never run at once:
# mkdir is atomic, so the second of two at once would fail.
test_tree q
for n in 1 2 3; do
    printf '#!/bin/sh\ntouch "%s/started.%s"; i=0\nwhile [ $i -lt 200 ]; do [ -e "%s/started.1" ] && [ -e "%s/started.2" ] && [ -e "%s/started.3" ] && { echo "w%s: 1 passed, 0 failed, 0 skipped"; exit 0; }; sleep 0.1; i=$((i + 1)); done\necho "  FAIL not all three started"; echo "w%s: 0 passed, 1 failed, 0 skipped"; exit 1\n' \
        "$tmp/q" "$n" "$tmp/q" "$tmp/q" "$tmp/q" "$n" "$n" >"$tmp/q/cli/wait$n.sh"
done
: >"$tmp/q/fam-lib.sh"
for n in a b; do
    printf '#!/bin/sh\n. %s/fam-lib.sh\nmkdir "%s/running" || { echo "  FAIL two of one family at once"; echo "f: 0 passed, 1 failed"; exit 1; }\nsleep 1; rmdir "%s/running"\necho "f%s: 1 passed, 0 failed, 0 skipped"\n' \
        "$tmp/q" "$tmp/q" "$tmp/q" "$n" >"$tmp/q/lab/fam-$n.sh"
done
chmod +x "$tmp/q/cli/"*.sh "$tmp/q/lab/"*.sh
run 0 env CHECK_TESTS_DIR="$tmp/q" CHECK_UNIT="$tmp/q/unit_tests" "$top/tests/run-all" &&
    expect "the lanes run three suites at once; a lab family's suites one after the other" "$out" "^check: 6 passed, 0 failed, 0 skipped"
expect "  and the run says how many lanes" "$out" "^check: 6 suites in 4 lanes, at most [0-9]+ busy at once"
expect "  the suite that starts a lab family has the time of its family's boot too" "$out" "^-- started $tmp/q/lab/fam-a.sh \(limit 1800 s\)$"
expect "  the next of its family its own" "$out" "^-- started $tmp/q/lab/fam-b.sh \(limit 900 s\)$"

# Busy suites ("# check: busy", a lab family) run at most CHECK_BUSY at
# once, while the other lanes take the suites that wait: three busy suites
# each fail if they see three of theirs running, and a quiet suite passes only
# when it sees two of them at once (so the slots are used, not one at a time).
test_tree b
for n in 1 2 3; do
    printf '#!/bin/sh\n# check: busy\ntouch "%s/run.%s"\nc=$(ls "%s" | grep -c "^run\\.")\nsleep 1.5\nrm "%s/run.%s"\n[ "$c" -le 2 ] || { echo "  FAIL $c busy at once"; echo "b%s: 0 passed, 1 failed"; exit 1; }\necho "b%s: 1 passed, 0 failed, 0 skipped"\n' \
        "$tmp/b" "$n" "$tmp/b" "$tmp/b" "$n" "$n" "$n" >"$tmp/b/cli/busy$n.sh"
done
printf '#!/bin/sh\ni=0\nwhile [ $i -lt 100 ]; do [ "$(ls "%s" | grep -c "^run\\.")" -ge 2 ] && { echo "q: 1 passed, 0 failed, 0 skipped"; exit 0; }; sleep 0.05; i=$((i + 1)); done\necho "  FAIL never two busy at once"; echo "q: 0 passed, 1 failed"; exit 1\n' \
    "$tmp/b" >"$tmp/b/cli/quiet.sh"
chmod +x "$tmp/b/cli/"*.sh
run 0 env CHECK_BUSY=2 CHECK_TESTS_DIR="$tmp/b" CHECK_UNIT="$tmp/b/unit_tests" "$top/tests/run-all" &&
    expect "busy suites run two at once, never three, beside a quiet one" "$out" "^check: 5 passed, 0 failed, 0 skipped"
expect "  and the run says how many may be busy" "$out" "^check: 5 suites in 4 lanes, at most 2 busy at once"

run 2 make -s -C "$top" check CHECK_SUITES="$tmp/segv.sh" &&
    expect "make check is red when a suite segfaults" "$out" "segv.sh: no summary line, exit 139"
expect "  and counts the crash as a failure" "$out" "^check: 0 passed, 1 failed, 0 skipped"

run 0 "$top/tests/run-all" "$tmp/good.sh" && expect "a clean suite passes" "$out" "^check: 2 passed, 0 failed, 1 skipped"
run 1 "$top/tests/run-all" "$tmp/silent.sh" && expect "a suite with no summary line fails" "$out" "silent.sh: no summary line$"
run 1 "$top/tests/run-all" "$tmp/liar.sh" && expect "a suite that exits 1 after a clean summary fails" "$out" "liar.sh: exit 1"
run 1 "$top/tests/run-all" "$tmp/unit_tests" && expect "a crashed unit binary fails" "$out" "unit_tests: no summary line, exit 139"
run 1 "$top/tests/run-all" "$tmp/good.sh" "$tmp/failing.sh" "$tmp/segv.sh" "$tmp/good.sh" &&
    expect "counts add up, and every suite after a crash still runs" "$out" "^check: 5 passed, 3 failed, 2 skipped"
expect "  a suite's own failures are not counted twice" "$out" "failing.sh: exit 1"
run 1 "$top/tests/run-all" "$tmp/why.sh" "$tmp/good.sh" &&
    $PY - "$out" <<'PY' >"$err" 2>&1 && pass "the end repeats each failed check with its evidence" || fail "the failed-check recap: $(cat "$err")"
import sys
tail = open(sys.argv[1]).read().split("check: the failed checks again:\n", 1)[1]
lines = tail.splitlines()
assert lines[0].endswith("/why.sh"), lines
assert lines[1] == "    FAIL the page: got 8192", lines
assert lines[2] == "      | evidence 1", lines
assert lines[3].startswith("check: "), lines
PY
# Two lanes (SUITE... -- SUITE...): each of these suites waits up to 10 s for
# the other to start, so both pass only when they run side by side.
for me in a b; do
    other=$([ $me = a ] && echo b || echo a)
    suite meet-$me.sh "touch $tmp/$me.started; i=0
while [ ! -e $tmp/$other.started ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
if [ -e $tmp/$other.started ]; then echo 'meet-$me: 1 passed, 0 failed, 0 skipped'; else echo 'meet-$me: 0 passed, 1 failed, 0 skipped'; exit 1; fi"
done
run 0 "$top/tests/run-all" "$tmp/meet-a.sh" -- "$tmp/meet-b.sh" && expect "suites after -- run beside the others" "$out" "^check: 2 passed, 0 failed, 0 skipped"
run 1 "$top/tests/run-all" "$tmp/good.sh" "$tmp/segv.sh" -- "$tmp/failing.sh" "$tmp/good.sh" &&
    expect "two lanes: the counts add up and a crash still shows" "$out" "^check: 5 passed, 3 failed, 2 skipped"
expect "  the crash is named" "$out" "segv.sh: no summary line, exit 139"
$PY - "$out" "$tmp/failing.sh" <<'PY' >"$err" 2>&1 && pass "  a lane's suite prints its output in one piece when it ends" || fail "a lane's output: $(cat "$err")"
import sys
lines = open(sys.argv[1]).read().splitlines()
at = lines.index("== " + sys.argv[2])
assert lines[at + 1] == "failing: 1 passed, 2 failed, 0 skipped", lines[at:at + 3]
assert lines[at + 2].startswith(f"({sys.argv[2]} took "), lines[at:at + 3]
PY
# An interrupt stops both lanes, and what they started: each of these suites
# starts a sleep and says its pid.
for me in a b; do suite slow-$me.sh "sleep 60 & echo \$! >$tmp/slow-$me.pid; wait"; done
"$top/tests/run-all" "$tmp/slow-a.sh" -- "$tmp/slow-b.sh" >"$out" 2>"$err" &
runner=$!
i=0
while { [ ! -s "$tmp/slow-a.pid" ] || [ ! -s "$tmp/slow-b.pid" ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $runner
wait $runner
status=$?
i=0
while { kill -0 "$(cat "$tmp/slow-a.pid")" || kill -0 "$(cat "$tmp/slow-b.pid")"; } 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
left=""
for me in a b; do kill -0 "$(cat "$tmp/slow-$me.pid" 2>/dev/null)" 2>/dev/null && left="$left $me"; done
[ $status -eq 130 ] && [ -z "$left" ] && [ -s "$tmp/slow-a.pid" ] && pass "an interrupt stops both lanes and what their suites started (exit 130)" ||
    fail "interrupted: exit $status, still running:${left:- none}, $(cat "$err")"
for me in a b; do kill "$(cat "$tmp/slow-$me.pid" 2>/dev/null)" 2>/dev/null; done

# An interrupt leaves a suite's trap its grace to undo what it made (a
# mount, a loop device): this one takes 2 s to clean up, then says so.
suite tidy.sh "trap 'sleep 2; echo tidy >$tmp/tidied; exit 1' TERM
echo \$\$ >$tmp/tidy.pid
sleep 60 & wait"
rm -f "$tmp/tidied" "$tmp/tidy.pid"
"$top/tests/run-all" "$tmp/tidy.sh" >"$out" 2>"$err" &
runner=$!
i=0
while [ ! -s "$tmp/tidy.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $runner
wait $runner
status=$?
[ $status -eq 130 ] && [ -s "$tmp/tidied" ] && pass "an interrupt waits for a suite's cleanup before it kills what is left (exit 130)" ||
    fail "interrupted: exit $status, cleanup $([ -s "$tmp/tidied" ] && echo finished || echo cut short): $(cat "$err")"

# A time limit per suite: one past it is stopped with what it started, and
# fails by name, long before it would have ended.
suite hang.sh '# check: limit 2
sleep 60 & echo $! >'"$tmp"'/hang.pid; wait'
t0=$(date +%s)
run 1 "$top/tests/run-all" "$tmp/hang.sh" "$tmp/good.sh" &&
    expect "a suite past its limit fails, named" "$out" "hang.sh: stopped after its limit of 2 s"
took=$(($(date +%s) - t0))
[ "$took" -lt 30 ] && pass "  within its limit and the grace period ($took s)" || fail "  a 2 s limit took $took s"
kill -0 "$(cat "$tmp/hang.pid")" 2>/dev/null && fail "  what it started is still running" || pass "  what it started was stopped"
expect "  the suites after it still run" "$out" "^check: 2 passed, 1 failed, 1 skipped"

# Started with SIGINT ignored and SIGTERM blocked (a background job of a
# non-interactive shell ignores SIGINT, and a child inherits both): every
# suite starts with default dispositions and an empty mask, so one that
# traps SIGINT sees it.
suite sigint.sh 'trap "echo \"sigint: 1 passed, 0 failed, 0 skipped\"; exit 0" INT
kill -INT $$
sleep 1
echo "  FAIL SIGINT was not delivered"; echo "sigint: 0 passed, 1 failed, 0 skipped"; exit 1'
# Signals 32 and 33 are glibc's own (thread cancellation, set*id): make
# starts its recipes with posix_spawn, which leaves 32 ignored, and neither
# Python nor libc's sigaction can reach them. The launcher ignores both with
# the raw system call (x86_64's number, as the runner's table has it), and
# the suite must find every signal at its default.
suite mask.sh 'status=$(cat /proc/self/status)
ign=$(echo "$status" | sed -n "s/^SigIgn:[[:space:]]*//p") blk=$(echo "$status" | sed -n "s/^SigBlk:[[:space:]]*//p")
if [ $((0x$ign)) -eq 0 ] && [ $((0x$blk)) -eq 0 ]; then
echo "mask: 1 passed, 0 failed, 0 skipped"; else echo "  FAIL SigIgn $ign SigBlk $blk"; echo "mask: 0 passed, 1 failed, 0 skipped"; exit 1; fi'
run 0 $PY -c 'import ctypes, os, platform, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
if platform.machine() == "x86_64":
    libc = ctypes.CDLL(None)
    ignore = (ctypes.c_ulong * 8)(1)
    for sig in (32, 33):
        assert libc.syscall(ctypes.c_long(13), ctypes.c_long(sig), ignore, None, ctypes.c_long(8)) == 0
os.execv(sys.argv[1], sys.argv[1:])' "$top/tests/run-all" "$tmp/sigint.sh" "$tmp/mask.sh" &&
    expect "started with SIGINT, 32 and 33 ignored and SIGTERM blocked, a suite still gets SIGINT, every default and an empty mask" "$out" "^check: 2 passed, 0 failed, 0 skipped"

# A suite that skipped everything is no pass: it is listed apart, with why.
suite noqemu.sh 'echo "  skip lab: qemu-system-x86_64 not installed"; echo "noqemu: 0 passed, 0 failed, 1 skipped"'
run 0 "$top/tests/run-all" "$tmp/good.sh" "$tmp/noqemu.sh" &&
    expect "a suite that ran no check is listed as skipped, with its reason" "$out" "noqemu.sh: lab: qemu-system-x86_64 not installed"
expect "  under its own heading" "$out" "^check: 1 suites ran no check \(skipped, not passed\):"

run 0 "$top/tests/run-all" "$tmp/good.sh" "$tmp/good.sh" && expect "the end says what the run took, in time and CPU" "$out" "^check: took [0-9]+ s, the suites [0-9]+ s of CPU; the slowest suites"
expect "  with each suite's seconds of wall clock and of CPU" "$out" "^ +[0-9]+ +[0-9]+  $tmp/good.sh$"

# The CPU column counts what a suite started and waited for: a child that
# does a fixed amount of work (not a fixed time, so load cannot change it)
# of about 2 s of CPU shows as at least 1.
suite spin.sh '(i=0; while [ $i -lt 2000000 ]; do i=$((i + 1)); done) || exit 1
echo "spin: 1 passed, 0 failed, 0 skipped"'
run 0 "$top/tests/run-all" "$tmp/spin.sh" && expect "a suite's CPU time includes its children's" "$out" "^\(\S*spin.sh took [0-9]+ s, ([1-9]|[0-9]{2,}) s of CPU\)$"
finish
