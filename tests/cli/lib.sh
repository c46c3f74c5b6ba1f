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

# not_devices NAME FILE-HINT CMD... : CMD with, in turn, a missing path, a
# directory, a regular file and /dev/null after its arguments. Each exits 1
# with the one wording of dev/resolver, keeping the path as typed: "PATH: no
# such device" or "PATH: not a block device" (followed by FILE-HINT, a
# regex, for the directory and the file: the tool's way to measure a file,
# or nothing), and never advises --any-device, which would not help.
not_devices() {
    nd_name=$1 nd_hint=$2; shift 2
    nd_dir=$(mktemp -d)
    : >"$nd_dir/image"
    run 1 "$@" "$nd_dir/missing" &&
        expect "$nd_name: a missing path: no such device" "$err" "^[a-z-]+: $nd_dir/missing: no such device$"
    for nd_path in "$nd_dir" "$nd_dir/image" /dev/null; do
        nd_what="a directory" nd_tail=$nd_hint
        [ "$nd_path" = "$nd_dir/image" ] && nd_what="a regular file"
        [ "$nd_path" = /dev/null ] && nd_what="/dev/null" nd_tail=""
        run 1 "$@" "$nd_path" &&
            expect "$nd_name: $nd_what is not a block device" "$err" "^[a-z-]+: $nd_path: not a block device$nd_tail$"
        if grep -q -- --any-device "$err"; then fail "$nd_name: $nd_what: --any-device advised"; else pass "$nd_name: $nd_what: no --any-device advice"; fi
    done
    rm -rf "$nd_dir"
}

# need_sim_chain: ends the suite here, the rest skipped, unless a simulated
# card can be served through the real chain (mmc-sim: root, loop, FUSE,
# nbdkit, nbdfuse). Sets $fast: flash timings that keep a suite quick.
need_sim_chain() {
    if [ "$(id -u)" -ne 0 ] || ! command -v nbdfuse >/dev/null || ! command -v nbdkit >/dev/null ||
        [ ! -e /dev/loop-control ] || [ ! -e /dev/fuse ]; then
        skip "block device tests (need root, /dev/loop-control, /dev/fuse, nbdkit and nbdfuse)"
        finish
        exit
    fi
    fast="--command 20us --page-read 10us --page-program 20us --block-erase 100us --au-cross 0ns --bus-rate 2e9"
}
