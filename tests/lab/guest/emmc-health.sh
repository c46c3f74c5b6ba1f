# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh): mmc-health on the
# emulated eMMC, with EXT_CSD read by CMD8 through the kernel, and with
# sysfs and debugfs only; then the kernel's force_ro set and cleared.
mmc-health -J /dev/mmcblk0 > $o/health.json 2> $o/health.err; echo $? > $o/health.rc
mmc-health -J --no-ioctl mmcblk0 > $o/noioctl.json 2> $o/noioctl.err; echo $? > $o/noioctl.rc
mmc-health mmcblk0 > $o/health.txt 2> $o/health-text.err; echo $? > $o/health-text.rc
echo 1 > /sys/block/mmcblk0/force_ro
mmc-health -J mmcblk0 > $o/force-ro.json 2> $o/force-ro.err; echo $? > $o/force-ro.rc
echo 0 > /sys/block/mmcblk0/force_ro
