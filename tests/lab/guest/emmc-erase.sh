# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh) on the emulated eMMC,
# /dev/mmcblk0 with two boot partitions; writes what tests/lab/emmc-erase.sh
# checks into $o. It runs twice: in the shared boot (4 GiB, block addresses)
# and in a boot of its own on a 64 MiB card (byte addresses), which
# tests/lab/emmc-erase.sh starts, because a whole-device erase of 4 GiB takes
# QEMU minutes (it writes 0xff block by block).
#
# Both: the first 16 MiB of the user area and both boot areas get a pattern
# (busybox dd from a pattern file); raw CMD35/36/38 erases of aligned and
# unaligned ranges, verified; every method SEC_FEATURE_SUPPORT or
# EXT_CSD_REV rules out, each aimed at 12M+1M; then the read back, region by
# region. 4 GiB: an erase past 2 GiB. 64 MiB: a whole-device discard.
# A region line is "SET START END CARD_MD5 PATTERN_MD5 NOT_FF_BYTES".
dev=/dev/mmcblk0
KiB=1024 MiB=1048576
sectors=$(cat /sys/block/mmcblk0/size)
bytes=$((sectors * 512))
echo $bytes > $o/size

# 16 MiB without 0x00 or 0xff bytes: 64 KiB of decimal numbers, one a line,
# doubled eight times.
seq 1 20000 | head -c 65536 > /tmp/pat64k
cp /tmp/pat64k /tmp/pat
for i in 1 2 3 4 5 6 7 8; do cat /tmp/pat /tmp/pat > /tmp/pat2 && mv /tmp/pat2 /tmp/pat; done
md5sum < /tmp/pat | cut -d' ' -f1 > $o/pat.md5

# region SET FILE PATFILE START END: one region line for bytes START..END of
# FILE against the same bytes of PATFILE (offsets multiples of 4 KiB).
region() {
    s=$(($4 / 4096)) n=$((($5 - $4) / 4096))
    c=$(dd if=$2 bs=4096 skip=$s count=$n 2>/dev/null | md5sum | cut -d' ' -f1)
    p=$(dd if=$3 bs=4096 skip=$s count=$n 2>/dev/null | md5sum | cut -d' ' -f1)
    f=$(dd if=$2 bs=4096 skip=$s count=$n 2>/dev/null | tr -d '\377' | wc -c)
    echo "$1 $4 $5 $c $p $f" >> $o/regions
}
: > $o/regions

# The boot areas: a pattern of their own each (lines "bootN-..."), written
# with force_ro lifted for the write only, read back around the page cache.
for b in 0 1; do
    [ -b /dev/mmcblk0boot$b ] || continue
    sed "s/^/boot$b-/" /tmp/pat64k | head -c 65536 > /tmp/bp
    for i in 1 2 3 4; do cat /tmp/bp /tmp/bp > /tmp/bp2 && mv /tmp/bp2 /tmp/bp; done
    echo 0 > /sys/block/mmcblk0boot$b/force_ro
    dd if=/tmp/bp of=/dev/mmcblk0boot$b bs=64k conv=fsync 2>/dev/null
    echo $? > $o/boot$b-write.rc
    echo 1 > /sys/block/mmcblk0boot$b/force_ro
    md5sum < /tmp/bp | cut -d' ' -f1 > $o/boot$b.want
    dd if=/dev/mmcblk0boot$b bs=64k count=16 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1 > $o/boot$b.before
done

# The user area: the pattern over its first 16 MiB, and 2 MiB at 3 GiB on
# the big card; read back around the page cache before anything is erased.
dd if=/tmp/pat of=$dev bs=1M conv=fsync 2>/dev/null
echo $? > $o/fill.rc
dd if=$dev bs=1M count=16 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1 > $o/before.md5
big=0
[ $bytes -gt $((2048 * MiB)) ] && big=1
if [ $big = 1 ]; then
    dd if=/tmp/pat of=$dev bs=1M count=2 seek=3072 conv=fsync 2>/dev/null
    dd if=$dev bs=1M count=2 skip=3072 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1 > $o/far-before.md5
    dd if=/tmp/pat bs=1M count=2 2>/dev/null | md5sum | cut -d' ' -f1 > $o/far-pat.md5
