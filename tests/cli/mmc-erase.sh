#!/bin/sh
# check: expect 25
# mmc-erase on host loop devices (--any-device): every byte inside the range
# reads erased and every byte outside is unchanged, for aligned and
# unaligned ranges and each block-layer method; the refusals leave the data
# as it was; Ctrl-C in the middle of a slowed-down erase reports exactly the
# range that changed. Needs root and losetup; skips with the reason if not.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
erase=build/bin/mmc-erase
MiB=1048576
# The system interpreter where there is one: version-manager shims (pyenv)
# take about a second to start, and this suite calls python often.
if [ -x /usr/bin/python3 ]; then python3() { /usr/bin/python3 "$@"; }; fi

run 2 $erase --method wipe /dev/null && expect "unknown method: usage error" "$err" "--method wipe: expected auto, discard"
run 2 $erase && expect "no device: usage error" "$err" "no DEVICE given"
run 2 $erase --offset 12Q /dev/null && expect "bad size" "$err" "--offset: '12Q': unknown unit 'Q'"
run 2 $erase --au measure --au 4M /dev/null && expect "--au twice is a conflict, not 'the first wins'" "$err" "^mmc-erase: --au: given more than once \('measure' and '4M'\); give one$"
run 2 $erase --au 4M --au measure /dev/null && expect "--au twice, either order" "$err" "--au: given more than once \('4M' and 'measure'\)"
run 0 $erase --help && expect "--help lists the methods" "$out" "sd-discard, fule"
run 0 $erase --version && expect "--version" "$out" "mmc-erase from mmckit [0-9]"
# Not a device at all: said so, and --any-device (given here) is no remedy.
not_devices "mmc-erase -n --any-device" "" $erase -n --any-device

if [ "$(id -u)" -ne 0 ]; then skip "loop devices: not root"; finish; exit; fi
command -v losetup >/dev/null || { skip "loop devices: losetup not installed"; finish; exit; }
command -v python3 >/dev/null || { skip "loop devices: python3 not installed"; finish; exit; }

