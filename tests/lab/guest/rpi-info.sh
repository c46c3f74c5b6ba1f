# Runs inside the Pi lab (see tests/lab/rpi-lib.sh): the card on the Pi's SD
# host. mmc-info and mmc-bus, and what the kernel itself says, for
# tests/lab/rpi-info.sh to hold them against.
dev=/dev/mmcblk0
mmc-info -J $dev > $o/info.json 2> $o/info.err; echo $? > $o/info.rc
mmc-info $dev > $o/info.txt 2> $o/info-text.err; echo $? > $o/info-text.rc
mmc-info -J > $o/list.json 2> $o/list.err; echo $? > $o/list.rc
# The card must still work after mmc-info's CMD7/CMD9/CMD10/CMD7.
dd if=$dev of=/dev/null bs=4096 count=16 2>/dev/null; echo $? > $o/read-after.rc
card=$(ls /sys/bus/mmc/devices | head -n1)
echo "$card" > $o/card
cat /sys/bus/mmc/devices/$card/rca > $o/sysfs-rca 2>/dev/null
cat /sys/block/mmcblk0/device/cid > $o/sysfs-cid
cat /sys/block/mmcblk0/device/csd > $o/sysfs-csd
mmc-bus -J $dev > $o/bus.json 2> $o/bus.err; echo $? > $o/bus.rc
mmc-bus -v $dev > $o/bus.txt 2> $o/bus-text.err; echo $? > $o/bus-text.rc
cat /sys/kernel/debug/mmc0/ios > $o/ios
cat /sys/kernel/debug/mmc0/caps > $o/caps
basename "$(readlink -f /sys/class/mmc_host/mmc0/device/driver)" > $o/driver
tr '\0' '\n' < /sys/class/mmc_host/mmc0/device/of_node/compatible > $o/compatible
dmesg | grep -E 'mmc0|sdhost' > $o/dmesg
