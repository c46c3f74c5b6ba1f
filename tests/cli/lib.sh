# Shared by the tool-level test scripts: run a command, check its exit status
# and output, count results, and end with "<suite>: N passed, M failed, K skipped".
# shellcheck shell=sh
passed=0 failed=0 skipped=0
# Debian's python3 when there is one: a pyenv shim costs a second per call.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
suite=$(basename "$0" .sh)
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# run EXPECTED_STATUS CMD... : runs CMD, keeps stdout in $out and stderr in $err.
run() {
    want=$1; shift
    "$@" >"$out" 2>"$err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "exit $got, expected $want: $*"; sed 's/^/    stderr: /' "$err" | head -5
        return 1
    fi
    return 0
}
pass() { passed=$((passed + 1)); echo "  ok   $1"; }
fail() { failed=$((failed + 1)); echo "  FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "  skip $1"; }
# expect NAME FILE PATTERN: grep -E PATTERN in FILE.
expect() { if grep -qE -- "$3" "$2"; then pass "$1"; else fail "$1: /$3/ not in output"; sed 's/^/    | /' "$2" | head -8; fi; }
# json_eq NAME PYEXPR EXPECTED: evaluates PYEXPR over the JSON in $out as j.
json_eq() {
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$out" 2>&1)
    if [ "$got" = "$3" ]; then pass "$1"; else fail "$1: got '$got', expected '$3'"; fi
}
finish() {
    echo "$suite: $passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
}
