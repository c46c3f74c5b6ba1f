# Runs inside the lab (mmcblk0: 4 GiB SDHC, mmcblk1: 1 GiB SDSC). Fills the
# start of both cards with a pattern, erases ranges with raw CMD32/33/38
# and BLKDISCARD, and leaves the JSON and the cards' first MiBs for the
# host-side test to compare. Short: about 50 MiB of card I/O.
o=${o:-$SDLAB_OUT}
# A 32 MiB pattern without 0x00 or 0xff bytes: 64 KiB of decimal numbers,
# one a line, doubled nine times (seq alone is slow under TCG).
seq 1 20000 | head -c 65536 > /tmp/pat
for i in 1 2 3 4 5 6 7 8 9; do cat /tmp/pat /tmp/pat > /tmp/pat2 && mv /tmp/pat2 /tmp/pat; done
dd if=/tmp/pat of=/dev/mmcblk0 bs=1M conv=fsync 2>/dev/null
dd if=/tmp/pat of=/dev/mmcblk1 bs=1M count=16 conv=fsync 2>/dev/null
cp /tmp/pat $o/pat.bin

# Raw erase, aligned: 4 MiB + 8 MiB, verified.
mmc-erase -y -J --method erase --offset 4M --size 8M --verify /dev/mmcblk0 > $o/erase.json 2> $o/erase.err
echo $? > $o/erase.rc
# Block-layer discard: 16 MiB + 4 MiB, verified.
mmc-erase -y -J --method discard --offset 16M --size 4M --verify mmcblk0 > $o/discard.json 2> $o/discard.err
echo $? > $o/discard.rc
# Raw erase of an unaligned range: 21 MiB + 512 for 7 MiB; whole AUs 24-28 MiB.
mmc-erase -y -J --method erase --offset 22020608 --size 7M --verify=full mmc0 > $o/unaligned.json 2> $o/unaligned.err
echo $? > $o/unaligned.rc
# Refused by the card's registers: nothing is sent.
for m in sd-discard fule trim sanitize secure; do
    mmc-erase -y --method $m /dev/mmcblk0 > /dev/null 2> $o/refuse-$m.err
    echo $? > $o/refuse-$m.rc
done
mmc-erase -n -J /dev/mmcblk0 > $o/dry.json 2> $o/dry.err
echo $? > $o/dry.rc
# The read back, through the page cache on purpose: the tool must have
# dropped what raw commands made stale.
dd if=/dev/mmcblk0 of=$o/card0.bin bs=1M count=32 2>/dev/null

# The 1 GiB SDSC card: byte addresses.
mmc-erase -y -J --method erase --offset 4M --size 8M --verify mmcblk1 > $o/sdsc.json 2> $o/sdsc.err
echo $? > $o/sdsc.rc
dd if=/dev/mmcblk1 of=$o/card1.bin bs=1M count=16 2>/dev/null
