#!/bin/sh
# check: expect 100
# check: limit 900
# Plain `make` (no target) in a fresh clone builds what `make all` builds:
# every tool of tools/*.cpp, mmc-sim's nbdkit plugin, the unit tests and the
# lab's tools - the README's first step ("after `make`: build/bin/mmc-info").
# It once built one generated file and no tool: the rules $(eval) makes came
# before `all:`, and make's default goal is the first target it reads.
#  1. make -n and make -n all print the same commands, which link every tool.
#  2. A real plain make runs every recipe of its goal with a stand-in
#     compiler (it writes the file named after -o): seconds, not the minutes
#     of a cold build, yet each rule runs as it would (stamps, unit chunks,
#     ar, links), and build/ must then hold every binary.
#  3. With CXX naming ccache (as the README's developers build), the same
#     with the real compiler, and the tools run; otherwise skipped, said so.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
# A make of our own: not the -j and jobserver of a make check around us.
plain_make() { (cd "$1" && shift && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"); }


# built_all DIR WHAT: build/ in DIR holds every binary make all builds.
built_all() {
    missing=""
    for t in $tools; do [ -x "$1/build/bin/$t" ] || missing="$missing bin/$t"; done
    for t in $lab_tools; do [ -x "$1/build/tests/lab-bin/$t" ] || missing="$missing tests/lab-bin/$t"; done
    [ -f "$1/build/lib/nbdkit-mmcsim-plugin.so" ] || missing="$missing lib/nbdkit-mmcsim-plugin.so"
    [ -x "$1/build/tests/unit_tests" ] || missing="$missing tests/unit_tests"
    if [ -z "$missing" ]; then pass "$2: build/ holds all $(echo $tools | wc -w) tools, the plugin, the unit tests and the lab's tools"
    else fail "$2: missing from build/:$missing"; ls "$1/build" | sed 's/^/    build\/ holds: /' | head -8; fi
}

if git clone -q "$top" "$tmp/clone" 2>"$err"; then pass "a fresh clone of HEAD ($(git -C "$tmp/clone" rev-parse --short HEAD))"
else fail "git clone: $(cat "$err")"; finish; exit; fi

# The clone's tools (HEAD's, whatever this tree has uncommitted).
tools=$(for t in "$tmp"/clone/tools/*.cpp; do basename "$t" .cpp; done)
lab_tools=$(for t in "$tmp"/clone/tests/lab/tools/*.cpp; do [ -e "$t" ] && basename "$t" .cpp; done)

# 1. What make would do.
plain_make "$tmp/clone" -n >"$tmp/default.n" 2>&1
plain_make "$tmp/clone" -n all >"$tmp/all.n" 2>&1
if cmp -s "$tmp/default.n" "$tmp/all.n"; then pass "make -n and make -n all print the same $(wc -l <"$tmp/all.n") commands"
else fail "make -n differs from make -n all: $(wc -l <"$tmp/default.n") commands against $(wc -l <"$tmp/all.n")"
    sed 's/^/    make -n: /' "$tmp/default.n" | cut -c1-160 | head -5; fi
unlinked=""
for t in $tools; do grep -q -- "-o build/bin/$t " "$tmp/default.n" || unlinked="$unlinked $t"; done
[ -z "$unlinked" ] && pass "make -n links every tool" || fail "make -n links no$unlinked"

# 2. A real plain make, with a stand-in compiler.
cat >"$tmp/cxx" <<'SH'
#!/bin/sh
# Stands in for the compiler and linker: logs its arguments and writes its
# -o file (executable, as a linker leaves a program).
echo "$*" >>"${0%/*}/cxx.log"
while [ $# -gt 0 ]; do [ "$1" = -o ] && { : >"$2" && chmod +x "$2"; exit; }; shift; done
exit 0
SH
chmod +x "$tmp/cxx"
if plain_make "$tmp/clone" CXX="$tmp/cxx" >"$out" 2>"$err"; then pass "plain make with a stand-in compiler exits 0"
else fail "plain make with a stand-in compiler failed"; sed 's/^/    | /' "$err" | tail -5; fi
built_all "$tmp/clone" "plain make (stand-in compiler)"
uncompiled=""
for t in $tools; do grep -q -- "-c tools/$t.cpp " "$tmp/cxx.log" 2>/dev/null || uncompiled="$uncompiled $t"; done
[ -z "$uncompiled" ] && pass "every tool's source was compiled" || fail "not compiled:$uncompiled"

# 3. The same with the real compiler, when ccache makes it affordable.
case ${CXX:-} in
*ccache*)
    rm -rf "$tmp/clone/build"
    start=$(date +%s)
    if plain_make "$tmp/clone" CXX="$CXX" >"$out" 2>"$err"; then pass "plain make with CXX=\"$CXX\" exits 0 ($(($(date +%s) - start)) s)"
    else fail "plain make with CXX=\"$CXX\" failed"; sed 's/^/    | /' "$err" | tail -5; fi
    built_all "$tmp/clone" "plain make (CXX=\"$CXX\")"
    run 0 "$tmp/clone/build/bin/mmc-info" --decode csd=400e00325b5900001fff7f800a400000 &&
        expect "the freshly built mmc-info decodes a CSD" "$out" "4 GiB"
    ;;
*) skip "a real build of the fresh clone: CXX ('${CXX:-g++}') names no ccache, and a cold build takes minutes (CXX=\"ccache g++\" runs it)" ;;
esac
finish
