# What the ARM labs (scripts/emmclab: the AST2600's eMMC, armhf; scripts/rpilab:
# the Raspberry Pi 3B's SD host, arm64) share, sourced by both after they set
# `top`, `lab` (their cache under build/lab), `triplet`, `sysroot`, `out_dir`
# and `timeout_s`. One copy of each step, so a fix to the console protocol or
# the library closure reaches both labs.

die() { echo "sdlab: $*" >&2; exit 125; }
note() { [ -n "${SDLAB_QUIET:-}" ] || echo "sdlab: $*" >&2; }
need() { command -v "$1" >/dev/null || die "$1 not found; run 'make deps'"; }

bytes_of() { # bytes_of SIZE: 64M, 1G, 512K or a plain number of bytes
    local v=$1 n mult=1
    case $v in
    *K | *k) mult=1024 ;; *M | *m) mult=$((1024 * 1024)) ;; *G | *g) mult=$((1024 * 1024 * 1024)) ;;
    esac
    n=${v%[KkMmGg]}
    [[ $n =~ ^[0-9]+$ ]] || die "size '$v': expected a number with K, M or G"
    echo $((n * mult))
}
pow2() { [ "$1" -gt 0 ] && [ $(($1 & ($1 - 1))) -eq 0 ]; }

# lab_fetch ARCH PACKAGE DIR: the ARCH .deb of PACKAGE unpacked into DIR, once.
lab_fetch() {
    local arch=$1 pkg=$2 dir=$3
    [ -f "$dir/.unpacked" ] && return 0
    note "fetching $pkg ($arch)"
    mkdir -p "$lab/debs" "$dir"
    (cd "$lab/debs" && "$top/scripts/lab-apt" "$arch" "$arch" bookworm apt-get download "$pkg" >/dev/null) ||
        die "downloading $pkg ($arch) failed"
    dpkg-deb -x "$(ls "$lab/debs/${pkg}"_*_"$arch".deb | head -n1)" "$dir"
    rm -f "$lab/debs/${pkg}"_*_"$arch".deb
    touch "$dir/.unpacked"
}

