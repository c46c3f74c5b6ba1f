# Shared by the eMMC lab suites (tests/lab/emmc-*.sh), sourced after
# tests/cli/lib.sh. Not a suite itself (not executable).
#
# One boot of the eMMC lab (scripts/sdlab --card emmc) runs every guest script
# tests/lab/guest/emmc-*.sh in turn, each in a subshell with its own results
# directory $o ($SDLAB_OUT/NAME, NAME the script's name without .sh); each
# host-side suite then checks its own part. The results are kept in
# build/lab/emmc-results/KEY, KEY a hash of everything that went into the run
# (the guest scripts, the cross-built tools, the lab's scripts and options),
# so the suites of one `make check` share one boot and a change to any input
# boots again. EMMCLAB_FRESH=1 forces a new boot.
#
# To add checks: a guest script tests/lab/guest/emmc-NAME.sh that writes into
# $o, and a suite tests/lab/emmc-NAME.sh that calls `emmc_lab emmc-NAME` and
# reads "$res".
# shellcheck shell=sh

EMMCLAB_ARGS="--boot-partitions --size 4G --timeout 600"

# emmc_lab_skip_reason: why the lab cannot run on this machine (empty if it can).
emmc_lab_skip_reason() {
    if ! command -v arm-linux-gnueabihf-g++ >/dev/null; then
        echo "lab: arm-linux-gnueabihf-g++ not installed (make deps)"
    elif ! scripts/emmclab-qemu >/dev/null 2>&1; then
        echo "lab: no qemu-system-arm 10 or later with an eMMC (make deps fetches one into build/)"
    fi
}

# emmc_boot ARGS DIR LABEL GUEST...: boots the lab with ARGS (scripts/sdlab
# --card emmc options) to run each guest script GUEST in turn, unless DIR
# already holds results of the same inputs, and sets lab_run to the results'
# directory (one subdirectory per guest script, by its name without .sh).
# The results are kept in DIR/KEY, KEY a hash of everything that went into the
# run (ARGS, the guest scripts, the cross-built tools, the lab's scripts);
# only the newest are kept. Returns 1 when the lab fails (after printing why).
emmc_boot() {
    args=$1 dir=$2 label=$3; shift 3
    key=$( { echo "$args"
             for f in "$@" scripts/sdlab scripts/emmclab scripts/emmclab-init \
                      build/armhf/bin/*; do echo "$f"; cat "$f"; done; } | sha256sum | cut -c1-16)
    lab_run=$dir/$key
    if [ -z "${EMMCLAB_FRESH:-}" ] && [ -f "$lab_run/.complete" ]; then
        echo "  ($label results of $(cat "$lab_run/.complete") reused: same tools and guest scripts)"
        return 0
    fi
    script=""
    for f in "$@"; do
        n=$(basename "$f" .sh)
        script="$script
o=\$SDLAB_OUT/$n; mkdir -p \$o
(
cd /tmp
$(cat "$f")
) > \$o/guest.log 2>&1
echo \"$label: $n done (\$?)\""
    done
    mkdir -p "$dir"
    tmp=$(mktemp -d "$dir/.run.XXXXXX")
    # shellcheck disable=SC2086
    scripts/sdlab --card emmc $args --out "$tmp" -- sh -c "$script" 2>&1 | sed 's/^/  | /'
    for f in "$@"; do
        n=$(basename "$f" .sh)
        if [ ! -d "$tmp/$n" ]; then
            fail "$label run failed (no results for $n)"; rm -rf "$tmp"
            return 1
        fi
    done
    date '+%Y-%m-%d %H:%M:%S' >"$tmp/.complete"
    # Runs in progress start with a dot and are left alone.
    find "$dir" -mindepth 1 -maxdepth 1 ! -name '.*' -exec rm -rf {} +
    mv "$tmp" "$lab_run"
}

# emmc_lab NAME: cross-builds the tools, boots the shared lab (every guest
# script tests/lab/guest/emmc-*.sh, EMMCLAB_ARGS) unless results for the same
# inputs exist, and sets res to NAME's results directory. Returns 1 when the
# build or the lab fails (after printing why).
emmc_lab() {
    if ! make -s -j2 cross-armhf >build/lab-emmc-build.log 2>&1; then
        fail "cross build (make cross-armhf) failed"; tail -n 15 build/lab-emmc-build.log | sed 's/^/    | /'
        return 1
    fi
    emmc_boot "$EMMCLAB_ARGS" build/lab/emmc-results "eMMC lab" tests/lab/guest/emmc-*.sh || return 1
    res=$lab_run/$1
}
