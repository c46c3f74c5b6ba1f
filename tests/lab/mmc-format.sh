#!/bin/sh
# mmc-format through the lab's real kernel MMC stack, one boot of the shared
# SD lab: FAT32 on the 4 GiB SDHC card (with a label), FAT16 on the 1 GiB
# SDSC card, exFAT on a 64 GiB sparse loop device, f2fs on the SDHC card
# (--fs-layout f2fs); each new file system is mounted by the lab's kernel
# (vfat, exfat, f2fs), written, mounted again and read
# back, fsck -n finds it clean after the kernel's write, and --check calls
# it aligned. A card with a mounted partition is refused and keeps its file.
# (This machine's kernel has no vfat; tests/cli/mmc-format.sh covers the
# rest on loop devices.)
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/sd-lib.sh
reason=$(sd_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

sd_lab mmc-format || { finish; exit 1; }

rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || { fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    | /' "$res/$2.err" "$res/guest.log" 2>/dev/null | head -6; }; }
check() { # check NAME FILE PYEXPR EXPECTED
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($3)" "$res/$2" 2>&1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: got '$got', expected '$4'"; fi
}
# read_back NAME: the kernel mounted the new file system and read the file back.
read_back() {
    rc "$1: the lab's kernel mounts it, writes a file, mounts it again" "$1-mount" 0
    [ "$(cat "$res/$1-readback.txt" 2>/dev/null)" = "mmc-format lab $1" ] &&
        pass "$1: the file reads back" || fail "$1: the file did not read back ($(cat "$res/$1-mount.err" 2>/dev/null))"
}

expect "the lab's kernel has vfat and exfat" "$res/filesystems" "vfat"
expect "... and exfat" "$res/filesystems" "exfat"
expect "... and f2fs" "$res/filesystems" "f2fs"

rc "plan (-n) of the 4 GiB card" plan 0
check "plan: FAT32, 32 KiB clusters, by the SD layout's band" plan.json \
    "j['plan']['file_system'], j['plan']['cluster_bytes']" "FAT32 32768"

rc "FAT32 on the SDHC card" fat32 0
check "FAT32: mkfs.fat, fsck clean, --check aligned" fat32.json \
    "j['plan']['file_system'], j['fsck'], j['check']['verdict']" "FAT32 clean aligned"
check "FAT32: the data area starts on the boundary unit" fat32.json \
    "(j['plan']['partition_start_sector'] + j['plan']['data_start_sector']) * 512 % j['plan']['boundary_unit_bytes']" "0"
expect "FAT32: the kernel re-read the table (mmcblk0p1)" "$res/fat32-part" "^/dev/mmcblk0p1$"
read_back fat32
rc "FAT32: fsck.fat -n clean after the kernel wrote" fat32-fsck 0
rc "FAT32: --check on the card" fat32-check 0
check "FAT32: --check verdict, from the card's own AU" fat32-check.json "j['verdict'], j['unit_source'] != '--au'" "aligned True"
expect "FAT32: blkid reads the label" "$res/fat32-blkid" 'LABEL="LABCARD"'

rc "a card with a mounted partition is refused" mounted 1
expect "refusal names the mount" "$res/mounted.err" "in use"
[ "$(cat "$res/mounted-after.txt")" = "mmc-format lab fat32" ] && pass "the refused card keeps its file" ||
    fail "the refused card lost its file: $(cat "$res/mounted-after.txt")"

rc "f2fs on the SDHC card (--fs-layout f2fs)" f2fs 0
check "f2fs: at the 4 MiB AU, sections of 2 segments (one AU), fsck.f2fs clean, aligned" f2fs.json \
    "j['plan']['file_system'], j['plan']['partition_start_sector'], j['plan']['segments_per_section'], j['fsck'], j['check']['verdict']" \
    "f2fs 8192 2 clean aligned"
read_back f2fs
rc "f2fs: fsck.f2fs exits 0 after the kernel wrote" f2fs-fsck 0
if grep -q "\[Fail\]" "$res/f2fs-fsck.out"; then fail "f2fs: fsck.f2fs failed a check after the kernel wrote"; else pass "f2fs: fsck.f2fs passes every check"; fi

rc "FAT16 on the SDSC card" fat16 0
check "FAT16: by the 1 GiB band, fsck clean, aligned" fat16.json \
    "j['plan']['file_system'], j['fsck'], j['check']['verdict']" "FAT16 clean aligned"
read_back fat16
rc "FAT16: fsck.fat -n clean after the kernel wrote" fat16-fsck 0

rc "exFAT on a 64 GiB loop device" exfat 0
check "exFAT: by the 64 GB band, 128 KiB clusters, fsck clean, aligned" exfat.json \
    "j['plan']['file_system'], j['plan']['cluster_bytes'], j['fsck'], j['check']['verdict']" "exFAT 131072 clean aligned"
read_back exfat
rc "exFAT: fsck.exfat -n clean after the kernel wrote" exfat-fsck 0
rc "exFAT: --check" exfat-check 0
check "exFAT: --check verdict" exfat-check.json "j['verdict']" "aligned"
finish