# lab_initramfs INITRD KROOT KVER INIT BUSYBOX MODULES...: busybox, the
# modules named (with what they depend on, from modules.dep) and INIT as
# /init, packed into INITRD.
lab_initramfs() {
    local initrd=$1 kroot=$2 kver=$3 init=$4 busybox=$5 m path f want="" staging
    shift 5
    staging=$(mktemp -d)
    chmod 755 "$staging" # the guest's root directory: other users must traverse it
    mkdir -p "$staging"/{bin,dev,proc,sys,tmp,host,lib,etc} "$staging/lib/modules/$kver"
    cp "$busybox" "$staging/bin/busybox"
    ln -s busybox "$staging/bin/sh" # the rest of the applets: busybox --install in /init
    local depfile=$kroot/lib/modules/$kver/modules.dep
    for m in "$@"; do
        path=$(grep -E "/${m//[-_]/[-_]}\.ko(\.[a-z]+)?:" "$depfile" | head -n1) || { rm -rf "$staging"; die "module $m not in $kver"; }
        want="$want ${path//:/}"
    done
    for f in $(echo $want | tr ' ' '\n' | sort -u); do
        mkdir -p "$staging/lib/modules/$kver/$(dirname "$f")"
        cp "$kroot/lib/modules/$kver/$f" "$staging/lib/modules/$kver/$f"
    done
    cp "$depfile" "$staging/lib/modules/$kver/"
    cp "$init" "$staging/init"
    chmod +x "$staging/init"
    (cd "$staging" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$initrd.$$"
    mv "$initrd.$$" "$initrd"
    rm -rf "$staging"
}

# lab_libraries ROOT LOADER ARCH: the dynamic loader and every library the
# executables in ROOT/host/bin need, found by following their DT_NEEDED
# entries through the sysroot, into ROOT/lib.
lab_libraries() {
    local root=$1 loader=$2 arch=$3 elf lib found d
    mkdir -p "$root/lib/$triplet"
    cp -L "$sysroot/lib/$loader" "$root/lib/"
    local -A seen=()
    local queue=("$root"/host/bin/*)
    while [ ${#queue[@]} -gt 0 ]; do
        elf=${queue[0]}
        queue=("${queue[@]:1}")
        head -c 4 "$elf" | grep -q 'ELF' || continue
        for lib in $("$triplet-readelf" -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
            [ -z "${seen[$lib]:-}" ] || continue
            seen[$lib]=1
            [ "$lib" = "$loader" ] && continue
            found=""
            for d in "$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet"; do
                [ -e "$d/$lib" ] && { found=$d/$lib; break; }
            done
            [ -n "$found" ] || die "library $lib (needed by $(basename "$elf")) not in the $arch sysroot"
            cp -L "$found" "$root/lib/$triplet/$lib"
            queue+=("$root/lib/$triplet/$lib")
        done
    done
}

# lab_run LOG: runs "${qemu_cmd[@]}" with the guest's console read for the
# init's markers: the command's output between @@SDLAB-BEGIN and -END is
# shown, the results archive lands in $out_dir, and the lab exits with the
# command's status (@@SDLAB-EXIT) or 125 when the lab itself failed. QEMU
# runs in the background so that it is ended once the status is in (the
# Pi's machine does not stop on poweroff); everything is kept in LOG.
lab_run() {
    local log=$1
    mkdir -p "$(dirname "$log")"
    local status_file=$run/status results=$run/results.b64 booted_file=$run/booted fifo=$run/console
    mkfifo "$fifo"
    local start end booted qemu_status=0
    start=$(date +%s.%N)
    timeout --foreground -k 5 "$timeout_s" "${qemu_cmd[@]}" </dev/null >"$fifo" 2>&1 &
    qemu_pid=$!
    # awk writes the log itself (a tr or tee between would hold lines back in
    # its buffer) and ends QEMU (through timeout, which passes the signal on)
    # as soon as the exit status is in. mawk, Debian's awk, fills a whole input
    # buffer before it looks at a line unless told -W interactive.
    local stream_awk=(awk)
    awk -W version 2>/dev/null | grep -q '^mawk' && stream_awk=(awk -W interactive)
    "${stream_awk[@]}" -v sf="$status_file" -v rf="$results" -v bf="$booted_file" -v lf="$log" -v qp="$qemu_pid" '
        { sub(/\r$/, ""); print > lf; fflush(lf) }
        /^@@SDLAB-BEGIN/ { on = 1; "date +%s.%N" | getline t; print t > bf; close(bf); next }
        /^@@SDLAB-END$/ { on = 0; next }
        /^@@SDLAB-OUT-BEGIN/ { b64 = 1; next }
        /^@@SDLAB-OUT-END/ { b64 = 0; close(rf); next }
        b64 { print > rf; next }
        /^@@SDLAB-EXIT / { print $2 > sf; close(sf); system("kill " qp " 2>/dev/null"); exit }
        /^@@SDLAB-FAIL / { sub(/^@@SDLAB-FAIL /, ""); print "sdlab: guest: " $0 > "/dev/stderr"; next }
        on { print; fflush() }' <"$fifo" || true
    # The guest has reported (or QEMU ended): QEMU is ended and waited for.
    kill "$qemu_pid" 2>/dev/null || true
    wait "$qemu_pid" || qemu_status=$?
    qemu_pid=""
    end=$(date +%s.%N)

    if [ -s "$results" ]; then
        mkdir -p "$out_dir"
        base64 -d -i "$results" | tar -xzf - -C "$out_dir" --no-same-owner --no-overwrite-dir -m ||
            die "the results the guest sent are damaged; boot log: $log"
    fi
    if [ ! -s "$status_file" ]; then
        echo "sdlab: the console's last lines:" >&2
        tail -n 15 "$log" | sed 's/^/  | /' >&2
        [ "$qemu_status" -eq 124 ] && die "timed out after ${timeout_s}s; boot log: $log"
        die "guest ended without running the command (qemu status $qemu_status); boot log: $log"
    fi
    booted=$(cat "$booted_file" 2>/dev/null || echo "$start")
    note "$(awk -v a="$start" -v b="$booted" -v c="$end" 'BEGIN { printf "booted in %.1fs, guest ran in %.1fs", b - a, c - a }')"
    exit "$(cat "$status_file")"
}
