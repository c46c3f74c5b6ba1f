#!/bin/bash
# check: expect 600
# check: busy (two cross builds and their packages: make -j2)
# check: limit 1500 (a cold build of both trees and their packages: 670 s on two idle cores, 2026-12-07)
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# The boards' packages (make deb-arm64, make deb-armhf): cross-built .debs
# whose architecture, version, Depends and contents dpkg-deb confirms, whose
# binaries are for the target CPU, and run under QEMU user emulation (--help
# of every tool, mmc-info --decode) against the target's own libraries.
# The package build shares build/ARCH with make cross-ARCH (the eMMC lab's
# armhf tools, the Pi lab's arm64 ones): only what is out of date compiles.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
version=$(sed -n 's/.*version = "\(.*\)".*/\1/p' libmmc/version.h)
tools=$(for t in tools/*.cpp; do basename "$t" .cpp; done)

for c in dpkg-buildpackage dh; do
    command -v $c >/dev/null || { skip "$c is not installed (make deps)"; finish; exit; }
done

# ARCH QEMU ELF-MACHINE
check_arch() {
    local arch=$1 qemu=$2 machine=$3 started deb root
    started=$(date +%s)
    mkdir -p build/deb
    deb=build/deb/mmckit_${version}_$arch.deb
    # The cross tree first, by the Makefile's own rules (as the labs build
    # it), then the package from it: the package build's copy of the tree
    # once linked a library object the tree had not yet rebuilt.
    if ! { scripts/make-locked "$arch" -s -j2 "cross-$arch" && scripts/make-locked "$arch" -s -j2 "deb-$arch"; } \
        >"build/deb/test-$arch.log" 2>&1; then
        fail "make deb-$arch failed (build/deb/test-$arch.log)"; tail -n 15 "build/deb/test-$arch.log" | sed 's/^/    | /'
        return
    fi
    pass "make deb-$arch built ${deb#build/deb/} ($(($(date +%s) - started)) s)"
    [ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] && pass "$arch: Architecture $arch" ||
        fail "$arch: Architecture '$(dpkg-deb -f "$deb" Architecture)'"
    [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] && pass "$arch: Version $version" || fail "$arch: Version"
    local depends missing="" lib
    depends=$(dpkg-deb -f "$deb" Depends)
    for lib in libc6 libstdc++6 libgcc-s1 libfmt9 libmnl0 libudev1 libblkid1 liburing2 libsqlite3-0 libssl3; do
        case ", $depends," in *", $lib "* | *", $lib,"*) ;; *) missing="$missing $lib" ;; esac
    done
    [ -z "$missing" ] && pass "$arch: Depends from the $arch libraries: $depends" || fail "$arch: Depends lacks$missing: '$depends'"

    root=$tmp/$arch
    dpkg-deb -x "$deb" "$root"
    missing=""
    for t in $tools; do [ -x "$root/usr/bin/$t" ] || missing="$missing $t"; done
    for p in man/*.[1-8]; do [ -f "$root/usr/share/man/man${p##*.}/${p##*/}.gz" ] || missing="$missing ${p##*/}"; done
    [ -f "$root/usr/share/bash-completion/completions/mmc-erase" ] || missing="$missing mmc-erase completion"
    [ -z "$missing" ] && pass "$arch: contents: every tool, man page and completion" || fail "$arch: not in the package:$missing"
    readelf -h "$root/usr/bin/mmc-info" >"$out" 2>&1 && expect "$arch: mmc-info is an $machine executable" "$out" "Machine: +$machine"

    if ! command -v "$qemu" >/dev/null; then skip "$arch: $qemu not installed (qemu-user; make deps)"; return; fi
    local sysroot=build/$arch/sysroot bad=""
    for t in $tools; do
        "$qemu" -L "$sysroot" "$root/usr/bin/$t" --help >"$out" 2>"$err" && grep -q "^Usage:" "$out" || bad="$bad $t"
    done
    [ -z "$bad" ] && pass "$arch: every tool's --help under $qemu" || fail "$arch: --help failed under $qemu:$bad"
    run 0 "$qemu" -L "$sysroot" "$root/usr/bin/mmc-info" --decode csd=400e00325b5900001fff7f800a400000 &&
        expect "$arch: mmc-info --decode csd=... under $qemu" "$out" "4 GiB"
}

# MMCKIT_CROSS_ARCHES narrows the run (e.g. "arm64") when one is enough.
for arch in ${MMCKIT_CROSS_ARCHES:-arm64 armhf}; do
    case $arch in
    arm64) check_arch arm64 qemu-aarch64 AArch64 ;;
    armhf) check_arch armhf qemu-arm ARM ;;
    *) fail "unknown architecture '$arch' in MMCKIT_CROSS_ARCHES" ;;
    esac
done
finish
