#!/bin/sh
# mmc-watch: its options (no uevent is needed to check them). --timeout takes
# the one duration syntax of every mmckit tool: a number
# with an optional unit, seconds without one.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
watch=build/bin/mmc-watch

run 2 $watch --timeout soon && expect "bad --timeout: the parser's words" "$err" "--timeout: 'soon': expected a time like 10s, 500ms, 2m or 1.5 \(seconds\)"
run 2 $watch --timeout 5d && expect "bad unit: the one unit list" "$err" "--timeout: '5d': unknown unit 'd' \(use ns, us, ms, s, m or h; seconds without one\)"
run 2 $watch --timeout 0 && expect "--timeout 0 refused" "$err" "--timeout 0: expected a time above zero"
run 2 $watch --timeout 0s && expect "--timeout 0s refused" "$err" "--timeout 0s: expected a time above zero"
run 0 $watch --help && expect "--help: TIME" "$out" "--timeout TIME"
# A good --timeout is accepted: the tool gets past its options. Without a
# uevent socket (no permission in a container) it fails later, with exit 1,
# never with the usage error's 2.
for t in 0.2 200ms 0.2s; do
    $watch --once --timeout "$t" >"$out" 2>"$err"
    rc=$?
    if [ "$rc" -ne 2 ]; then pass "--timeout $t accepted (exit $rc)"; else fail "--timeout $t refused: $(cat "$err")"; fi
done
finish
