# Runs inside the Pi lab (see tests/lab/rpi-lib.sh): mmc-bench's quick suite
# on the Pi's SD host, read-only and then with writes, on 4 MiB: one block of
# the suite's 4 MiB sequential jobs, as the emulated sdhost moves under 1 MB/s.
mmc-bench -J --suite quick --runtime 1s --warmup 0.2s --size 4M /dev/mmcblk0 > $o/quick.json 2> $o/quick.err
echo $? > $o/quick.rc
mmc-bench -J --suite quick --runtime 1s --warmup 0.2s --size 4M --destructive --yes /dev/mmcblk0 \
    > $o/quick-write.json 2> $o/quick-write.err
echo $? > $o/quick-write.rc
