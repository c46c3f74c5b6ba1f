# Runs inside the lab (two cards: mmcblk0 4 GiB SDHC, mmcblk1 1 GiB SDSC).
# Writes what the host-side test checks into $SDLAB_OUT.
o=${o:-$SDLAB_OUT}
mmc-info -J > $o/list.json; echo $? > $o/list.rc
mmc-info -J /dev/mmcblk0 > $o/sdhc.json; echo $? > $o/sdhc.rc
cat /sys/block/mmcblk0/device/cid > $o/sysfs-cid
cat /sys/block/mmcblk0/device/csd > $o/sysfs-csd
# The card must still work after CMD7/CMD9/CMD10/CMD7.
dd if=/dev/mmcblk0 of=/dev/null bs=4096 count=16 2>/dev/null; echo $? > $o/read-after.rc
mmc-info -J mmc1 > $o/sdsc.json; echo $? > $o/sdsc.rc
mmc-info /dev/mmcblk0 > $o/sdhc.txt; echo $? > $o/sdhc-text.rc
mmc-info --no-ioctl -J mmcblk0 > $o/noioctl.json; echo $? > $o/noioctl.rc
# Bad input: no such device, a non-MMC block device, an unprivileged user.
mmc-info /dev/mmcblk9 2> $o/missing.err; echo $? > $o/missing.rc
dd if=/dev/zero of=/tmp/disk bs=1M count=8 2>/dev/null
losetup /dev/loop0 /tmp/disk 2>/dev/null || { mknod /dev/loop0 b 7 0; losetup /dev/loop0 /tmp/disk; }
mmc-info /dev/loop0 2> $o/loop.err; echo $? > $o/loop.rc
echo "user:x:1000:1000::/tmp:/bin/sh" >> /etc/passwd
su -p -s /bin/sh user -c "mmc-info -J /dev/mmcblk0" > $o/user.json 2> $o/user.err; echo $? > $o/user.rc