work=$(mktemp -d)
loops="" mounts="" cgroup=""
cleanup() {
    for m in $mounts; do umount "$m" 2>/dev/null; done
    for l in $loops; do losetup -d "$l" 2>/dev/null; done
    [ -n "$cgroup" ] && rmdir "$cgroup" 2>/dev/null
    rm -rf "$work" "$out" "$err"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# attach FILE [-P]: a loop device on FILE in $dev (-P scans partitions),
# detached on exit.
attach() {
    dev=$(losetup -f --show $2 "$1") || return 1
    loops="$loops $dev"
}

# A 64 MiB pattern with no 0x00 or 0xff byte, so erased bytes stand out.
pat=$work/pattern
python3 -c "
import sys
block = bytes((j * 37 + 11) % 253 + 1 for j in range(4096))
sys.stdout.buffer.write(block * (64 * 1024 * 1024 // 4096))" >"$pat"
fill() { dd if="$pat" of="$1" bs=1M count="${2:-64}" conv=fsync 2>/dev/null; }

# check NAME DEV OFFSET LENGTH zero|same [PATTERN]: bytes in the range are
# 0x00 (zero) or the pattern (same); every byte outside is the pattern.
check() {
    # The device as it is, not as the page cache remembers it: O_DIRECT.
    dd if="$2" of="$work/read" bs=1M iflag=direct 2>/dev/null
    p=${6:-$pat} end=$(($3 + $4)) size=$(stat -c %s "$work/read") msg=""
    if [ "$5" = zero ]; then
        [ "$4" -eq 0 ] || cmp -s -n "$4" -i "$3:0" "$work/read" /dev/zero || msg="inside [$3, $end) not all 0x00: $(cmp -n "$4" -i "$3:0" "$work/read" /dev/zero 2>&1 | head -1)"
    else
        [ "$4" -eq 0 ] || cmp -s -n "$4" -i "$3:$3" "$work/read" "$p" || msg="inside [$3, $end) changed"
    fi
    [ "$3" -eq 0 ] || cmp -s -n "$3" "$work/read" "$p" || msg="$msg; before $3 changed: $(cmp -n "$3" "$work/read" "$p" 2>&1 | head -1)"
    [ "$end" -ge "$size" ] || cmp -s -n $((size - end)) -i "$end:$end" "$work/read" "$p" ||
        msg="$msg; after $end changed: $(cmp -n $((size - end)) -i "$end:$end" "$work/read" "$p" 2>&1 | head -1)"
    if [ -z "$msg" ]; then pass "$1"; else fail "$1: ${msg#; }"; fi
}
jget() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($1)" "$out"; }

truncate -s 64M "$work/disk.img"
attach "$work/disk.img" || { skip "loop devices: losetup failed"; finish; exit; }
loop=$dev
name=${loop#/dev/}
fill "$loop"

# --- refusals that must leave the data alone --------------------------------
run 1 $erase -y $loop && expect "non-MMC device refused without --any-device" "$err" \
    "$loop: not an MMC/SD device: $name is a loop device; use --any-device to erase it anyway"
run 1 $erase --any-device $loop </dev/null && expect "no --yes and no terminal: refused" "$err" \
    "refusing to erase without confirmation: stdin is not a terminal; use --yes"
run 2 $erase --any-device -y --offset 1G $loop && expect "offset beyond the end: usage error" "$err" \
    "offset 1073741824 is beyond the end of the device \(67108864 bytes\)"
run 2 $erase --any-device -y --offset 60M --size 8M $loop && expect "range past the end: usage error" "$err" \
    "runs past the end of the device"
run 2 $erase --any-device -y --size 0 $loop && expect "zero length: usage error" "$err" "length is 0: nothing to erase"
run 1 $erase --any-device -y --offset 100 --size 1000 --method discard $loop &&
    expect "range with no whole erase unit refused" "$err" "holds no whole erase unit \(4096 bytes"
run 0 $erase --any-device --dry-run -J --offset 4M --size 8M $loop &&
    json_eq "dry run: plan, nothing erased" "j['dry_run'], j['plan']['method'], j['plan']['aligned_length'], j['erased']['length'], j['chunks']" \
        "True discard 8388608 0 []"
# --size is the region's length in every tool; --length and -l, the old
# spellings, still work and say so once.
run 0 $erase --any-device --dry-run -J --offset 4M --length 8M $loop &&
    json_eq "deprecated --length: still the length" "j['plan']['aligned_length']" "8388608"
expect "deprecated --length: says so" "$err" "^mmc-erase: --length is deprecated: use --size$"
run 0 $erase --any-device --dry-run -J --offset 4M -l 8M $loop &&
    json_eq "deprecated -l: still the length" "j['plan']['aligned_length']" "8388608"
expect "deprecated -l: says so" "$err" "^mmc-erase: -l is deprecated: use --size$"
run 1 $erase --any-device -y --method secure $loop &&
    expect "secure: a clear error where loop has no secure discard" "$err" \
        "BLKSECDISCARD at offset 0 length 67108864 failed: Operation not supported: $name does not support secure discard"
check "refusals and dry runs left every byte alone" $loop 0 0 same

# The question on a terminal (script(1) gives the tool a pty).
if command -v script >/dev/null; then
    printf 'no\n' | script -qec "$erase --any-device --offset 4M --size 4M $loop" /dev/null >"$out" 2>&1
    rc=$?
    [ "$rc" -eq 1 ] && pass "terminal: 'no' exits 1" || fail "terminal: 'no' exits $rc, expected 1"
    expect "terminal: the plan, then the question" "$out" 'Type "yes" to erase'
    expect "terminal: not confirmed, nothing erased" "$out" "not confirmed; nothing was erased"
    check "terminal: 'no' left every byte alone" $loop 0 0 same
    printf 'yes\n' | script -qec "$erase --any-device --offset 4M --size 4M $loop" /dev/null >"$out" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && pass "terminal: 'yes' erases" || fail "terminal: 'yes' exits $rc, expected 0"
    expect "terminal: progress on the terminal" "$out" "4 MiB of 4 MiB  100%"
    check "terminal: 'yes' erased exactly 4M+4M" $loop $((4 * MiB)) $((4 * MiB)) zero
else
    skip "terminal confirmation: script(1) not installed"
fi

# An optional argument given as a separate word: "--verify full DEV".
run 0 $erase --any-device -y -J --offset 4M --size 8M --verify full $loop &&
    json_eq "--verify full (separate word) is --verify=full" "j['verify']['mode'], j['verify']['result']" "full pass"

# --- each block-layer method, aligned and unaligned -------------------------
for method in discard zeroout; do
    fill "$loop"
    run 0 $erase --any-device -y -J --method $method --offset 4M --size 8M $loop &&
        json_eq "$method 4M+8M: erased as planned" "j['plan']['method'], j['erased']['offset'], j['erased']['length'], j['interrupted']" \
            "$method 4194304 8388608 False"
    check "$method 4M+8M: inside zero, outside unchanged" $loop $((4 * MiB)) $((8 * MiB)) zero

    fill "$loop"
    run 0 $erase --any-device -y -J --method $method --offset 1000000 --size 5000000 --verify $loop
    ao=$(jget "j['plan']['aligned_offset']") al=$(jget "j['plan']['aligned_length']")
    unit=$(jget "j['plan']['erase_unit']")
    json_eq "$method unaligned: head and tail left alone" \
        "j['plan']['head']['action'], j['plan']['tail']['action'], j['plan']['aligned_offset'] % j['plan']['erase_unit'], j['erased']['offset'] == j['plan']['aligned_offset']" \
        "left_alone left_alone 0 True"
    json_eq "$method unaligned: --verify passes" "j['verify']['result'], j['verify']['mode'], j['verify']['bytes_checked'] > 0" "pass sampled True"
    check "$method unaligned: whole units zero (unit $unit), head/tail and outside unchanged" $loop "$ao" "$al" zero

    fill "$loop"
    run 0 $erase --any-device -y -J --method $method --offset 1000000 --size 5000000 --zero-unaligned --verify=full $loop &&
        json_eq "$method --zero-unaligned: the whole range erased, verified in full" \
            "j['erased']['offset'], j['erased']['length'], j['verify']['result'], j['verify']['bytes_checked'], [c.get('what', 'chunk') for c in j['chunks']][-2:]" \
            "1000000 5000000 pass 5000000 ['head', 'tail']"
    check "$method --zero-unaligned: every byte of the range zero, outside unchanged" $loop 1000000 5000000 zero
done

fill "$loop"
run 0 $erase --any-device -y -J $loop &&
    json_eq "auto on a loop device is discard, whole device" "j['plan']['method'], j['erased']['length'], j['card']" "discard 67108864 None"
check "auto whole device: all zero" $loop 0 $((64 * MiB)) zero
json_eq "JSON carries the documented keys" "sorted(j.keys())" \
    "['card', 'chunks', 'contents', 'device', 'dry_run', 'erased', 'error', 'interrupted', 'notes', 'plan', 'summary', 'target', 'tool', 'verify', 'version', 'warnings']"
json_eq "summary: method, bytes, chunks, time, throughput" \
    "j['summary']['method'], j['summary']['bytes'], j['summary']['chunks'], j['summary']['seconds'] > 0, j['summary']['bytes_per_second'] > 0" \
    "discard 67108864 1 True True"

# --- a mounted device, a disk whose partition is mounted --------------------
if command -v mkfs.ext4 >/dev/null; then
    truncate -s 16M "$work/fs.img"
    attach "$work/fs.img" && fsloop=$dev
    # Whole inode tables and journal now: ext4's lazy init would otherwise
    # zero them from a kernel thread after the mount, and the sums below
    # (the device must not change) once differed by that alone.
    mkfs_quiet() { mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$@"; }
    mkfs_quiet "$fsloop" && mkdir -p "$work/mnt" && mount "$fsloop" "$work/mnt" && mounts="$work/mnt $mounts"
    if mountpoint -q "$work/mnt" 2>/dev/null || grep -q " $work/mnt " /proc/mounts; then
        sync
        sum=$(md5sum <"$fsloop")
        run 1 $erase --any-device -y $fsloop && expect "mounted device refused" "$err" \
            "^mmc-erase: $fsloop: in use: ${fsloop#/dev/} is mounted on $work/mnt; unmount or release it first$"
        [ "$(md5sum <"$fsloop")" = "$sum" ] && pass "mounted device unchanged" || fail "mounted device changed"
        umount "$work/mnt"
    else
        skip "mounted device: mount failed"
    fi

    # An MBR with two partitions: p1 1-9 MiB, p2 9-25 MiB, on 32 MiB.
    truncate -s 32M "$work/parts.img"
    python3 - "$work/parts.img" <<'EOF'
import struct, sys
mbr = bytearray(512)
for i, (start, count) in enumerate([(2048, 16384), (18432, 32768)]):
    mbr[446 + 16 * i:446 + 16 * (i + 1)] = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", start, count)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
EOF
    attach "$work/parts.img" -P && ploop=$dev
    # The kernel's partitions as the table says, whatever the kernel parsed
    # (minimal VM kernels have no MBR parser) or a former user of this loop
    # number left: partx deletes and adds them with BLKPG.
    partx -d "$ploop" 2>/dev/null
    partx -a "$ploop" 2>/dev/null
    for i in 1 2 3 4 5 6 7 8 9 10; do [ -b "${ploop}p2" ] && break; sleep 0.2; done
    pname=${ploop#/dev/}
    if [ -b "${ploop}p1" ] && [ -b "${ploop}p2" ] && [ "$(cat /sys/class/block/${pname}p1/start)" = 2048 ] &&
        [ "$(cat /sys/class/block/${pname}p2/start)" = 18432 ]; then
        mkfs_quiet -L rootfs "${ploop}p2" && mount "${ploop}p2" "$work/mnt" && mounts="$work/mnt $mounts"
        sync
        sum=$(md5sum <"$ploop")
        run 1 $erase --any-device -y $ploop && expect "disk with a mounted partition refused" "$err" \
            "^mmc-erase: $ploop: in use: ${ploop#/dev/} holds ${ploop#/dev/}p2, which is mounted on $work/mnt; unmount or release it first$"
        run 1 $erase --any-device -y --offset 1M --size 4M $ploop && expect "any range of that disk refused too" "$err" \
            "which is mounted on $work/mnt"
        [ "$(md5sum <"$ploop")" = "$sum" ] && pass "partitioned disk unchanged" || fail "partitioned disk changed"
        umount "$work/mnt"

        # What is on the range, before anything goes (libblkid, as blkdiscard).
        run 0 $erase --any-device --dry-run $ploop &&
            expect "the plan names the table and the labelled filesystem" "$out" \
                "^Contents: +dos partition table; ${pname}p1: no filesystem signature; ${pname}p2: ext4 \"rootfs\"$"
        run 0 $erase --any-device --dry-run -J --offset 1M --size 4M $ploop &&
            json_eq "a range inside p1: p1 alone, no table (the range misses sector 0)" \
                "[(c['device'], c['type'], c['start'], c['size']) for c in j['contents']]" "[('${pname}p1', '', 1048576, 8388608)]"
        run 0 $erase --any-device --dry-run -J "${ploop}p2" &&
            json_eq "a partition: its own filesystem and label" \
                "[(c['device'], c['usage'], c['type'], c['label']) for c in j['contents']]" "[('${pname}p2', 'filesystem', 'ext4', 'rootfs')]"

        # A partition is erased within its own bounds.
        # The pattern with the MBR kept in its first sector.
        cp "$pat" "$work/ppat"
        dd if="$work/parts.img" of="$work/ppat" bs=512 count=1 conv=notrunc 2>/dev/null
        dd if="$work/ppat" of="$ploop" bs=1M count=32 conv=fsync 2>/dev/null
        run 0 $erase --any-device -y -J --method zeroout "${ploop}p1" &&
            json_eq "partition: planned within its bounds" "j['target']['partition'], j['target']['start'], j['target']['size_bytes'], j['erased']['length']" \
                "True 1048576 8388608 8388608"
        check "partition p1: its 8 MiB zero, the rest of the disk unchanged" "$ploop" $MiB $((8 * MiB)) zero "$work/ppat"
    else
        skip "partitioned loop: no ${ploop}p1/p2 at sectors 2048/18432 after losetup -P and partx -a"
    fi
else
    skip "mounted-device refusals: mkfs.ext4 not installed"
fi

# --- Ctrl-C in the middle of a slowed-down erase ----------------------------
# The kernel's block throttle (blkio / io cgroup) limits the loop device to
# 20 writes a second; each 1 MiB discard chunk is one write request.
majmin=$(cat /sys/class/block/$name/dev)
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ] && [ -e /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device ]; then
    cgroup=/sys/fs/cgroup/blkio/mmckit-erase-test.$$
    mkdir "$cgroup" && echo "$majmin 20" >"$cgroup/blkio.throttle.write_iops_device" || cgroup=""
elif [ -e /sys/fs/cgroup/cgroup.controllers ] && grep -qw io /sys/fs/cgroup/cgroup.controllers; then
    cgroup=/sys/fs/cgroup/mmckit-erase-test.$$
    echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
    mkdir "$cgroup" && echo "$majmin wiops=20" >"$cgroup/io.max" || cgroup=""
fi
if [ -n "$cgroup" ]; then
    fill "$loop"
    sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cgroup" \
        $erase --any-device -y -J -v --method discard --chunk 1M $loop >"$out" 2>"$err" &
    pid=$!
    n=0
    while [ "$n" -lt 5 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; n=$(grep -c '^chunk ' "$err"); done
    kill -INT $pid
    wait $pid
    rc=$?
    [ "$rc" -eq 130 ] && pass "Ctrl-C: exit status 130" || fail "Ctrl-C: exit $rc, expected 130"
    json_eq "Ctrl-C: interrupted, erased from 0 in whole chunks, fewer than planned" \
        "j['interrupted'], j['erased']['offset'], j['erased']['length'] % $MiB, 0 < j['erased']['length'] < 64 * $MiB, len(j['chunks']) * $MiB == j['erased']['length']" \
        "True 0 0 True True"
    erased=$(jget "j['erased']['length']")
    expect "Ctrl-C: stderr names the erased range" "$err" "interrupted: erased offset 0 length $erased of $loop"
    check "Ctrl-C: exactly the reported range changed ($erased bytes)" $loop 0 "$erased" zero
else
    skip "Ctrl-C: no blk-throttle cgroup (blkio or io) to slow the loop device"
fi

# On a simulated card (mmc-sim, 4 MiB AUs, every page valid): an erase aligned
# to the AU cleans every AU of the range; one misaligned by half an AU leaves
# two AUs dirty and says so. The card's own counters are the judge.
sim=build/bin/mmc-sim
if command -v nbdfuse >/dev/null && command -v nbdkit >/dev/null && [ -e /dev/fuse ]; then
    for case in "aligned 4M 16M 16777216 4 0" "misaligned 2M 16M 12582912 3 2"; do
        set -- $case
        $sim -p class10-2015 --capacity 64M --state full --stats "$work/sim-$1.json" -- \
            sh -c "$erase -J -y --any-device --au 4M --offset $2 --size $3 \"\$MMC_SIM_DEV\"" >"$out" 2>"$err"
        rc=$?
        [ $rc -eq 0 ] && pass "sim $1: erased" || { fail "sim $1: exit $rc"; sed 's/^/    | /' "$err" | head -5; }
        json_eq "sim $1: aligned to the --au AU, $6 partial AUs" \
            "j['plan']['erase_unit'], j['plan']['erase_unit_source'], j['plan']['aligned_length'], j['plan']['au_aligned'], j['plan']['partial_aus']['count']" \
            "4194304 --au $4 True $6"
        python3 -c "import json; c = json.load(open('$work/sim-$1.json'))['counters']; print(c['discard']['bytes'], c['aus']['erased'])" >"$out" 2>&1
        expect "sim $1: the card discarded $4 bytes, $5 AUs now clean" "$out" "^$4 $5\$"
    done
    # --au measure: a card whose registers give no AU (a loop device over
    # the simulator) is erased aligned to the AU its read ladder shows.
    $sim --capacity 128M --page 16k --au 2M --state full --stats "$work/sim-measure.json" -- \
        sh -c "$erase -J -y --any-device --au measure --offset 1M --size 16M \"\$MMC_SIM_DEV\"" >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 0 ] && pass "--au measure: erased" || { fail "--au measure: exit $rc"; sed 's/^/    | /' "$err" | head -5; }
    json_eq "--au measure: aligned to the 2 MiB AU of the read ladder, 2 partial AUs" \
        "j['plan']['erase_unit'], j['plan']['erase_unit_source'].startswith('the read ladder (mmc-probe geometry'), j['plan']['au_aligned'], j['plan']['partial_aus']['count']" \
        "2097152 True True 2"
    $PY -c "import json; c = json.load(open('$work/sim-measure.json'))['counters']; print(c['discard']['bytes'], c['aus']['erased'])" >"$out" 2>&1
    expect "--au measure: the card discarded 14 MiB, 7 AUs now clean" "$out" "^14680064 7\$"
    $erase -J -y --any-device --au 4M --offset 2M --size 16M --dry-run "$loop" >"$out" 2>"$err"
    json_eq "misaligned by half an AU: the warning says what it costs" \
        "[w for w in j['warnings'] if 'partial AU' in w][0].split(':')[0]" "the range leaves 2 partial AUs at its edges"
    expect "  and names the bytes left unclean" "$out" "4 MiB of it \(2 MiB before the first whole 4 MiB AU, 2 MiB after the last\) are left alone"
else
    skip "simulated card tests (need nbdkit, nbdfuse and /dev/fuse)"
fi

finish
