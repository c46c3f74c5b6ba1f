# Runs inside the Pi lab (see tests/lab/rpi-lib.sh): mmc-bench's quick suite
# on the Pi's SD host, read-only and then with writes on a 2 MiB region (the emulated sdhost moves well under 1 MB/s).
mmc-bench -J --suite quick --runtime 1s --warmup 0.2s --size 2M /dev/mmcblk0 > $o/quick.json 2> $o/quick.err
echo $? > $o/quick.rc
mmc-bench -J --suite quick --runtime 1s --warmup 0.2s --size 2M --destructive --yes /dev/mmcblk0 \
    > $o/quick-write.json 2> $o/quick-write.err
echo $? > $o/quick-write.rc
