#!/bin/sh
# check: expect 31
# mmc-format on image files and loop devices: the usage errors; --check's
# clear errors on hostile images (empty, a GPT, an extended-partition loop,
# truncated); posted fdisk -l outputs read by --fdisk-text; a 1 MiB-offset mkfs.vfat image misaligned on an 8 MiB AU; the
# SD layout written to images of each band (FAT12, FAT16, FAT32, exFAT),
# fsck clean, --check aligned, and the boot sector's and FSInfo's bytes
# equal to the SD rules' figures for the capacity (a 16 GB card's worked by
# hand); on a loop device the card refusal, -n writing nothing, --erase-first, the mounted
# refusal, the Linux layout's ext4 stride, and a vfat mount where the kernel
# has vfat. Formatting needs root (losetup for fsck); skips with the reason.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
fmt=build/bin/mmc-format
data=tests/data/format

run 2 $fmt && expect "no device: usage error" "$err" "no DEVICE given"
run 2 $fmt --au measure --au 4M x.img && expect "--au twice is a usage error" "$err" "--au: given more than once"
run 2 $fmt --fs-layout ntfs x.img && expect "--fs-layout takes sd, ext4 (linux) or f2fs" "$err" "--fs-layout ntfs: expected sd, ext4 \(or linux\) or f2fs"
run 2 $fmt --check --yes x.img && expect "--check writes nothing: --yes contradicts it" "$err" "--yes with --check"
run 2 $fmt --check --volume-label A x.img && expect "--check with --volume-label" "$err" "--volume-label with --check"
run 0 $fmt --version && expect "--version" "$out" "mmc-format from mmckit [0-9]"

# Hostile images: a clear error, exit 1, never a crash.
run 1 $fmt --check $data/empty.img && expect "a 0-byte image: empty" "$err" "empty.img: empty: shorter than one 512-byte sector"
run 1 $fmt --check $data/gpt-protective.img && expect "a GPT: refused with why" "$err" "a GPT \(protective MBR, type 0xee\)"
run 1 $fmt --check $data/extended-loop.img && expect "an extended-partition loop" "$err" "chain loops back to sector 1"
run 1 $fmt --check $data/fat32-near-head.img && expect "a truncated image: the partition past its end" "$err" "truncated: partition 1 ends at sector 7979009, past the end \(10 sectors\)"
run 1 $fmt --check /nonexistent/card.img && expect "a missing image: a missing file, not a device" "$err" "^mmc-format: /nonexistent/card.img: No such file or directory$"

# Posted fdisk -l outputs (tests/data/format/README.md): the table read from
# the text, each partition's start checked; what cannot be exact is refused.
fd=$data/fdisk
run 0 $fmt --check --fdisk-text $fd/sd16g-factory-ragnyll-2018.txt && expect "fdisk text: a factory-formatted 16 GB card, aligned" "$out" "verdict: +aligned"
run 0 $fmt --check -J --au 8M --fdisk-text $fd/sd16g-factory-ragnyll-2018.txt && expect "fdisk text: FAT32 4 MiB into an 8 MiB AU: unknown without its boot sector" "$out" '"verdict": "unknown"'
run 0 $fmt --check --au 4M --fdisk-text - /dev/sda <$fd/pc-disk-extended-embeddedforu-2016.txt && expect "fdisk text on stdin, a disk named: Linux at 1 MiB misaligned" "$out" "verdict: +misaligned"
run 1 $fmt --check --fdisk-text $fd/pc-disk-cylinders-openpeta.txt && expect "fdisk text in cylinder units: refused with the remedy" "$err" "cylinder units.*fdisk -l -u"
run 1 $fmt --check --fdisk-text $fd/pc-disk-extended-embeddedforu-2016.txt /dev/sdb && expect "fdisk text: a disk without rows is not there" "$err" "no disk '/dev/sdb' in the text"
run 2 $fmt --fdisk-text $fd/sd16g-factory-ragnyll-2018.txt && expect "--fdisk-text without --check" "$err" "add --check"

