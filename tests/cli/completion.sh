#!/bin/bash
# bash-completion/: one file per tool; the options each offers are the ones
# its --help lists, the values it offers for an option are the ones the tool
# names when it refuses a wrong value, and device arguments complete to the
# MMC/SD block devices and hosts of a sysfs tree (fixtures), nothing else.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
[ -f /usr/share/bash-completion/bash_completion ] || {
    skip "bash-completion is not installed (make deps)"; finish; exit; }

comp() { tests/cli/complete-words bash-completion "$1" 2>/dev/null | tr '\n' ' ' | sed 's/ $//'; }
bin_of() { echo "build/bin/$1"; } # the tool as the tree builds it
tools=$(for t in tools/*.cpp; do basename "$t" .cpp; done | sort -u)

# Every tool has a completion file, and every file a tool.
for t in $tools; do
    if [ -f "bash-completion/$t" ]; then pass "$t has bash-completion/$t"; else fail "$t has no bash-completion/$t"; fi
done
for f in bash-completion/mmc-*; do
    echo "$tools" | grep -qx "${f##*/}" || fail "$f completes no tool in tools/"
done

# Options: the set --help lists (short and long) is the set completion offers,
# but for the deprecated spellings ("deprecated: use --new"), which it does not.
help_options() { # the -x and --long names at the start of --help's option lines
    "$(bin_of "$1")" --help | $PY -c '
import re, sys
opts = set()
for line in sys.stdin:
    m = re.match(r"^ {1,8}(-[A-Za-z0-9])?,? *(--[a-z0-9-]+)?", line)
    if m and "deprecated: use --" in line:
        continue
    if m and (m.group(1) or m.group(2)):
        opts.update(o for o in m.groups() if o)
print(" ".join(sorted(opts)))'
}
for t in $tools; do
    [ -f "bash-completion/$t" ] || continue
    want=$(help_options "$t")
    got=$(comp "$t -" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$want" ] && [ "$got" = "$want" ]; then pass "$t: options as in --help ($(echo "$want" | wc -w))"
    else fail "$t: completion offers '$got'"; echo "    --help lists '$want'"; fi
done

# Values: what the tool lists in "expected ..." when refusing a bogus value.
refused_values() { # TOOL ARGS...: the values named by the usage error
    local t=$1; shift
    "$(bin_of "$t")" "$@" 2>&1 >/dev/null | head -n1 | $PY -c '
import re, sys
m = re.search(r"expected (.*?)\)?$", sys.stdin.read().strip())
print(" ".join(sorted(re.split(r", | or ", m.group(1)))) if m else "")'
}
check_values() { # NAME COMPLETION-LINE TOOL BOGUS-ARGS...
    local name=$1 line=$2; shift 2
    local want got
    want=$(refused_values "$@")
    got=$(comp "$line" | sed 's/=//g' | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$want" ] && [ "$got" = "$want" ]; then pass "$name: $got"
    else fail "$name: completion offers '$got', the tool expects '$want'"; fi
}
check_values "mmc-bench --suite" "mmc-bench --suite " mmc-bench --suite bogus
check_values "mmc-bench --rw" "mmc-bench --rw " mmc-bench --rw bogus
check_values "mmc-bench --ioengine" "mmc-bench --ioengine " mmc-bench --ioengine bogus
check_values "mmc-bench --precondition" "mmc-bench --precondition " mmc-bench --precondition bogus
check_values "mmc-erase --method" "mmc-erase --method " mmc-erase --method bogus
check_values "mmc-erase --verify=" "mmc-erase --verify=" mmc-erase --verify=bogus
check_values "mmc-info --family" "mmc-info --family " mmc-info --family bogus
check_values "mmc-info --decode KIND=" "mmc-info --decode " mmc-info --decode bogus=00
check_values "mmc-health --family" "mmc-health --family " mmc-health --family bogus
check_values "mmc-health --decode KIND=" "mmc-health --decode " mmc-health --decode bogus=00
check_values "mmc-health --layout" "mmc-health --layout " mmc-health --layout bogus
check_values "mmc-bus --family" "mmc-bus --family " mmc-bus --family bogus /dev/null
check_values "mmc-qualify --erase" "mmc-qualify --erase " mmc-qualify --erase bogus
suites=$(refused_values mmc-bench --suite bogus)
got=$(comp "mmc-qualify --suite quick,")
want=$(for s in $suites; do printf 'quick,%s ' "$s"; done | sed 's/ $//')
if [ "$got" = "$want" ]; then pass "mmc-qualify --suite completes a list of mmc-bench suites"
else fail "mmc-qualify --suite quick,: got '$got', expected '$want'"; fi
run 0 tests/cli/complete-words bash-completion "mmc-info --decode " && expect "--decode KIND= leaves no space" "$err" "compopt -o nospace"

# Devices: MMC/SD block devices and hosts of the sysfs tree, nothing else.
devs() { _mmckit_sysfs=tests/data/sysfs/$1/sys comp "$2"; }
want_eq() { if [ "$2" = "$3" ]; then pass "$1: '$2'"; else fail "$1: got '$2', expected '$3'"; fi; }
want_eq "SD card: mmc-info offers card and host" "$(devs sd-qemu "mmc-info ")" "mmc0 mmcblk0"
want_eq "SD card: a / offers /dev paths, no host" "$(devs sd-qemu "mmc-erase /")" "/dev/mmcblk0"
want_eq "eMMC: mmc-erase offers partitions and boot areas" "$(devs emmc-cm4 "mmc-erase mmcblk")" \
    "mmcblk1 mmcblk1boot0 mmcblk1boot1 mmcblk1p1 mmcblk1p2"
want_eq "eMMC: mmc-bus offers the card and its host only" "$(devs emmc-cm4 "mmc-bus ")" "mmc1 mmcblk1"
want_eq "eMMC: mmc-qualify offers the whole card only" "$(devs emmc-cm4 "mmc-qualify ")" "mmcblk1"
want_eq "USB reader (sda): no device offered" "$(devs usb-reader "mmc-info ")" ""
want_eq "after an option's value, devices again" "$(devs sd-qemu "mmc-bench --suite a1 mmc")" "mmc0 mmcblk0"
want_eq "SD card: mmc-health offers card and host" "$(devs sd-qemu "mmc-health ")" "mmc0 mmcblk0"
want_eq "mmc-watch takes no device" "$(devs sd-qemu "mmc-watch ")" \
    "$(comp "mmc-watch -")"

# zsh: one file for every tool (options from --help, devices from sysfs).
compdef=$(sed -n 's/^#compdef //p' zsh/_mmckit | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
want_eq "zsh/_mmckit is #compdef for every tool" "$compdef" "$(echo $tools)"
if command -v zsh >/dev/null; then
    run 0 zsh -n zsh/_mmckit && pass "zsh/_mmckit parses (zsh -n)"
else
    skip "zsh is not installed: zsh/_mmckit not parsed"
fi

finish
