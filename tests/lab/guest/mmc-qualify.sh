# Runs inside the lab (mmcblk0: 4 GiB SDHC, mmcblk1: 1 GiB SDSC).
o=${o:-$SDLAB_OUT}
mmc-qualify --destructive --yes --erase region --size 16M --runtime 2s --suite quick,a1 \
    --host-label "lab" --out $o/results /dev/mmcblk0 > $o/destructive.txt 2> $o/destructive.err
echo $? > $o/destructive.rc
# Read-only: no erase, no writes; the card's data must survive.
dd if=/dev/urandom of=/tmp/pattern bs=1M count=2 2>/dev/null
dd if=/tmp/pattern of=/dev/mmcblk1 bs=1M count=2 conv=fsync 2>/dev/null
mmc-qualify --size 16M --runtime 2s --host-label "lab" --out $o/results mmcblk1 > $o/readonly.txt 2> $o/readonly.err
echo $? > $o/readonly.rc
dd if=/dev/mmcblk1 bs=1M count=2 2>/dev/null | cmp -s - /tmp/pattern; echo $? > $o/readonly-intact.rc
# The plan: printed, nothing done.
mmc-qualify -n --destructive --out $o/dry mmcblk1 > $o/dry.txt 2> $o/dry.err
echo $? > $o/dry.rc
dd if=/dev/mmcblk1 bs=1M count=2 2>/dev/null | cmp -s - /tmp/pattern; echo $? > $o/dry-intact.rc
# Refusal: destructive without --yes and without a terminal.
mmc-qualify --destructive --out $o/refused /dev/mmcblk1 < /dev/null > /dev/null 2> $o/refused.err
echo $? > $o/refused.rc
# Failing steps keep their real exit statuses and the rest still runs: a
# non-MMC device with --any-device (identify and bus: 1), and a region past
# the card's end (erase: 2, a usage error).
mmc-qualify -J --any-device --out $o/broken /dev/loop7 > $o/broken.json 2> $o/broken.err
echo $? > $o/broken.rc
# Without --any-device a device that is no card is refused before any step.
mmc-qualify --out $o/nocard /dev/loop7 > /dev/null 2> $o/nocard.err
echo $? > $o/nocard.rc
mmc-qualify -J --destructive --yes --erase region --size 2G --runtime 1s --suite quick --out $o/toobig mmcblk1 \
    > $o/toobig.json 2> $o/toobig.err
echo $? > $o/toobig.rc
# Ctrl-C during a whole-card erase (minutes under emulation): exit 130, no
# later step started, so the card sees no write (the block layer's count of
# sectors written, field 7 of the stat file, does not move; erase is not a write).
sync
cat /sys/block/mmcblk0/stat > $o/int-stat-before
mmc-qualify -J --destructive --yes --suite quick,a1 --runtime 2s --out $o/int /dev/mmcblk0 > $o/int.json 2> $o/int.err &
pid=$!
i=0
# (the geometry step reads for a while first: up to 5 minutes under emulation)
while ! grep -q "erase \.\.\." $o/int.err && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
sleep 3
kill -INT $pid
wait $pid
echo $? > $o/int.rc
sync
cat /sys/block/mmcblk0/stat > $o/int-stat-after
