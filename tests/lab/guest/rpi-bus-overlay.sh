# Runs inside the Pi lab booted with an overlay applied to its device tree
# (tests/lab/rpi-bus-overlay.sh, scripts/rpilab --dtbo): what the live tree,
# the kernel (ios) and mmc-bus (the doctor) then say about the SD host.
node=/proc/device-tree/soc/mmc@7e202000
for p in max-frequency brcm,overclock-50; do
    # A 32-bit cell, big-endian, as a decimal number; "absent" when the node lacks it.
    if [ -e "$node/$p" ]; then od -An -tx1 "$node/$p" | tr -d ' \n' | { read -r h; echo $((0x$h)); }; else echo absent; fi >"$o/dt-$p"
done
cat /sys/kernel/debug/mmc0/ios >$o/ios
dd if=/dev/mmcblk0 of=/dev/null bs=64k count=16 2>/dev/null; echo $? >$o/read.rc
mmc-bus -J /dev/mmcblk0 >$o/bus.json 2>$o/bus.err; echo $? >$o/bus.rc
mmc-bus -v /dev/mmcblk0 >$o/bus.txt 2>&1
