# Runs inside the Pi lab (see tests/lab/rpi-lib.sh), last: mmc-watch while the
# Pi's SD host is unbound from sdhost-bcm2835 and bound again, which removes
# the host and its card and finds them anew (the rescan of a platform host).
host=$(basename "$(readlink -f /sys/class/mmc_host/mmc0/device)")
card=$(ls /sys/bus/mmc/devices | head -n1)
echo "$host" > $o/host
echo "$card" > $o/card
drv=/sys/bus/platform/drivers/sdhost-bcm2835
socks() { grep -cE "^[^ ]+ +15 +-?[0-9]+ +00000001 " /proc/net/netlink; }
before=$(socks)
(mmc-watch -J --timeout 10 > $o/json 2> $o/json.err; echo $? > $o/json.rc) &
(mmc-watch --timeout 10 > $o/text 2> $o/text.err; echo $? > $o/text.rc) &
i=0; while [ "$(socks)" -lt $((before + 2)) ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
echo "$before $(socks)" > $o/sockets
echo "$host" > $drv/unbind; echo $? > $o/unbind.rc
sleep 1
[ -b /dev/mmcblk0 ] && echo yes > $o/still-there
echo "$host" > $drv/bind; echo $? > $o/bind.rc
i=0; while [ ! -b /dev/mmcblk0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/mmcblk0 ] && echo yes > $o/card.back
ls /sys/bus/mmc/devices > $o/card.after
wait
