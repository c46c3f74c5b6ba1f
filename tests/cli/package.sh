#!/bin/bash
# check: expect 45
# The Debian package (make deb): built by dpkg-buildpackage, its fields and
# contents checked with dpkg-deb, lintian without errors, then installed on
# this machine with apt-get, every tool run from PATH, every man page found
# by man, the completion loaded, and removed again. The package build shares
# build/ with make: it packages the tools make check tested.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
started=$(date +%s)
log=build/deb/test.log

if [ "$(id -u)" -ne 0 ]; then skip "not root: the package test installs with apt-get"; finish; exit; fi
for c in dpkg-buildpackage dh lintian man; do
    command -v $c >/dev/null || { skip "$c is not installed (make deps)"; finish; exit; }
done
if dpkg-query -W -f='${Status}' mmckit 2>/dev/null | grep -q 'install ok installed'; then
    skip "mmckit is already installed on this machine: not replacing it"; finish; exit
fi

arch=$(dpkg --print-architecture)
version=$(sed -n 's/.*version = "\(.*\)".*/\1/p' libmmc/version.h)
deb=build/deb/mmckit_${version}_$arch.deb
tools=$(for t in tools/*.cpp; do basename "$t" .cpp; done)

mkdir -p build/deb
rm -f "$deb"
# make check has run the unit tests already: the package build skips them.
# It makes no dbgsym package either: what is checked here is the package
# users install, and compressing the 64 MB of debug symbols beside it took
# 33 s of the build's 75.
if DEB_BUILD_OPTIONS="nocheck noddebs ${DEB_BUILD_OPTIONS:-}" scripts/build-deb >"$log" 2>&1; then pass "scripts/build-deb built ${deb#build/} ($(($(date +%s) - started)) s)"
else fail "scripts/build-deb failed (${log})"; tail -n 15 "$log" | sed 's/^/    | /'; finish; exit; fi

# Fields: the project's version, this architecture, Depends from dh_shlibdeps.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Version)" = "$version" ] && pass "Version $version (libmmc/version.h)" || fail "Version '$(field Version)', expected $version"
[ "$(field Architecture)" = "$arch" ] && pass "Architecture $arch" || fail "Architecture '$(field Architecture)'"
depends=$(field Depends)
missing=""
for lib in libc6 libstdc++6 libgcc-s1 libfmt9 libmnl0 libudev1 libblkid1 liburing2 libsqlite3-0 libssl3 libpq5; do
    case ", $depends," in *", $lib "* | *", $lib,"*) ;; *) missing="$missing $lib" ;; esac
done
[ -z "$missing" ] && pass "Depends from the linked libraries: $depends" || fail "Depends lacks$missing: $depends"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||')
missing=""
for t in $tools; do grep -qx "usr/bin/$t" <<<"$contents" || missing="$missing usr/bin/$t"; done
for p in man/*.[1-8]; do grep -qx "usr/share/man/man${p##*.}/${p##*/}.gz" <<<"$contents" || missing="$missing $p.gz"; done
for f in bash-completion/*; do grep -qx "usr/share/bash-completion/completions/${f##*/}" <<<"$contents" || missing="$missing $f"; done
grep -qx "usr/share/zsh/vendor-completions/_mmckit" <<<"$contents" || missing="$missing zsh/_mmckit"
[ -z "$missing" ] && pass "contents: every tool, man page (gzipped) and completion file" || fail "not in the package:$missing"
grep -q '^usr/local' <<<"$contents" && fail "files under /usr/local in the package" || pass "nothing under /usr/local"

# lintian: no errors; the warnings are listed (README explains those left).
lintian --fail-on none "$deb" >"$out" 2>&1
errors=$(grep -c '^E:' "$out")
[ "$errors" -eq 0 ] && pass "lintian: 0 errors, $(grep -c '^W:' "$out") warnings" || fail "lintian: $errors errors"
grep -E '^(E|W):' "$out" | sed 's/^/    lintian: /'

# Install, use from PATH, remove.
if run 0 env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$deb"; then pass "apt-get install ./${deb#build/deb/}"
else finish; exit; fi
for t in $tools; do
    [ "$(command -v "$t")" = "/usr/bin/$t" ] && run 0 "$t" --help && pass "$t --help from PATH (/usr/bin/$t)" ||
        fail "$t is not on PATH as /usr/bin/$t, or --help failed"
done
run 0 mmc-info --decode csd=400e00325b5900001fff7f800a400000 && expect "installed mmc-info decodes a CSD" "$out" "4 GiB"
for p in man/*.[1-8]; do
    page=${p##*/}
    run 0 man -w "${page%.*}" && expect "man -w ${page%.*}" "$out" "^/usr/share/man/man${p##*.}/$page.gz$"
done
run 0 bash -c '. /usr/share/bash-completion/bash_completion && . /usr/share/bash-completion/completions/mmc-erase && complete -p mmc-erase' &&
    expect "complete -p mmc-erase" "$out" "complete -F _mmc_erase mmc-erase"
run 0 tests/cli/complete-words - "mmc-bench --suite " && expect "bash-completion's loader finds mmc-bench: --suite offers the suites" "$out" "^iozone$"
suites=$(tr '\n' ' ' <"$out")
[ "$suites" = "a1 a2 class iozone quick state sustained " ] && pass "the suites: $suites" || fail "--suite offers '$suites'"

if run 0 env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q mmckit; then
    [ ! -e /usr/bin/mmc-info ] && [ ! -e /usr/share/bash-completion/completions/mmc-erase ] &&
        pass "apt-get remove mmckit removes the tools and completions" || fail "files left after apt-get remove"
fi
echo "  package test took $(($(date +%s) - started)) s"
finish
