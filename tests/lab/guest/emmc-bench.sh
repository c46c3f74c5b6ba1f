# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh): mmc-bench's quick
# suite on the emulated eMMC, read-only and destructive on a small region.
mmc-bench -J --suite quick --runtime 1s --warmup 0.2s --size 8M /dev/mmcblk0 > $o/quick.json 2> $o/quick.err
echo $? > $o/quick.rc
mmc-bench -J --suite quick --runtime 1s --warmup 0.2s --size 8M --destructive --yes /dev/mmcblk0 > $o/quick-write.json 2> $o/quick-write.err
echo $? > $o/quick-write.rc
