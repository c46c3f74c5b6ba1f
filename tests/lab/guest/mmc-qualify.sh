# Runs inside the lab (mmcblk0: 4 GiB SDHC, mmcblk1: 1 GiB SDSC).
o=$SDLAB_OUT
mmc-qualify --destructive --yes --erase region --size 16M --runtime 2s --suites quick,a1 \
    --host-label "lab" --out $o/results /dev/mmcblk0 > $o/destructive.txt 2> $o/destructive.err
echo $? > $o/destructive.rc
# Read-only: no erase, no writes; the card's data must survive.
dd if=/dev/urandom of=/tmp/pattern bs=1M count=2 2>/dev/null
dd if=/tmp/pattern of=/dev/mmcblk1 bs=1M count=2 conv=fsync 2>/dev/null
mmc-qualify --size 16M --runtime 2s --host-label "lab" --out $o/results mmcblk1 > $o/readonly.txt 2> $o/readonly.err
echo $? > $o/readonly.rc
dd if=/dev/mmcblk1 bs=1M count=2 2>/dev/null | cmp -s - /tmp/pattern; echo $? > $o/readonly-intact.rc
# Refusal: destructive without --yes and without a terminal.
mmc-qualify --destructive --out $o/refused /dev/mmcblk1 < /dev/null > /dev/null 2> $o/refused.err
echo $? > $o/refused.rc
# A failing step is reported and the rest still runs: a non-MMC device.
mmc-qualify --out $o/broken /dev/loop7 > $o/broken.txt 2> $o/broken.err
echo $? > $o/broken.rc