work=$(mktemp -d)
loops="" mounts=""
cleanup() {
    for m in $mounts; do umount "$m" 2>/dev/null; done
    for l in $loops; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$work" "$out" "$err"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# mkfs.vfat's defaults at a 1 MiB offset (as an OS image puts its first
# partition), held against an 8 MiB AU: the data area inside an AU.
$PY - "$work/vfat.img" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.truncate(4000 * 1024 * 1024)
    mbr = bytearray(512)
    mbr[446 + 4] = 0x0C
    struct.pack_into("<II", mbr, 446 + 8, 2048, 4000 * 2048 - 2048)
    mbr[510:512] = b"\x55\xaa"
    f.write(mbr)
PY
if command -v mkfs.vfat >/dev/null; then
    mkfs.vfat --offset=2048 -F 32 "$work/vfat.img" >/dev/null 2>&1
    run 0 $fmt --check -J --au 8M "$work/vfat.img" &&
        json_eq "mkfs.vfat at 1 MiB on an 8 MiB AU: misaligned" "j['verdict']" "misaligned"
    # Where mkfs.vfat put the data area, from its boot sector's own fields.
    into=$($PY -c "
import struct, sys
f = open(sys.argv[1], 'rb'); f.seek(2048 * 512); b = f.read(512)
r, n, fat = struct.unpack_from('<H', b, 14)[0], b[16], struct.unpack_from('<I', b, 36)[0]
print((2048 + r + n * fat) * 512 % (8 << 20) // 1024)" "$work/vfat.img")
    json_eq "its data area is the finding, with its cost" \
        "[f['message'] for f in j['findings'] if f['what'] == 'data_start'][0].split(' starts ')[1].split(':')[0]" "$into KiB into an 8 MiB AU"
    run 0 $fmt --check "$work/vfat.img" && expect "held against the SD layout's unit without --au" "$out" "unit: +4 MiB \(the SD layout's boundary unit"
    expect "the unit's article: a boundary unit" "$out" "rewrites a boundary unit of file data"
else
    skip "mkfs.vfat image: dosfstools not installed"; skip "its finding"; skip "without --au"; skip "the unit's article"
fi
rm -f "$work/vfat.img"

if [ "$(id -u)" -ne 0 ]; then skip "formatting: not root (losetup for fsck)"; finish; exit; fi
for p in mkfs.fat mkfs.exfat fsck.fat fsck.exfat losetup; do
    command -v $p >/dev/null || { skip "formatting: $p not installed (scripts/install-deps)"; finish; exit; }
done

# format NAME SECTORS: an image of SECTORS formatted by mmc-format (-J).
format() {
    rm -f "$work/$1.img"
    truncate -s $(($2 * 512)) "$work/$1.img"
    run 0 $fmt --yes -J "$work/$1.img"
}
# bytes IMG PYEXPR: PYEXPR over the image's sectors, via s(n) = sector n.
bytes() {
    $PY -c "
import struct, sys
f = open(sys.argv[1], 'rb')
def s(n):
    f.seek(n * 512); return f.read(512)
u8 = lambda b, o: b[o]
u16 = lambda b, o: struct.unpack_from('<H', b, o)[0]
u32 = lambda b, o: struct.unpack_from('<I', b, o)[0]
u64 = lambda b, o: struct.unpack_from('<Q', b, o)[0]
print($2)" "$1"
}

# A 16 GB card (31074304 sectors): the figures worked by hand in
# tests/unit/format_sd_layout_test.cpp.
img=$work/fat32.img
if format fat32 31074304; then
    json_eq "FAT32 16 GB: fsck.fat -n clean" "j['fsck']" "clean"
    json_eq "FAT32 16 GB: --check on the result aligned" "j['verdict']" "aligned"
    want=$(bytes "$img" "'%d %d %d' % (u32(s(0), 454), u32(s(0), 458), u8(s(0), 450))")
    [ "$want" = "8192 31066112 12" ] && pass "MBR: partition at 8192, to the card's end, type 0x0c" || fail "MBR: got '$want'"
    bpb=$(bytes "$img" "' '.join(str(x) for x in (u16(s(8192), 11), u8(s(8192), 13), u16(s(8192), 14), u8(s(8192), 16), u32(s(8192), 28), u32(s(8192), 32), u32(s(8192), 36), u32(s(8192), 44), u16(s(8192), 48), u16(s(8192), 50), u16(s(8192), 24), u16(s(8192), 26)))")
    [ "$bpb" = "512 64 608 2 8192 31066112 3792 2 1 6 63 255" ] &&
        pass "FAT32 boot sector: 512 B sectors, 64 per cluster, 608 reserved, 2 FATs, 8192 hidden, 31066112 total, FAT 3792, root 2, FSInfo 1, backup 6, 63/255 CHS" ||
        fail "FAT32 boot sector fields: got '$bpb'"
    backup=$(bytes "$img" "s(8192)[:90] == s(8198)[:90]")
    [ "$backup" = True ] && pass "the backup boot sector at 6 equals the boot sector" || fail "backup boot sector differs"
    fsi=$(bytes "$img" "'%x %x %x %d' % (u32(s(8193), 0), u32(s(8193), 484), u32(s(8193), 508), u32(s(8193), 488))")
    [ "$fsi" = "41615252 61417272 aa550000 485279" ] &&
        pass "FSInfo: signatures, and 485279 free clusters (485280 less the root directory's)" || fail "FSInfo: got '$fsi'"
    json_eq "the data area at 16384 sectors from the card's start (8 MiB: on the unit)" \
        "j['check']['partition_table']['partitions'][0]['start_sector'] + j['check']['partition_table']['partitions'][0]['volume']['data_start_sector']" "16384"
fi
rm -f "$img"

# Each FAT band: the plan's figures (mmc-format -n -J) are what the image holds.
for band in "fat12 14336 FAT12" "fat16 2050048 FAT16" "fat16s 200000 FAT16"; do
    set -- $band
    img=$work/$1.img
    if format "$1" "$2"; then
        json_eq "$3 ($2 sectors): fsck clean, checks aligned" "j['fsck'] + ' ' + j['verdict']" "clean aligned"
        json_eq "$3 ($2 sectors): the file system is $3" "j['check']['partition_table']['partitions'][0]['volume']['file_system']" "$3"
        start=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['plan']['partition_start_sector'])" "$out")
        plan=$($PY -c "import json,sys; p = json.load(open(sys.argv[1]))['plan']; print(p['reserved_sectors'], p['fat_sectors'], p['cluster_bytes'] // 512, p['partition_start_sector'], p['partition_sectors'])" "$out")
        got=$(bytes "$img" "u16(s($start), 14), u16(s($start), 22), u8(s($start), 13), u32(s($start), 28), u16(s($start), 19) or u32(s($start), 32)")
        got=$(echo "$got" | tr -d '(),')
        [ "$got" = "$plan" ] && pass "$3 ($2 sectors): boot sector reserved/FAT/cluster/hidden/total = the SD rules' $plan" ||
            fail "$3 ($2 sectors): boot sector '$got', the SD rules '$plan'"
    fi
    rm -f "$img"
done

# exFAT, 40 GiB (sparse): the FAT at half a 16 MiB unit, the heap at one,
# PartitionOffset written by us (mkfs.exfat cannot) and its checksum valid
# (fsck.exfat clean says so).
img=$work/exfat.img
if format exfat 83886080; then
    json_eq "exFAT 40 GiB: fsck.exfat -n clean, checks aligned" "j['fsck'] + ' ' + j['verdict']" "clean aligned"
    got=$(bytes "$img" "' '.join(str(x) for x in (u64(s(32768), 64), u64(s(32768), 72), u32(s(32768), 80), u32(s(32768), 88), u8(s(32768), 109), u8(s(32768), 110), u64(s(32768 + 12), 64)))")
    [ "$got" = "32768 83853312 16384 32768 8 1 32768" ] &&
        pass "exFAT boot sector: PartitionOffset 32768, VolumeLength 83853312, FatOffset 16384, ClusterHeapOffset 32768, 128 KiB clusters, 1 FAT; backup too" ||
        fail "exFAT boot sector: got '$got'"
fi
rm -f "$img"

# Loop devices: a card's rules for a device that is not a card.
truncate -s 1001M "$work/loop.img"
dev=$(losetup -f --show -P "$work/loop.img") && loops="$dev"
run 1 $fmt --yes "$dev" && expect "a loop device without --any-device: refused, with the remedy" "$err" "not an MMC/SD device.*use --any-device to write to it anyway$"
sum_before=$(cksum <"$work/loop.img")
run 0 $fmt -n --any-device "$dev" && expect "-n: the plan" "$out" "Dry run: nothing was written"
[ "$(cksum <"$work/loop.img")" = "$sum_before" ] && pass "-n wrote nothing" || fail "-n changed the device"
run 1 $fmt --any-device "$dev" </dev/null && expect "no terminal and no --yes: refused" "$err" "refusing to format without confirmation"
run 0 $fmt --any-device --yes --volume-label sdcard "$dev" && expect "formatted the loop device: aligned" "$out" "verdict: +aligned"
expect "fsck clean on the loop device" "$out" "fsck: clean"
run 0 $fmt --check "$dev" && expect "--check of the loop device (SD unit for its size)" "$out" "verdict: +aligned"
label=$(bytes "$work/loop.img" "s(u32(s(0), 454))[43:54].decode()")
[ "$label" = "SDCARD     " ] && pass "the label, upper case, in the boot sector" || fail "label: got '$label'"
run 0 $fmt --any-device --yes --erase-first "$dev" && expect "--erase-first: erased through mmc-erase's path, verified" "$out" "erased 1049624576 bytes .*verified"
expect "--erase-first: then formatted, aligned" "$out" "verdict: +aligned"
mkdir -p "$work/mnt"
if [ -b "${dev}p1" ] && mount -t vfat "${dev}p1" "$work/mnt" 2>/dev/null; then
    mounts="$work/mnt"
    echo "mmc-format test" >"$work/mnt/test.txt" && sync
    umount "$work/mnt" && mount -t vfat "${dev}p1" "$work/mnt"
    [ "$(cat "$work/mnt/test.txt")" = "mmc-format test" ] && pass "vfat: mounted, wrote and read back a file" || fail "vfat: the file did not read back"
    umount "$work/mnt"; mounts=""
else
    skip "vfat mount: this kernel ($(uname -r)) has no vfat (not in /proc/filesystems, no module), or the loop driver scans no partitions: not mounted here (tests/lab/mmc-format.sh mounts FAT16, FAT32, exFAT and f2fs in the lab)"
fi

# --fs-layout f2fs: f2fs at the unit, sections of one unit (8 MiB: 4 segments).
if command -v mkfs.f2fs >/dev/null && command -v fsck.f2fs >/dev/null; then
    run 0 $fmt -n -J --any-device --au 8M --fs-layout f2fs "$dev" &&
        json_eq "f2fs plan: its own figures, not the SD layout's" \
            "j['plan']['file_system'], j['plan']['partition_start_sector'], j['plan']['segments_per_section'], j['plan']['section_bytes']" \
            "f2fs 16384 4 8388608"
    run 0 $fmt -J --any-device --yes --au 8M --fs-layout f2fs --volume-label SDF2FS "$dev" &&
        json_eq "f2fs: made with -s 4 -z 1, fsck.f2fs clean, checks aligned" \
            "any(c.startswith('mkfs.f2fs -f -q -s 4 -z 1 -l SDF2FS ') for c in j['commands']), j['fsck'], j['verdict']" "True clean aligned"
    json_eq "f2fs: --check read its superblock: sections of 8 MiB, the main area on the AU" \
        "[(p['volume']['file_system'], p['volume']['section_bytes'], (p['start_sector'] * 512 + p['volume']['main_start_bytes']) % (8 << 20)) for p in j['check']['partition_table']['partitions']]" \
        "[('f2fs', 8388608, 0)]"
    run 0 $fmt --check --au 16M "$dev" && expect "f2fs against a 16 MiB AU: sections of half an AU, and the remedy" "$out" "sections of 8 MiB where the AU is 16 MiB.*mkfs.f2fs -s 8"
else
    skip "f2fs layout: f2fs-tools not installed (make deps)"; skip "made"; skip "checked"; skip "16 MiB AU"
fi

# --fs-layout linux: ext4 at the unit, stride and stripe width of one unit.
if command -v mkfs.ext4 >/dev/null && command -v tune2fs >/dev/null; then
    run 0 $fmt --any-device --yes --au 8M --fs-layout linux "$dev" && expect "linux layout: formatted" "$out" "made ext4"
    start=$(bytes "$work/loop.img" "u32(s(0), 454)")
    [ "$start" = 16384 ] && pass "linux layout: the partition at the 8 MiB AU" || fail "linux layout: partition at $start"
    # The partition through a loop device of its own (this kernel's loop
    # driver may not scan partitions).
    part=$(losetup -f --show --read-only --offset $((start * 512)) "$work/loop.img") && loops="$loops $part"
    tune2fs -l "$part" >"$out" 2>&1
    expect "ext4 RAID stride = 2048 blocks (8 MiB)" "$out" "RAID stride: +2048"
    expect "ext4 RAID stripe width = 2048 blocks" "$out" "RAID stripe width: +2048"
    # A mounted device is refused: an ext4 on the whole loop device, mounted.
    mkfs.ext4 -q -F "$dev" 2>/dev/null
    if mount -t ext4 "$dev" "$work/mnt" 2>/dev/null; then
        mounts="$work/mnt"
        run 1 $fmt --any-device --yes "$dev" && expect "a mounted device: refused" "$err" "in use"
        umount "$work/mnt"; mounts=""
    else
        skip "ext4 mount failed: the mounted refusal untested"
    fi
else
    skip "linux layout: e2fsprogs not installed"; skip "partition"; skip "stride"; skip "stripe width"; skip "mounted"
fi
finish