fi

mmc-erase -n -J $dev > $o/dry.json 2> $o/dry.err; echo $? > $o/dry.rc
# Raw ERASE, aligned, two chunks (3.5 MiB + 512 KiB): 4M+4M.
mmc-erase -y -J --method erase --offset 4M --size 4M --verify $dev > $o/erase.json 2> $o/erase.err
echo $? > $o/erase.rc
# The first erase group of the user area, which follows the boot areas.
mmc-erase -y -J --method erase --size 512K --verify=full mmcblk0 > $o/first.json 2> $o/first.err
echo $? > $o/first.rc
# Unaligned: 9M+100K for 2M; the whole groups 9.5M-11M only.
mmc-erase -y -J --method erase --offset $((9 * MiB + 100 * KiB)) --size 2M --verify=full mmc0:0001 \
    > $o/unaligned.json 2> $o/unaligned.err
echo $? > $o/unaligned.rc
# Ruled out by the registers (the emulator would erase for any argument).
for m in trim secure-erase secure-trim secure sanitize emmc-discard sd-discard fule; do
    mmc-erase -y -J --method $m --offset 12M --size 1M $dev > $o/refuse-$m.json 2> $o/refuse-$m.err
    echo $? > $o/refuse-$m.rc
done
# Past 2 GiB (block addresses beyond 4194304): 3G+512K for 1M.
if [ $big = 1 ]; then
    mmc-erase -y -J --method erase --offset $((3072 * MiB + 512 * KiB)) --size 1M --verify $dev \
        > $o/far.json 2> $o/far.err
    echo $? > $o/far.rc
fi

# The read back, through the page cache on purpose (the tool must drop what
# the raw commands made stale), and around it.
dd if=$dev of=/tmp/card.bin bs=1M count=16 2>/dev/null
md5sum < /tmp/card.bin | cut -d' ' -f1 > $o/cached.md5
dd if=$dev bs=1M count=16 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1 > $o/direct.md5
for r in 0:524288 524288:4194304 4194304:8388608 8388608:9961472 9961472:11534336 \
    11534336:12582912 12582912:13631488 13631488:16777216; do
    region near /tmp/card.bin /tmp/pat ${r%:*} ${r#*:}
done
if [ $big = 1 ]; then
    dd if=$dev of=/tmp/far.bin bs=1M count=2 skip=3072 iflag=direct 2>/dev/null
    for r in 0:524288 524288:1572864 1572864:2097152; do region far /tmp/far.bin /tmp/pat ${r%:*} ${r#*:}; done
fi

# The small card: the whole user area by BLKDISCARD (the kernel sends ERASE
# on EXT_CSD_REV 5 without SEC_GB_CL_EN), then every byte of it read.
if [ $big = 0 ]; then
    mmc-erase -y -J --method discard --verify $dev > $o/discard.json 2> $o/discard.err
    echo $? > $o/discard.rc
    dd if=$dev of=/tmp/card.bin bs=1M count=16 2>/dev/null
    region whole /tmp/card.bin /tmp/pat 0 16777216
    dd if=$dev bs=1M iflag=direct 2>/dev/null | tr -d '\377' | wc -c > $o/whole-not-ff
    dd if=$dev bs=1M iflag=direct 2>/dev/null | wc -c > $o/whole-read
fi

for b in 0 1; do
    [ -b /dev/mmcblk0boot$b ] || continue
    dd if=/dev/mmcblk0boot$b bs=64k count=16 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1 > $o/boot$b.after
    cat /sys/block/mmcblk0boot$b/force_ro > $o/boot$b.force_ro
done
# Last, the user area again: the card is left with the user area selected
# (PARTITION_CONFIG access bits 0), as the suites after this one expect.
dd if=$dev of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
