# Runs inside the Pi lab (see tests/lab/rpi-lib.sh): mmc-erase on the Pi's SD
# host, kept short because the emulated sdhost moves well under 1 MB/s. The
# fresh card reads 0x00 and QEMU's card erases to 0xff, so a pattern is only
# needed where the erases must stop and start: 1 MiB before (3-4M) and after
# (12-13M), and 64 KiB at each edge inside. A raw CMD32/33/38 erase of 4M+4M
# and a BLKDISCARD of 8M+4M (whole 4 MiB erase units), both verified; then
# 3-13M is read back through the page cache (which holds the pattern dd
# wrote: the tool must have dropped it) and each region's MD5 and count of
# bytes that are not 0xff go to $o/regions: "START END CARD_MD5 PATTERN_MD5
# NOT_FF_BYTES" (MiB; the console carries results slowly, so not the bytes).
dev=/dev/mmcblk0
seq 1 20000 | head -c 65536 > /tmp/p64k
cat /tmp/p64k /tmp/p64k /tmp/p64k /tmp/p64k > /tmp/p256k
cat /tmp/p256k /tmp/p256k /tmp/p256k /tmp/p256k > /tmp/p1m
fill=0
for at in 48:/tmp/p1m 64:/tmp/p64k 127:/tmp/p64k 128:/tmp/p64k 191:/tmp/p64k 192:/tmp/p1m; do
    dd if=${at#*:} of=$dev bs=64k seek=${at%%:*} conv=fsync,notrunc 2>/dev/null || fill=1
done
echo $fill > $o/fill.rc
mmc-erase -n -J $dev > $o/dry.json 2> $o/dry.err; echo $? > $o/dry.rc
mmc-erase -y -J --method erase --offset 4M --size 4M --verify $dev > $o/erase.json 2> $o/erase.err
echo $? > $o/erase.rc
mmc-erase -y -J --method discard --offset 8M --size 4M --verify mmcblk0 > $o/discard.json 2> $o/discard.err
echo $? > $o/discard.rc
dd if=$dev of=/tmp/card.bin bs=1M skip=3 count=10 2>/dev/null
: > $o/regions
# region START END PATTERN: MiB from the card's start; /tmp/card.bin starts at 3.
region() {
    c=$(dd if=/tmp/card.bin bs=1M skip=$(($1 - 3)) count=$(($2 - $1)) 2>/dev/null | md5sum | cut -d' ' -f1)
    p=$(md5sum < $3 | cut -d' ' -f1)
    n=$(dd if=/tmp/card.bin bs=1M skip=$(($1 - 3)) count=$(($2 - $1)) 2>/dev/null | tr -d '\377' | wc -c)
    echo "$1 $2 $c $p $n" >> $o/regions
}
region 3 4 /tmp/p1m
region 4 8 /dev/null
region 8 12 /dev/null
region 12 13 /tmp/p1m
