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

# emmc_lab NAME: cross-builds the tools, boots the lab unless results for the
# same inputs exist, and sets res to NAME's results directory. Returns 1 when
# the build or the lab fails (after printing why).
emmc_lab() {
    if ! make -s -j2 cross-armhf >build/lab-emmc-build.log 2>&1; then
        fail "cross build (make cross-armhf) failed"; tail -n 15 build/lab-emmc-build.log | sed 's/^/    | /'
        return 1
    fi
    key=$( { echo "$EMMCLAB_ARGS"
             for f in tests/lab/guest/emmc-*.sh scripts/sdlab scripts/emmclab scripts/emmclab-init \
                      build/armhf/bin/*; do echo "$f"; cat "$f"; done; } | sha256sum | cut -c1-16)
    results=build/lab/emmc-results
    res=$results/$key/$1
    if [ -z "${EMMCLAB_FRESH:-}" ] && [ -f "$results/$key/.complete" ]; then
        echo "  (eMMC lab results of $(cat "$results/$key/.complete") reused: same tools and guest scripts)"
        return 0
    fi
    script=""
    for f in tests/lab/guest/emmc-*.sh; do
        n=$(basename "$f" .sh)
        script="$script
o=\$SDLAB_OUT/$n; mkdir -p \$o
(
cd /tmp
$(cat "$f")
) > \$o/guest.log 2>&1
echo \"emmc lab: $n done (\$?)\""
    done
    mkdir -p "$results"
    tmp=$(mktemp -d "$results/.run.XXXXXX")
    # shellcheck disable=SC2086
    scripts/sdlab --card emmc $EMMCLAB_ARGS --out "$tmp" -- sh -c "$script" 2>&1 | sed 's/^/  | /'
    if [ ! -d "$tmp/$1" ]; then
        fail "eMMC lab run failed (no results for $1)"; rm -rf "$tmp"
        return 1
    fi
    date '+%Y-%m-%d %H:%M:%S' >"$tmp/.complete"
    # Only the newest results are kept (runs in progress start with a dot).
    find "$results" -mindepth 1 -maxdepth 1 ! -name '.*' -exec rm -rf {} +
    mv "$tmp" "$results/$key"
}
