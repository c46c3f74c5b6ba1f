# Shared by the eMMC lab suites (tests/lab/emmc-*.sh), sourced after
# tests/cli/lib.sh. Not a suite itself (not executable).
#
# One boot of the eMMC lab (scripts/sdlab --card emmc) runs every guest script
# tests/lab/guest/emmc-*.sh (tests/lab/boot-lib.sh); the results are kept in
# build/lab/emmc-results. LAB_FRESH=1 forces a new boot.
#
# To add checks: a guest script tests/lab/guest/emmc-NAME.sh that writes into
# $o, and a suite tests/lab/emmc-NAME.sh that calls `emmc_lab emmc-NAME` and
# reads "$res".
# shellcheck shell=sh
. tests/lab/boot-lib.sh

EMMCLAB_ARGS="--boot-partitions --size 4G --timeout 600"

# emmc_lab_skip_reason: why the lab cannot run on this machine (empty if it can).
emmc_lab_skip_reason() {
    if ! command -v arm-linux-gnueabihf-g++ >/dev/null; then
        echo "lab: arm-linux-gnueabihf-g++ not installed (make deps)"
    elif ! scripts/emmclab-qemu >/dev/null 2>&1; then
        echo "lab: no qemu-system-arm with an eMMC and RPMB (10.2 or later; make deps fetches one into build/)"
    fi
}

# emmc_lab_inputs: the files besides the guest scripts that a boot's results
# depend on.
emmc_lab_inputs() { echo scripts/sdlab scripts/emmclab scripts/emmclab-qemu scripts/emmclab-init scripts/lab-lib.sh build/armhf/bin/*; }

# emmc_lab NAME: cross-builds the tools, boots the shared lab (every guest
# script tests/lab/guest/emmc-*.sh, EMMCLAB_ARGS) unless results for the same
# inputs exist, and sets res to NAME's results directory. Returns 1 when the
# build or the lab fails (after printing why).
emmc_lab() {
    if ! scripts/make-locked armhf -s -j2 cross-armhf >build/lab-emmc-build.log 2>&1; then
        fail "cross build (make cross-armhf) failed"; tail -n 15 build/lab-emmc-build.log | sed 's/^/    | /'
        return 1
    fi
    lab_boot "eMMC lab" build/lab/emmc-results "--card emmc $EMMCLAB_ARGS" "$(emmc_lab_inputs)" \
        tests/lab/guest/emmc-*.sh || return 1
    res=$lab_run/$1
}

# The checks of the suites that compare EXT_CSD snapshots (hex files the
# guest writes into its results directory, $res):
# rc NAME FILE EXPECTED: FILE.rc holds EXPECTED (else its stderr is shown).
rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || { fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    stderr: /' "$res/$2.err" 2>/dev/null | head -5; }; }
# same NAME A B: EXT_CSD snapshots A and B are the same 512 bytes.
same() {
    a=$(cat "$res/$2.hex" 2>/dev/null) b=$(cat "$res/$3.hex" 2>/dev/null)
    if [ ${#a} -eq 1024 ] && [ "$a" = "$b" ]; then pass "$1"
    else fail "$1: EXT_CSD $2 and $3 differ"; $PY - "$a" "$b" <<'PYEOF'
import sys
a, b = (bytes.fromhex(x) if len(x) == 1024 else b"" for x in sys.argv[1:])
print("    " + ("; ".join(f"[{i}] 0x{a[i]:02x} / 0x{b[i]:02x}" for i in range(512) if a and b and a[i] != b[i]) or f"lengths {len(a)} {len(b)}"))
PYEOF
    fi
}
# changed NAME FROM TO INDEX VALUE: TO is FROM with byte INDEX set to VALUE, no other byte changed.
changed() {
    got=$($PY - "$res/$2.hex" "$res/$3.hex" "$4" <<'PYEOF'
import sys
a, b = (bytes.fromhex(open(p).read().strip()) for p in sys.argv[1:3])
i = int(sys.argv[3])
print(f"0x{b[i]:02x}", [j for j in range(512) if a[j] != b[j] and j != i])
PYEOF
)
    [ "$got" = "$5 []" ] && pass "$1" || fail "$1: got '$got', expected '$5 []'"
}
jq_eq() { # jq_eq NAME FILE PYEXPR EXPECTED, j the file's JSON
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($3)" "$res/$2" 2>&1)
    [ "$got" = "$4" ] && pass "$1" || fail "$1: got '$got', expected '$4'"
}
