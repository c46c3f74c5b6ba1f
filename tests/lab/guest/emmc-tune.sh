# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh) on the emulated eMMC
# (QEMU 11's: EXT_CSD_REV 5, two 1 MiB boot partitions, a 4 MiB RPMB area,
# PARTITION_CONFIG 0x08); writes what tests/lab/emmc-tune.sh checks into $o. It runs last of
# the emmc-* guests (it changes the boot configuration) and puts the card
# back as it found it.
#
# mmc-tune emmc writes through the real kernel's MMC ioctl, then the EXT_CSD
# is read again from debugfs (a fresh CMD8): every write the emulated eMMC
# accepts, the refusals for what it does not support (nothing written), and
# side by side with mmc-utils' mmc: the EXT_CSD after `mmc-tune emmc` and
# after the equivalent `mmc` command, from the same starting state.
dev=/dev/mmcblk0
X=/sys/kernel/debug/mmc0/mmc0:0001/ext_csd
snap() { tr -d ' \n' < $X > $o/$1.hex; }
run() { # run NAME COMMAND...: output, errors and exit status into $o
    n=$1; shift
    "$@" > $o/$n.out 2> $o/$n.err; echo $? > $o/$n.rc
}
# reinit NAME: unbind and bind the host's driver, so the kernel initialises
# the card again (CMD0: QEMU's eMMC then resets its EXT_CSD, as a power
# cycle would), and wait (bounded) for an eMMC disk to come back; dev and X
# follow it, should the kernel number it otherwise.
reinit() {
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
    echo "$dev $X" > $o/reinit-$1.where
}

snap start
run show mmc-tune emmc -J $dev
run show-text mmc-tune emmc $dev

# What QEMU's eMMC (EXT_CSD_REV 5) cannot take: refused, nothing written,
# with --yes so only the plan stands in the way.
i=0
while read -r args; do
    i=$((i + 1))
    echo "$args" > $o/refuse$i.args
    # shellcheck disable=SC2086
    run refuse$i mmc-tune emmc -J --yes $args $dev
done <<'LIST'
--volatile-cache off
--bkops auto
--bkops manual --permanent
--enhanced-area 0,8M --permanent
--write-reliability user --permanent
--sanitize
--boot-bus 8,ddr
--boot-bus 4,hs
--boot-ack on --boot-partition none
--boot-wp permanent
LIST
echo $i > $o/refuse.count
snap after-refusals
run dry mmc-tune emmc -J -n --boot-partition 2 --boot-ack on $dev
snap after-dry

# One-time settings this eMMC takes: RST_n_FUNCTION and a GP partition
# (with PARTITION_SETTING_COMPLETED). QEMU keeps the EXT_CSD in RAM and a
# re-initialisation resets it, so each is made by mmc-tune, undone, made by
# mmc, and undone again.
run tune-rstn mmc-tune emmc -J --yes --rst-n on --permanent $dev
snap tune-rstn
reinit rstn
run mmc-rstn mmc hwreset enable $dev
snap mmc-rstn
reinit mmc-rstn
run tune-gp mmc-tune emmc -J --yes --gp 1,8M --permanent $dev
snap tune-gp
reinit gp
run mmc-gp mmc gp create -y 8192 1 0 0 $dev
snap mmc-gp
reinit mmc-gp
snap after-one-time

# PARTITION_CONFIG: mmc-tune, back with mmc, then the same with mmc.
run tune-bp2 mmc-tune emmc -J --yes --boot-partition 2 --boot-ack on $dev
snap tune-bp2
run mmc-bp1 mmc bootpart enable 1 0 $dev
snap mmc-bp1
run mmc-bp2 mmc bootpart enable 2 1 $dev
snap mmc-bp2
run tune-user mmc-tune emmc -J --yes --boot-partition user $dev
snap tune-user
run mmc-user-back mmc bootpart enable 2 1 $dev
run mmc-user mmc bootpart enable 7 1 $dev
snap mmc-user
run tune-bp1 mmc-tune emmc -J --yes --boot-partition 1 --boot-ack off $dev
snap tune-bp1

# BOOT_BUS_CONDITIONS: 4 bits by mmc-tune and by mmc, 8 bits by both.
run tune-bus4 mmc-tune emmc -J --yes --boot-bus 4 $dev
snap tune-bus4
run mmc-bus1 mmc bootbus set single_backward x1 x1 $dev
snap mmc-bus1
run mmc-bus4 mmc bootbus set single_backward x1 x4 $dev
snap mmc-bus4
run tune-bus8 mmc-tune emmc -J --yes --boot-bus 8 $dev
snap tune-bus8
run mmc-bus8-back mmc bootbus set single_backward x1 x1 $dev
run mmc-bus8 mmc bootbus set single_backward x1 x8 $dev
snap mmc-bus8
run tune-bus1 mmc-tune emmc -J --yes --boot-bus 1 $dev
snap tune-bus1

# BOOT_WP power-on: until the next power cycle; the re-initialisation
# stands in for one. Then the same by mmc.
run tune-wp mmc-tune emmc -J --yes --boot-wp power-on $dev
snap tune-wp
run tune-wp-again mmc-tune emmc -J --yes --boot-wp power-on $dev
for b in 0 1; do
    cat /sys/block/mmcblk0boot$b/ro_lock_until_next_power_on > $o/wp-kernel-boot$b 2>&1
done
reinit wp
snap reinit-wp
run mmc-wp mmc writeprotect boot set $dev
snap mmc-wp
reinit mmc-wp
snap reinit-mmc-wp

# The configuration saved, and applied back: nothing to change.
run save mmc-tune emmc --save $o/config.json $dev
run from-config mmc-tune emmc -J -n --from-config $o/config.json $dev
# Another model: refused.
sed 's/"ext_csd_rev": 5/"ext_csd_rev": 8/' $o/config.json > /tmp/other.json
run from-other mmc-tune emmc -J -n --from-config /tmp/other.json $dev
snap end
