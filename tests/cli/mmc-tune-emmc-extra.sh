#!/bin/sh
# check: expect 27
# mmc-tune emmc's last mmc-utils settings offline, on EXT_CSD dumps of real
# devices pasted with --decode (tests/data/tune/): one boot partition's
# write protection (--boot-wp MODE,N), the boot bus kept after boot
# (--boot-bus ...,retain), a raw EXT_CSD byte (--extcsd-write) and 512-byte
# emulation (--sector-emulation): each plan with its field, index and
# values, the refusals with their reasons, and hostile values as usage
# errors (exit 2). A pasted EXT_CSD is never written.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
T=build/bin/mmc-tune
D=tests/data/tune
cm4="ext_csd=@$D/emmc51-cm4.hex"
old="ext_csd=@$D/emmc441-kylemanna.hex"
trap 'rm -f "$out" "$err"' EXIT

changes() { # changes NAME EXPECTED ARGS...: exit 0, the plan's (field, index, old, new, undo)
    c_name=$1 c_want=$2; shift 2
    run 0 $T emmc -J "$@" &&
        json_eq "$c_name" "[(c['field'], c['index'], hex(c['old']), hex(c['new']), c['undo']) for c in j['changes']]" "$c_want"
}
changes "--boot-wp power-on,2: BOOT_WP 0x83 (B_SEC_WP_SEL, boot partition 2)" "[('BOOT_WP', 173, '0x0', '0x83', 'until power cycle')]" \
    --decode "$cm4" --boot-wp power-on,2
changes "--boot-wp permanent,1 --permanent: BOOT_WP 0x84, one-time" "[('BOOT_WP', 173, '0x0', '0x84', 'one-time')]" \
    --decode "$cm4" --boot-wp permanent,1 --permanent
changes "--boot-bus 8,ddr,retain: BOOT_BUS_CONDITIONS 0x16" "[('BOOT_BUS_CONDITIONS', 177, '0x0', '0x16', 'reversible')]" \
    --decode "$cm4" --boot-bus 8,ddr,retain
changes "--extcsd-write 134=1: SEC_BAD_BLK_MGMNT [134]" "[('SEC_BAD_BLK_MGMNT', 134, '0x0', '0x1', 'reversible')]" \
    --decode "$cm4" --extcsd-write 134=1
changes "--extcsd-write twice, two bytes: both" \
    "[('SEC_BAD_BLK_MGMNT', 134, '0x0', '0x1', 'reversible'), ('VENDOR_SPECIFIC_FIELD', 64, '0x0', '0x5a', 'reversible')]" \
    --decode "$cm4" --extcsd-write 134=1 --extcsd-write 0x40=0x5a
json_eq "--extcsd-write: its write is the byte at its index" "[(w['index'], w['value']) for w in j['writes']]" "[(134, 1), (64, 90)]"
changes "--sector-emulation off: USE_NATIVE_SECTOR [62] 1" "[('USE_NATIVE_SECTOR', 62, '0x0', '0x1', 'reversible')]" \
    --decode "$cm4" --sector-emulation off
json_eq "--sector-emulation off: after power cycle, destroys the layout" "j['power_cycle'], j['destroys_data']" "True True"
run 0 $T emmc --decode "$cm4" --extcsd-write 134=1 && expect "text plan: the raw byte's name and index" "$out" "SEC_BAD_BLK_MGMNT \[134\]"

refused() { # refused NAME REGEX ARGS...: exit 1, the reason on stdout (text), nothing written
    r_name=$1 r_re=$2; shift 2
    run 1 $T emmc "$@" && expect "$r_name" "$out" "$r_re" &&
        expect "$r_name: nothing written" "$err" "refused; nothing was written$"
}
refused "one boot partition on eMMC 4.41" "needs eMMC 4.5 \(EXT_CSD_REV 6\); this device is eMMC 4.41" --decode "$old" --boot-wp power-on,1
refused "one boot partition for good without --permanent" "give --permanent" --decode "$cm4" --boot-wp permanent,2
refused "a raw write of a read-only byte" "EXT_CSD \[192\] EXT_CSD_REV is read-only" --decode "$cm4" --extcsd-write 192=8
refused "a raw write of a typed setting's byte" "is written by --boot-partition" --decode "$cm4" --extcsd-write 179=8
refused "a raw write of a one-time bit without --permanent" "Refused: --extcsd-write: this cannot be undone on this device: give --permanent" --decode "$cm4" --extcsd-write 169=1
refused "a raw write of one byte twice" "given twice" --decode "$cm4" --extcsd-write 134=1 --extcsd-write 134=0
refused "512-byte emulation on a 512-byte device" "NATIVE_SECTOR_SIZE \[63\] is 0" --decode "ext_csd=@$D/emmc51-aaru.hex" --sector-emulation off

usage() { # usage NAME REGEX ARGS...
    u_name=$1 u_re=$2; shift 2
    run 2 $T emmc "$@" && expect "$u_name" "$err" "$u_re"
}
usage "a raw offset past the EXT_CSD" "--extcsd-write 512=1: OFFSET is an EXT_CSD byte, 0 to 511" --decode "$cm4" --extcsd-write 512=1
usage "a raw value that is no byte" "--extcsd-write 134=0x100: VALUE is a byte" --decode "$cm4" --extcsd-write 134=0x100
usage "a raw write without =" "expected OFFSET=VALUE" --decode "$cm4" --extcsd-write 134
usage "a boot partition 3" "--boot-wp power-on,3: expected power-on or permanent, then ,1 or ,2" --decode "$cm4" --boot-wp power-on,3

finish
