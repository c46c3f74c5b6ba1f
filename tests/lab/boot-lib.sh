# Shared by the lab families' libraries (sd-lib.sh, emmc-lib.sh, rpi-lib.sh),
# sourced after tests/cli/lib.sh. Not a suite itself (not executable).
#
# One boot of a lab runs every guest script of its family in turn, each in a
# subshell with its own results directory $o ($SDLAB_OUT/NAME, NAME the
# script's name without .sh); each host-side suite then checks its own part.
# The results are kept in DIR/KEY, KEY a hash of everything that went into
# the run (the lab's options, the guest scripts, the tools, the lab's
# scripts), so the suites of one `make check` share one boot and a change to
# any input boots again. LAB_FRESH=1 forces a new boot.
# shellcheck shell=sh

# lab_boot LABEL DIR "SDLAB-ARGS" "KEY-FILES" GUEST...: boots scripts/sdlab
# with SDLAB-ARGS to run each guest script GUEST in turn, unless DIR already
# holds results of the same inputs (SDLAB-ARGS, the GUESTs, KEY-FILES: the
# tools and lab scripts), and sets lab_run to the results' directory.
# Returns 1 when the lab fails (after printing why).
lab_boot() {
    label=$1 dir=$2 args=$3 key_files=$4; shift 4
    # shellcheck disable=SC2086
    key=$( { echo "$args"
             for f in "$@" $key_files; do echo "$f"; cat "$f"; done; } | sha256sum | cut -c1-16)
    lab_run=$dir/$key
    if [ -z "${LAB_FRESH:-}" ] && [ -f "$lab_run/.complete" ]; then
        echo "  ($label results of $(cat "$lab_run/.complete") reused: same tools and guest scripts)"
        return 0
    fi
    script=""
    for f in "$@"; do
        n=$(basename "$f" .sh)
        script="$script
o=\$SDLAB_OUT/$n; mkdir -p \$o
s=\$(date +%s)
(
cd /tmp
$(cat "$f")
) > \$o/guest.log 2>&1
echo \"$label: $n done (\$?) in \$((\$(date +%s) - s)) guest seconds\""
    done
    mkdir -p "$dir"
    tmp=$(mktemp -d "$dir/.run.XXXXXX")
    # The lab's own status is not what decides: each guest's results
    # directory is (a guest that did not run has none).
    # shellcheck disable=SC2086
    scripts/sdlab $args --out "$tmp" -- sh -c "$script" 2>&1 | sed 's/^/  | /'
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
