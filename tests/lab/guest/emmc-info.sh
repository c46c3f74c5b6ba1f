# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh) on the emulated eMMC,
# /dev/mmcblk0 with two boot partitions. Writes what tests/lab/emmc-info.sh
# checks into $o.
mmc-info -J /dev/mmcblk0 > $o/info.json 2> $o/info.err; echo $? > $o/info.rc
mmc-info --no-ioctl -J /dev/mmcblk0 > $o/noioctl.json 2> $o/noioctl.err; echo $? > $o/noioctl.rc
mmc-info /dev/mmcblk0 > $o/info.txt 2> $o/info-text.err; echo $? > $o/info-text.rc
mmc-info -J > $o/list.json 2> $o/list.err; echo $? > $o/list.rc
cat /sys/kernel/debug/mmc0/mmc0:0001/ext_csd > $o/debugfs-ext_csd
# The peer: Debian's mmc-utils.
mmc extcsd read /dev/mmcblk0 > $o/extcsd.txt 2> $o/extcsd.err; echo $? > $o/extcsd.rc
mmc-bus -J /dev/mmcblk0 > $o/bus.json 2> $o/bus.err; echo $? > $o/bus.rc
mmc-bus -v /dev/mmcblk0 > $o/bus.txt 2> $o/bus-text.err
# The board's device-tree node of the eMMC host, as the kernel shows it, for
# the host side to hold mmc-bus's reading against.
readlink -f /sys/class/mmc_host/mmc0/device/of_node > $o/of_node.path 2>&1
tr '\0' '\n' < /sys/class/mmc_host/mmc0/device/of_node/compatible > $o/of_node.compatible 2>&1
for b in 0 1; do cat /sys/block/mmcblk0boot$b/size > $o/boot$b.sectors; done
# The RPMB area: the kernel's character device for it.
[ -c /dev/mmcblk0rpmb ] && echo char > $o/rpmb.dev || ls -l /dev/mmcblk0rpmb > $o/rpmb.dev 2>&1
