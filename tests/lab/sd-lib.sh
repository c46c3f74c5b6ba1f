# Shared by the SD lab suites (tests/lab/mmc-{info,health,bus,erase,qualify,format,bench}.sh),
# sourced after tests/cli/lib.sh. Not a suite itself (not executable).
#
# One boot of the x86 SD lab (scripts/sdlab: sdhci-pci, a 4 GiB SDHC card at
# mmcblk0 and a 1 GiB SDSC card at mmcblk1, each on its own controller) runs
# the guest scripts tests/lab/guest/mmc-NAME.sh of SDLAB_GUESTS in turn
# (tests/lab/boot-lib.sh); the results are kept in build/lab/sd-results.
# LAB_FRESH=1 forces a new boot. The order matters: info first, because
# QEMU's card sets the CSD's COPY bit on its first write (sysfs keeps the CSD
# read at boot); bench last, because it unbinds the second card's controller.
# mmc-watch (which rebinds controllers and reads the kernel's events) and the
# simulated cards (sim-card) boot labs of their own.
#
# To add checks: a guest script tests/lab/guest/mmc-NAME.sh that writes into
# $o, NAME in SDLAB_GUESTS, and a suite tests/lab/mmc-NAME.sh that calls
# `sd_lab mmc-NAME` and reads "$res".
# shellcheck shell=sh
. tests/lab/boot-lib.sh

SDLAB_ARGS="--size 4G --card2 1G --timeout 1800"
SDLAB_GUESTS="info health bus erase qualify format bench"

# sd_lab_skip_reason: why the lab cannot run on this machine (empty if it can).
sd_lab_skip_reason() {
    command -v qemu-system-x86_64 >/dev/null || echo "lab: qemu-system-x86_64 not installed (make deps)"
}

# sd_lab NAME: boots the shared lab unless results for the same inputs exist,
# and sets res to NAME's results directory. Returns 1 when the lab fails
# (after printing why).
sd_lab() {
    # shellcheck disable=SC2046
    lab_boot "SD lab" build/lab/sd-results "$SDLAB_ARGS" \
        "scripts/sdlab scripts/sdlab-init scripts/capture-sysfs $(echo build/bin/*)" \
        $(for n in $SDLAB_GUESTS; do echo "tests/lab/guest/mmc-$n.sh"; done) || return 1
    res=$lab_run/$1
}
