# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh; tests/lab/emmc-wp-boot.sh
# boots it on a 64 MiB card of its own); writes what the suite checks into $o.
# User-area write protection and boot images through the real kernel's MMC
# ioctl and block devices, beside mmc-utils' mmc from the same state. It
# runs after every other emmc-* guest and leaves the card as it found it
# (the protection is cleared, a re-initialisation resets QEMU's EXT_CSD).
dev=/dev/mmcblk0
X=/sys/kernel/debug/mmc0/mmc0:0001/ext_csd
# snap NAME: the EXT_CSD from debugfs (a fresh CMD8). A read of the user
# area first: after I/O to a boot partition the kernel leaves
# PARTITION_CONFIG's PARTITION_ACCESS on it until the next user-area
# request, and debugfs reads the EXT_CSD without switching back.
snap() {
    dd if=$dev of=/dev/null bs=512 count=1 iflag=direct 2>/dev/null
    tr -d ' \n' < $X > $o/$1.hex
}
run() { # run NAME COMMAND...: output, errors and exit status into $o
    n=$1; shift
    "$@" > $o/$n.out 2> $o/$n.err; echo $? > $o/$n.rc
}
fro() { cat /sys/block/${dev##*/}boot$1/force_ro > $o/$2.force_ro; }
# wr NAME OFFSET: one 512-byte direct write into the user area (CMD24);
# its exit status says whether the device took it.
wr() { run $1 dd if=/dev/urandom of=$dev bs=512 count=1 seek=$(($2 / 512)) oflag=direct conv=notrunc; }
reinit() { # as in emmc-tune.sh: unbind and bind the host driver (QEMU resets the card)
    card=$(readlink -f /sys/block/${dev##*/}/device)
    hostdev=$(readlink -f "${card%/*}/device")
    drv=$(readlink -f "$hostdev/driver")
    echo "${hostdev##*/}" > "$drv/unbind"
    echo "${hostdev##*/}" > "$drv/bind"
    found=1 i=0
    while [ $i -lt 60 ]; do
        for d in /sys/block/mmcblk*; do
            case ${d##*/} in *boot*|*rpmb*|mmcblk*p*) continue ;; esac
            card=$(readlink -f $d/device)
            host=${card%/*}
            if [ -e /sys/kernel/debug/${host##*/}/${card##*/}/ext_csd ] && [ -b /dev/${d##*/} ]; then
                dev=/dev/${d##*/} X=/sys/kernel/debug/${host##*/}/${card##*/}/ext_csd found=0
            fi
        done
        [ $found = 0 ] && break
        i=$((i + 1)); sleep 1
    done
    echo $found > $o/reinit-$1.rc
}
M=1048576

cat /sys/block/${dev##*/}/device/csd > $o/csd.txt 2>/dev/null
snap start
run list mmc-tune emmc -J $dev
run list-text mmc-tune emmc $dev
run mmc-get mmc writeprotect user get $dev

# --- user area: temporary protection of the second group --------------------
G=$(sed -n 's/.*"group_bytes": *\([0-9]*\).*/\1/p' $o/list.out | head -n1)
echo "${G:-0}" > $o/group
G=${G:-12582912}
wr write-g1-before $G
run wp-set mmc-tune emmc -J -y --user-wp temporary --offset $G --size $G $dev
snap after-wp-set
wr write-g0-protected 0
wr write-g1-protected $G
run mmc-get-set mmc writeprotect user get $dev
run mmc-set mmc writeprotect user set temp $((G / 512)) $((G / 512)) $dev

# --- refusals: nothing written, the EXT_CSD unchanged ---------------------
run wp-misaligned mmc-tune emmc -J -y --user-wp temporary --offset $M --size $G $dev
run wp-perm mmc-tune emmc -J -y --user-wp permanent --offset 0 --size $G $dev
run wp-past mmc-tune emmc -J -y --user-wp temporary --offset $((G * 8)) --size $G $dev
snap after-wp-refusals

# --- power-on protection: USER_WP set around CMD28 and put back -----------
run wp-pwron mmc-tune emmc -J -y --user-wp power-on --offset 0 --size $G $dev
snap after-wp-pwron
wr write-g0-pwron 0
reinit pwron
snap reinit-pwron
wr write-g0-reinit 0
wr write-g1-reinit $G

# --- boot images ----------------------------------------------------------
dd if=/dev/urandom of=/tmp/boot1.img bs=1024 count=300 2>/dev/null
dd if=/dev/urandom of=/tmp/boot2.img bs=1024 count=200 2>/dev/null
dd if=/dev/urandom of=/tmp/big.img bs=1024 count=1025 2>/dev/null
: > /tmp/empty.img
snap boot-start
fro 0 boot0-before
run img1 mmc-tune emmc -J -y --boot-image 1=/tmp/boot1.img $dev
fro 0 boot0-after
snap after-img1
echo 3 > /proc/sys/vm/drop_caches
dd if=${dev}boot0 of=/tmp/back1.img bs=1024 count=300 iflag=direct 2>/dev/null
cmp /tmp/boot1.img /tmp/back1.img > $o/img1.cmp 2>&1; echo $? > $o/img1.cmp.rc
run img1-again mmc-tune emmc -J -y --boot-image 1=/tmp/boot1.img $dev

# mmc-utils has no image writer: its users do force_ro, dd, force_ro; the
# EXT_CSD afterwards is the same either way.
echo 0 > /sys/block/${dev##*/}boot1/force_ro
dd if=/tmp/boot2.img of=${dev}boot1 bs=1024 conv=fsync 2>/dev/null
echo 1 > /sys/block/${dev##*/}boot1/force_ro
snap after-dd2

# An image and the boot configuration in one plan, and the same by mmc.
fro 1 boot1-before
run img2-config mmc-tune emmc -J -y --boot-image 2=/tmp/boot1.img --boot-partition 2 --boot-bus 4 $dev
fro 1 boot1-after
snap after-img2-config
echo 3 > /proc/sys/vm/drop_caches
dd if=${dev}boot1 of=/tmp/back2.img bs=1024 count=300 iflag=direct 2>/dev/null
cmp /tmp/boot1.img /tmp/back2.img > $o/img2.cmp 2>&1; echo $? > $o/img2.cmp.rc
run config-back mmc-tune emmc -y --boot-partition 1 --boot-bus 1 $dev
snap config-back
run mmc-bp2 mmc bootpart enable 2 0 $dev
run mmc-bus4 mmc bootbus set single_backward x1 x4 $dev
snap mmc-config
run mmc-bp1 mmc bootpart enable 1 0 $dev
run mmc-bus1 mmc bootbus set single_backward x1 x1 $dev

# Refusals: too large, empty, not a file, a protected boot area.
snap boot-refusals-start
run img-big mmc-tune emmc -J -y --boot-image 1=/tmp/big.img $dev
run img-empty mmc-tune emmc -J -y --boot-image 1=/tmp/empty.img $dev
run img-dev mmc-tune emmc -J -y --boot-image 1=/dev/zero $dev
fro 0 boot0-refusals
snap after-boot-refusals
run bootwp mmc-tune emmc -y --boot-wp power-on $dev
snap bootwp-on
run img-protected mmc-tune emmc -J -y --boot-image 1=/tmp/boot2.img $dev
snap after-img-protected
reinit end
snap end
