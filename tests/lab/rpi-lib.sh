# Shared by the Raspberry Pi lab suites (tests/lab/rpi-*.sh), sourced after
# tests/cli/lib.sh. Not a suite itself (not executable).
#
# One boot of the Pi lab (scripts/sdlab --board rpi3: QEMU's raspi3b, the
# card on the Pi's own SD host, sdhost-bcm2835) runs the guest scripts
# tests/lab/guest/rpi-NAME.sh of RPILAB_GUESTS in turn, each in a subshell
# with its own results directory $o ($SDLAB_OUT/rpi-NAME); each host-side
# suite then checks its part (tests/lab/boot-lib.sh); the results are kept in
# build/lab/rpi-results. LAB_FRESH=1 forces a new boot.
# The order matters: info first, because QEMU's card sets the CSD's COPY bit
# on its first write (sysfs keeps the CSD read at boot); watch last, because
# it rebinds the SD host.
#
# To add checks: a guest script tests/lab/guest/rpi-NAME.sh that writes into
# $o, and a suite tests/lab/rpi-NAME.sh that calls `rpi_lab rpi-NAME` and
# reads "$res".
# shellcheck shell=sh
. tests/lab/boot-lib.sh

RPILAB_ARGS="--size 4G --timeout 600"
RPILAB_GUESTS="info erase bench watch"

# rpi_lab_skip_reason: why the lab cannot run on this machine (empty if it can).
rpi_lab_skip_reason() {
    if ! command -v aarch64-linux-gnu-g++ >/dev/null; then
        echo "lab: aarch64-linux-gnu-g++ not installed (make deps)"
    elif ! scripts/emmclab-qemu >/dev/null 2>&1; then
        echo "lab: no qemu-system-arm package (scripts/emmclab-qemu) with qemu-system-aarch64 (make deps fetches one into build/)"
    fi
}

rpi_guest_files() { for n in $RPILAB_GUESTS; do echo "tests/lab/guest/rpi-$n.sh"; done; }

# rpi_lab NAME: cross-builds the tools, boots the shared lab (every guest
# script tests/lab/guest/rpi-*.sh, RPILAB_ARGS) unless results for the same
# inputs exist, and sets res to NAME's results directory. Returns 1 when the
# build or the lab fails (after printing why).
rpi_lab() {
    if ! scripts/make-locked arm64 -s -j2 cross-arm64 >build/lab-rpi-build.log 2>&1; then
        fail "cross build (make cross-arm64) failed"; tail -n 15 build/lab-rpi-build.log | sed 's/^/    | /'
        return 1
    fi
    # shellcheck disable=SC2046
    lab_boot "Pi lab" build/lab/rpi-results "--board rpi3 $RPILAB_ARGS" \
        "scripts/sdlab scripts/rpilab scripts/rpilab-init scripts/lab-lib.sh $(echo build/arm64/bin/*)" \
        $(rpi_guest_files) || return 1
    res=$lab_run/$1
}

# Checks over a results directory $res.
rpi_rc() { # rpi_rc NAME FILE EXPECTED: FILE.rc holds EXPECTED
    if [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ]; then pass "$1"; else
        fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    stderr: /' "$res/$2.err" 2>/dev/null | head -5
    fi
}
rpi_check() { # rpi_check NAME FILE PYEXPR EXPECTED: PYEXPR over FILE's JSON as j
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($3)" "$res/$2" 2>&1 | tail -n1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: got '$got', expected '$4'"; fi
}
