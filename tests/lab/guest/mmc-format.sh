# Runs inside the lab (mmcblk0: 4 GiB SDHC, mmcblk1: 1 GiB SDSC). Formats
# both cards with mmc-format (FAT32 and FAT16 by their capacity, then f2fs
# on the first with --fs-layout f2fs) and a 64 GiB sparse loop device
# (exFAT), then has the lab's own kernel mount each new
# file system, write a file, mount it again and read the file back; fsck
# and --check run on the result, and a mounted card is refused. The
# dosfstools, exfatprogs, f2fs-tools and util-linux losetup programs mmc-format runs
# come from the host (scripts/sdlab's peers), ahead of busybox's; the
# kernel's vfat, exfat and f2fs are loaded by the lab's /init.
# (busybox's sh runs its own applets before PATH: util-linux's losetup and
# blkid are called by their path here.)
o=${o:-$SDLAB_OUT}
export PATH=/host/peers:$PATH
cat /proc/filesystems > $o/filesystems
mkdir -p /mnt/fmt

# mounted_read_back NAME TYPE DEV: mount, write, unmount, mount again, read back.
mounted_read_back() {
    rc=1
    if mount -t $2 $3 /mnt/fmt 2> $o/$1-mount.err; then
        echo "mmc-format lab $1" > /mnt/fmt/test.txt && sync
        umount /mnt/fmt
        mount -t $2 -o ro $3 /mnt/fmt 2>> $o/$1-mount.err && cat /mnt/fmt/test.txt > $o/$1-readback.txt
        rc=$?
        umount /mnt/fmt
    fi
    echo $rc > $o/$1-mount.rc
}

# The plan, nothing written.
mmc-format -n -J /dev/mmcblk0 > $o/plan.json 2> $o/plan.err; echo $? > $o/plan.rc

# FAT32 on the SDHC card, with a label.
mmc-format --yes --volume-label LABCARD -J /dev/mmcblk0 > $o/fat32.json 2> $o/fat32.err; echo $? > $o/fat32.rc
ls /dev/mmcblk0p1 > $o/fat32-part 2>&1
mounted_read_back fat32 vfat /dev/mmcblk0p1
fsck.fat -n /dev/mmcblk0p1 > $o/fat32-fsck.out 2>&1; echo $? > $o/fat32-fsck.rc
mmc-format --check -J /dev/mmcblk0 > $o/fat32-check.json 2> $o/fat32-check.err; echo $? > $o/fat32-check.rc
/host/peers/blkid /dev/mmcblk0p1 > $o/fat32-blkid 2>&1

# A mounted card is refused, and stays as it was.
mount -t vfat /dev/mmcblk0p1 /mnt/fmt
mmc-format --yes /dev/mmcblk0 > /dev/null 2> $o/mounted.err; echo $? > $o/mounted.rc
cat /mnt/fmt/test.txt > $o/mounted-after.txt 2>&1
umount /mnt/fmt

# f2fs on the SDHC card (--fs-layout f2fs): sections of one AU.
mmc-format --yes --fs-layout f2fs -J /dev/mmcblk0 > $o/f2fs.json 2> $o/f2fs.err; echo $? > $o/f2fs.rc
mounted_read_back f2fs f2fs /dev/mmcblk0p1
fsck.f2fs --dry-run -f /dev/mmcblk0p1 > $o/f2fs-fsck.out 2>&1; echo $? > $o/f2fs-fsck.rc

# FAT16 on the 1 GiB SDSC card (byte-addressed).
mmc-format --yes -J mmcblk1 > $o/fat16.json 2> $o/fat16.err; echo $? > $o/fat16.rc
mounted_read_back fat16 vfat /dev/mmcblk1p1
fsck.fat -n /dev/mmcblk1p1 > $o/fat16-fsck.out 2>&1; echo $? > $o/fat16-fsck.rc

# exFAT above 32 GB: a sparse 64 GiB loop device with partition scanning,
# formatted as a card of that size with a 16 MiB AU.
truncate -s 64G /tmp/sdxc.img
loop=$(/host/peers/losetup --find --show --partscan /tmp/sdxc.img)
echo "$loop" > $o/exfat-loop
mmc-format --any-device --au 16M --yes -J $loop > $o/exfat.json 2> $o/exfat.err; echo $? > $o/exfat.rc
mdev -s
mounted_read_back exfat exfat ${loop}p1
fsck.exfat -n ${loop}p1 > $o/exfat-fsck.out 2>&1; echo $? > $o/exfat-fsck.rc
mmc-format --check -J --au 16M $loop > $o/exfat-check.json 2> $o/exfat-check.err; echo $? > $o/exfat-check.rc
/host/peers/losetup -d $loop
rm -f /tmp/sdxc.img
