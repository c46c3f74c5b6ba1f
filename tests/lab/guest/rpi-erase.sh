# Runs inside the Pi lab (see tests/lab/rpi-lib.sh): mmc-erase on the Pi's SD
# host, short (the emulated sdhost moves well under 1 MB/s). The first 13 MiB
# get a pattern without 0x00 or 0xff bytes; a raw CMD32/33/38 erase of 4M+4M
# and a BLKDISCARD of 8M+4M (whole 4 MiB erase units), both verified; then
# the card is read back through the page cache and each region's MD5 and
# count of bytes that are neither 0x00 nor 0xff go to $o/regions: "START END
# CARD_MD5 PATTERN_MD5 OTHER_BYTES" (MiB; the console carries results
# slowly, so not the bytes). The erased part is also read around the cache.
dev=/dev/mmcblk0
seq 1 20000 | head -c 65536 > /tmp/p64k
cp /tmp/p64k /tmp/p
for i in 1 2 3 4 5 6 7; do cat /tmp/p /tmp/p > /tmp/p2 && mv /tmp/p2 /tmp/p; done # 8 MiB
head -c 4194304 /tmp/p > /tmp/p4
head -c 1048576 /tmp/p > /tmp/p1
cat /tmp/p /tmp/p4 /tmp/p1 > /tmp/pat; rm -f /tmp/p /tmp/p4 /tmp/p1 # 13 MiB
dd if=/tmp/pat of=$dev bs=1M conv=fsync 2>/dev/null; echo $? > $o/fill.rc
mmc-erase -n -J $dev > $o/dry.json 2> $o/dry.err; echo $? > $o/dry.rc
mmc-erase -y -J --method erase --offset 4M --length 4M --verify $dev > $o/erase.json 2> $o/erase.err
echo $? > $o/erase.rc
mmc-erase -y -J --method discard --offset 8M --length 4M --verify mmcblk0 > $o/discard.json 2> $o/discard.err
echo $? > $o/discard.rc
# Through the page cache on purpose: the tool must have dropped what the raw
# commands made stale.
dd if=$dev of=/tmp/card.bin bs=1M count=13 2>/dev/null
dd if=/tmp/card.bin bs=1M skip=4 count=8 2>/dev/null | md5sum | cut -d' ' -f1 > $o/cached.md5
dd if=$dev bs=1M skip=4 count=8 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1 > $o/direct.md5
: > $o/regions
for r in 0:4 4:8 8:12 12:13; do
    s=${r%:*} e=${r#*:}
    c=$(dd if=/tmp/card.bin bs=1M skip=$s count=$((e - s)) 2>/dev/null | md5sum | cut -d' ' -f1)
    p=$(dd if=/tmp/pat bs=1M skip=$s count=$((e - s)) 2>/dev/null | md5sum | cut -d' ' -f1)
    n=$(dd if=/tmp/card.bin bs=1M skip=$s count=$((e - s)) 2>/dev/null | tr -d '\000\377' | wc -c)
    echo "$s $e $c $p $n" >> $o/regions
done
