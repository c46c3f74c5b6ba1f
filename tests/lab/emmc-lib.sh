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
