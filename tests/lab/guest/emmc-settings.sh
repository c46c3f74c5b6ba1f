# Runs inside the eMMC lab (see tests/lab/emmc-lib.sh) on the emulated eMMC
# (QEMU 11's: EXT_CSD_REV 5, eMMC 4.41); writes what
# tests/lab/emmc-settings.sh checks into $o and leaves the card as it found
# it. The settings mmc-tune emmc took last from mmc-utils' list, each
# written through the real kernel's MMC ioctl and read back from debugfs (a
# fresh CMD8), side by side with the equivalent `mmc` command of the guest's
# mmc-utils from the same state: the boot bus kept after boot (`bootbus set
# ... retain`), a raw EXT_CSD byte (this mmc-utils has no `extcsd write`:
# the byte alone changes), one boot partition's protection and 512-byte
# emulation (which this eMMC 4.41 does not have: mmc-tune refuses, nothing
# written; what mmc-utils does instead is recorded).
dev=/dev/mmcblk0
X=/sys/kernel/debug/mmc0/mmc0:0001/ext_csd
snap() { tr -d ' \n' < $X > $o/$1.hex; }
run() { # run NAME COMMAND...: output, errors and exit status into $o
    n=$1; shift
    "$@" > $o/$n.out 2> $o/$n.err; echo $? > $o/$n.rc
}

snap start

# BOOT_BUS_CONDITIONS' RESET_BOOT_BUS_CONDITIONS: retain, by both tools.
run tune-retain mmc-tune emmc -J --yes --boot-bus 8,retain $dev
snap tune-retain
run mmc-back mmc bootbus set single_backward x1 x1 $dev
snap mmc-back
run mmc-retain mmc bootbus set single_backward retain x8 $dev
snap mmc-retain
run tune-reset mmc-tune emmc -J --yes --boot-bus 1,reset $dev
snap tune-reset

# A raw byte no typed setting covers: SEC_BAD_BLK_MGMNT [134], then back.
run tune-raw mmc-tune emmc -J --yes --extcsd-write 134=0x01 $dev
snap tune-raw
run tune-raw-again mmc-tune emmc -J --yes --extcsd-write 134=1 $dev
run tune-raw-back mmc-tune emmc -J --yes --extcsd-write 0x86=0 $dev
snap tune-raw-back

# What a raw write refuses, with --yes so only the plan stands in the way.
i=0
while read -r args; do
    i=$((i + 1))
    echo "$args" > $o/refuse$i.args
    # shellcheck disable=SC2086
    run refuse$i mmc-tune emmc -J --yes $args $dev
done <<'LIST'
--extcsd-write 192=8
--extcsd-write 33=1
--extcsd-write 183=2
--extcsd-write 32=1
--extcsd-write 169=1
--extcsd-write 0=1
--extcsd-write 173=1
--boot-wp power-on,1
--boot-wp permanent,2 --permanent
--sector-emulation off
LIST
echo $i > $o/refuse.count
snap after-refusals

# 512-byte emulation: mmc-utils on the same device.
run mmc-512 mmc disable 512B emulation $dev
snap mmc-512
snap end
