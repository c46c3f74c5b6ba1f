# Runs inside the lab (mmcblk0, QEMU's 4 GiB SD card, CID MID 0xaa OID "XY",
# in no layout's row). Writes what tests/lab/mmc-health.sh checks into $o.
# Leaves the card as it found it: CMD56 reads, the two-step write QEMU drops,
# force_ro set and cleared.
o=${o:-$SDLAB_OUT}
# Unknown card: no CMD56 sent; writable.
mmc-health -J mmcblk0 > $o/plain.json 2> $o/plain.err; echo $? > $o/plain.rc
# A layout on purpose: one CMD56 read (argument 1) reaches the card.
mmc-health -J --layout sandisk --save-raw $o/sandisk-raw.json mmcblk0 > $o/sandisk.json; echo $? > $o/sandisk.rc
# The two-step layout: the CMD56 write, then the read.
mmc-health -J --layout two_step mmcblk0 > $o/two-step.json; echo $? > $o/two-step.rc
# The card still reads after the CMD56 commands.
dd if=/dev/mmcblk0 of=/dev/null bs=4096 count=16 2>/dev/null; echo $? > $o/read-after.rc
mmc-health --prometheus $o/mmc.prom mmcblk0 > $o/prom.txt; echo $? > $o/prom.rc
cat /sys/block/mmcblk0/ro > $o/sysfs-ro
# The kernel's force_ro, set and cleared: read-only, then writable again.
echo 1 > /sys/block/mmcblk0/force_ro
mmc-health -J mmcblk0 > $o/force-ro.json; echo $? > $o/force-ro.rc
echo 0 > /sys/block/mmcblk0/force_ro
mmc-health -J mmcblk0 > $o/rw-again.json; echo $? > $o/rw-again.rc
# A CMD42 password lock (mmc-lock, a lab-only tool): read-only for the card
# status's CARD_IS_LOCKED. Nothing reads the data area while it is locked
# (a read then succeeded in this lab and left QEMU's card unlocked). QEMU
# refuses an unlock with the same password (its PWD_LEN check wants a longer
# one), so the lock is undone by a forced erase, which QEMU does not carry
# out on the data.
mmc-lock /dev/mmcblk0 lock 1234 > $o/lock.out 2>&1; echo $? > $o/lock.rc
mmc-health -J mmcblk0 > $o/locked.json 2>/dev/null; echo $? > $o/locked.rc
mmc-lock /dev/mmcblk0 unlock 1234 > $o/unlock.out 2>&1; echo $? > $o/unlock.rc
mmc-lock /dev/mmcblk0 force-erase > $o/force-erase.out 2>&1; echo $? > $o/force-erase.rc
mmc-health -J mmcblk0 > $o/unlocked.json 2>/dev/null; echo $? > $o/unlocked.rc
dd if=/dev/mmcblk0 of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null; echo $? > $o/read-unlocked.rc
