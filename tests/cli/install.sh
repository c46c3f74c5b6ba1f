#!/bin/bash
# make install / make uninstall into a temporary DESTDIR: exactly the expected
# files (every tool, man page and completion file; mmc-sim's plugin and
# presets when built), with the right modes, an installed tool that runs, the
# directory variables honoured, and nothing left after uninstall.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
root=$(mktemp -d)
trap 'rm -rf "$root" "$out" "$err"' EXIT

# What the tree says should be installed under PREFIX (sorted, no PREFIX).
expected_files() {
    for t in tools/*.cpp; do echo "bin/$(basename "$t" .cpp)"; done
    for p in man/*.[1-8]; do echo "share/man/man${p##*.}/${p##*/}"; done
    for f in bash-completion/*; do echo "share/bash-completion/completions/${f##*/}"; done
    for f in zsh/_*; do echo "share/zsh/site-functions/${f##*/}"; done
    for f in build/lib/nbdkit-*-plugin.so; do [ ! -e "$f" ] || echo "lib/mmckit/${f##*/}"; done
    [ ! -d sim/presets ] || find sim/presets -type f | sed 's|^|share/mmckit/|'
}
installed_files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort); }

run 0 make -s install DESTDIR="$root" PREFIX=/usr/local && pass "make install DESTDIR=... PREFIX=/usr/local"
expected_files | sort -u >"$root.want"
installed_files "$root/usr/local" >"$root.got"
if diff -u "$root.want" "$root.got" >"$out"; then pass "installed files are the expected $(wc -l <"$root.want")"
else fail "installed files differ from the expected (- missing, + extra)"; sed 's/^/    /' "$out" | tail -n +3 | head -20; fi
rm -f "$root.want" "$root.got"
[ -z "$(find "$root" -mindepth 1 -maxdepth 1 ! -name usr)" ] && [ -z "$(find "$root/usr" -mindepth 1 -maxdepth 1 ! -name local)" ] &&
    pass "nothing outside PREFIX" || fail "files outside PREFIX: $(find "$root" -mindepth 2 -maxdepth 2 ! -path "$root/usr/local")"

# The fixed points a newcomer relies on, whatever else is added.
for f in bin/mmc-info bin/mmc-erase bin/mmc-bench bin/mmc-qualify share/man/man1/mmc-info.1 \
    share/bash-completion/completions/mmc-erase share/bash-completion/completions/_mmckit share/zsh/site-functions/_mmckit; do
    [ -f "$root/usr/local/$f" ] && pass "installs $f" || fail "no $f"
done
bad_mode=$(cd "$root/usr/local" && find bin -type f ! -perm 755; find share lib -type f ! -perm 644 2>/dev/null)
[ -z "$bad_mode" ] && pass "tools 755, everything else 644" || fail "wrong modes: $bad_mode"
cmp -s build/bin/mmc-qualify "$root/usr/local/bin/mmc-qualify" && pass "the compiled mmc-qualify is installed" || fail "mmc-qualify is not the compiled one"
run 0 "$root/usr/local/bin/mmc-info" --decode csd=400e00325b5900001fff7f800a400000 && expect "the installed mmc-info decodes" "$out" "4 GiB"

run 0 make -s uninstall DESTDIR="$root" PREFIX=/usr/local && pass "make uninstall"
left=$(find "$root" -type f)
[ -z "$left" ] && pass "uninstall leaves no file" || fail "left after uninstall: $left"

# BINDIR and MANDIR move those parts; the rest follows PREFIX.
rm -rf "${root:?}"/*
run 0 make -s install DESTDIR="$root" PREFIX=/opt/mmckit BINDIR=/opt/bin MANDIR=/opt/man &&
    pass "make install with PREFIX, BINDIR, MANDIR"
[ -x "$root/opt/bin/mmc-info" ] && [ -f "$root/opt/man/man1/mmc-info.1" ] &&
    [ -f "$root/opt/mmckit/share/bash-completion/completions/mmc-info" ] && [ ! -e "$root/opt/mmckit/bin" ] &&
    pass "BINDIR, MANDIR and PREFIX honoured" || fail "directories: $(cd "$root" && find . -maxdepth 4 -type d | sort | tr '\n' ' ')"
run 0 make -s uninstall DESTDIR="$root" PREFIX=/opt/mmckit BINDIR=/opt/bin MANDIR=/opt/man
left=$(find "$root" -type f)
[ -z "$left" ] && pass "uninstall with the same variables leaves no file" || fail "left after uninstall: $left"

finish
