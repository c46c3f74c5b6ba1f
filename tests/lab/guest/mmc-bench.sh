# Runs inside the SD lab's shared boot (tests/lab/sd-lib.sh) on its second card,
# the 1 GiB SDSC one at /dev/mmcblk1 (mmc1), last: it unbinds that card's
# controller (null_blk loaded with
# no devices, configfs at /sys/kernel/config). Writes what the host-side test
# (tests/lab/mmc-bench.sh) checks into $SDLAB_OUT.
o=${o:-$SDLAB_OUT}
nb=/sys/kernel/config/nullb
run() { # run NAME CMD...: stdout to NAME.json, stderr to NAME.err, status to NAME.rc
    name=$1; shift
    "$@" > $o/$name.json 2> $o/$name.err < /dev/null
    echo $? > $o/$name.rc
}

# bytes_read DISK|PID: what a disk has read since boot, or a process has read.
bytes_read() {
    case $1 in
    *[!0-9]*) echo $(( $(awk '{print $3}' /sys/block/$1/stat 2>/dev/null || echo 0) * 512 )) ;;
    *) awk '$1 == "rchar:" {print $2}' /proc/$1/io 2>/dev/null || echo 0 ;;
    esac
}
# reading_from DISK|PID: returns once DISK (or the process PID) has read 8 MiB
# more than when called, and a second more (after 60 s, or when PID has
# ended, at once).
reading_from() {
    start=$(bytes_read $1)
    i=0
    while [ "$(bytes_read $1)" -lt $((start + 8388608)) ] && [ $i -lt 600 ]; do
        case $1 in *[!0-9]*) ;; *) kill -0 $1 2>/dev/null || return 0 ;; esac
        sleep 0.1; i=$((i + 1))
    done
    sleep 1
}

# 1. Ground truth: null_blk throttled to mbps=20. Its throttle refills
#    (2^20 / 50) * 20 bytes every 20 ms; 408 KiB blocks fit once per refill.
mkdir $nb/nullb1
echo 512 > $nb/nullb1/size; echo 4096 > $nb/nullb1/blocksize; echo 20 > $nb/nullb1/mbps; echo 1 > $nb/nullb1/power
#    The host side checks the figures against the cap (never above it).
for dir in read write; do
    extra=""; [ $dir = write ] && extra="--destructive --yes"
    run nb-$dir mmc-bench -J --any-device $extra --rw $dir --bs 408k --runtime 3s --warmup 0.5 /dev/nullb1
done

# 2. The quick suite on the emulated card: read-only by default, then with writes.
run quick mmc-bench -J --suite quick --runtime 1.5s --warmup 0.3 /dev/mmcblk1
run quick-text mmc-bench --suite quick --runtime 1s --warmup 0.2 mmcblk1
run quick-rw mmc-bench -J --suite quick --runtime 1s --warmup 0.2 --destructive --yes --size 64M /dev/mmcblk1

run class mmc-bench -J --suite class --destructive --yes --precondition erase --au 1M --size 4M /dev/mmcblk1
run a2 mmc-bench -J --suite a2 --runtime 1s --warmup 0.2 /dev/mmcblk1
# The sustained suite over 32 MiB of the emulated card: QEMU's model has no
# SLC cache, and the suite must say so (no knee), not invent one.
run sustained mmc-bench -J --suite sustained --destructive --yes --size 32M /dev/mmcblk1

# 3. Refusals before any write.
run no-destructive mmc-bench --rw write --bs 4k --runtime 1s /dev/mmcblk1
run not-mmc mmc-bench --destructive --yes --rw write --runtime 1s /dev/nullb1
run no-terminal mmc-bench --destructive --rw write --runtime 1s /dev/mmcblk1
run precondition-ro mmc-bench --precondition fill --rw read /dev/mmcblk1
dd if=/dev/zero of=/tmp/disk.img bs=1M count=48 2>/dev/null
loop=$(losetup -f); losetup $loop /tmp/disk.img
mkswap $loop > /dev/null 2>&1 && swapon $loop
run swap mmc-bench --destructive --yes --any-device --rw write --runtime 1s $loop
swapoff $loop
# A mounted filesystem, when the lab's kernel has one for block devices
# (vfat); otherwise the test file goes to /tmp (tmpfs, no O_DIRECT on 6.1).
dir=/tmp/bench
mkdir -p /mnt/fat $dir
if mkdosfs $loop > /dev/null 2>&1 && mount -t vfat $loop /mnt/fat 2>/dev/null; then
    echo vfat > $o/fs
    dir=/mnt/fat
    run mounted mmc-bench --destructive --yes --any-device --rw write --runtime 1s $loop
fi

# 4. A test file on the mounted filesystem: created, measured, removed; also on Ctrl-C.
run file mmc-bench -J --file $dir --size 16M --rw randwrite --bs 4k --runtime 1s --warmup 0.2
ls -A $dir > $o/file-after.ls
mmc-bench -J --file $dir/bench.tmp --size 16M --rw randread --runtime 60s --warmup 0 > $o/ctrlc.json 2> $o/ctrlc.err < /dev/null &
pid=$!
# Interrupted once the job is reading, not after a fixed time (a busy host's
# guest may not have started it by then, and a run with no I/O proves nothing).
reading_from $pid
ls -A $dir > $o/ctrlc-during.ls
kill -INT $pid
wait $pid; echo $? > $o/ctrlc.rc
ls -A $dir > $o/ctrlc-after.ls
umount /mnt/fat 2>/dev/null; losetup -d $loop

# 5. A device that vanishes mid-run: null_blk powered off, then the card's
#    controller unbound (the card is gone for good after this; keep it last).
mkdir $nb/nullb3
echo 64 > $nb/nullb3/size; echo 20 > $nb/nullb3/mbps; echo 1 > $nb/nullb3/power
# Off once the job is reading (8 MiB read, then a second more), not after a
# fixed time: on a busy host the emulated guest may take longer than that to
# start the job, and a run with no I/O before the power-off proves nothing.
(reading_from nullb3; echo 0 > $nb/nullb3/power) &
run power-off mmc-bench -J --any-device --rw read --bs 408k --runtime 20s --warmup 0 /dev/nullb3
pci=$(basename "$(readlink -f /sys/class/mmc_host/mmc1/device)")
(reading_from mmcblk1; echo "$pci" > /sys/bus/pci/drivers/sdhci-pci/unbind) &
run unbind mmc-bench -J --rw randread --runtime 30s --warmup 0 /dev/mmcblk1
