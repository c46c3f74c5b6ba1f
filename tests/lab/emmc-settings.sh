#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# The last of mmc-utils' settings in mmc-tune emmc, on the emulated eMMC of
# the eMMC lab (QEMU 11's, EXT_CSD_REV 5) through the real kernel's MMC
# ioctl (tests/lab/guest/emmc-settings.sh): the boot bus kept after boot,
# equal byte for byte to mmc-utils' `bootbus set ... retain`; a raw EXT_CSD
# byte written, read back and put back, and the raw writes refused (read
# only, a typed setting's, the kernel's, a trigger, one-time without
# --permanent, reserved) with nothing written; one boot partition's
# protection and 512-byte emulation refused on this eMMC 4.41 with nothing
# written, and what mmc-utils does there instead.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
emmc_lab emmc-settings || { finish; exit 1; }

# --- the boot bus kept after boot -------------------------------------------
rc "--boot-bus 8,retain: exit 0" tune-retain 0
jq_eq "--boot-bus 8,retain: applied and verified" tune-retain.out "j['applied'], j['verified']" "True True"
changed "--boot-bus 8,retain: BOOT_BUS_CONDITIONS 0x06, nothing else" start tune-retain 177 0x06
rc "mmc bootbus set single_backward x1 x1: exit 0" mmc-back 0
same "mmc bootbus set single_backward x1 x1 puts it back as it started" start mmc-back
rc "mmc bootbus set single_backward retain x8: exit 0" mmc-retain 0
same "EXT_CSD after mmc-tune --boot-bus 8,retain = after mmc bootbus set single_backward retain x8" tune-retain mmc-retain
rc "--boot-bus 1,reset: exit 0" tune-reset 0
same "mmc-tune --boot-bus 1,reset puts it back as it started" start tune-reset

# --- a raw EXT_CSD byte -------------------------------------------------------
rc "--extcsd-write 134=0x01: exit 0" tune-raw 0
jq_eq "--extcsd-write 134=0x01: SEC_BAD_BLK_MGMNT, reversible, verified" tune-raw.out \
    "[(c['field'], c['index'], c['old'], c['new'], c['reversible']) for c in j['changes']], j['verified']" \
    "[('SEC_BAD_BLK_MGMNT', 134, 0, 1, True)] True"
changed "--extcsd-write 134=0x01: byte 134 0x01, nothing else" start tune-raw 134 0x01
jq_eq "--extcsd-write 134=1 again: already so, nothing to change" tune-raw-again.out "j['changes'], any('already 0x01' in n for n in j['notes'])" "[] True"
rc "--extcsd-write 0x86=0: exit 0" tune-raw-back 0
same "--extcsd-write 0x86=0 puts it back as it started" start tune-raw-back

# --- refused, nothing written -----------------------------------------------
n=$(cat "$res/refuse.count" 2>/dev/null)
[ "$n" = 10 ] && pass "10 refusals tried" || fail "refusals tried: $n, expected 10"
i=1
while [ "$i" -le "${n:-0}" ]; do
    args=$(cat "$res/refuse$i.args")
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(bool(j['refusals']), j['applied'])" "$res/refuse$i.out" 2>&1)
    if [ "$(cat "$res/refuse$i.rc")" = 1 ] && [ "$got" = "True False" ]; then pass "refused, exit 1, nothing applied: $args"
    else fail "$args: exit $(cat "$res/refuse$i.rc"), refusals/applied '$got'"; sed 's/^/    | /' "$res/refuse$i.err" | head -3; fi
    i=$((i + 1))
done
reason_has() { # reason_has NAME N WORDS: refusal N's first reason contains WORDS
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(sys.argv[2] in j['refusals'][0]['reason'])" "$res/refuse$2.out" "$3" 2>&1)
    [ "$got" = True ] && pass "$1" || fail "$1: '$3' not in its reason ($got)"
}
reason_has "[192] EXT_CSD_REV: read-only, the properties segment" 1 "EXT_CSD [192] EXT_CSD_REV is read-only (the properties segment"
reason_has "[33] CACHE_CTRL: a typed setting's" 2 "is written by --volatile-cache"
reason_has "[183] BUS_WIDTH: the kernel's" 3 "the kernel's own state"
reason_has "[32] FLUSH_CACHE: a trigger" 4 "write-only trigger"
reason_has "[169] FW_CONFIG: one-time, needs --permanent" 5 "give --permanent"
reason_has "[0]: reserved" 6 "EXT_CSD [0] is reserved"
reason_has "[173] BOOT_WP: --boot-wp's" 7 "is written by --boot-wp"
reason_has "one boot partition's protection: needs eMMC 4.5" 8 "needs eMMC 4.5 (EXT_CSD_REV 6); this device is eMMC 4.41 (EXT_CSD_REV 5)"
reason_has "one boot partition's permanent protection: needs eMMC 4.5" 9 "needs eMMC 4.5"
reason_has "512-byte emulation: needs eMMC 4.5" 10 "needs eMMC 4.5 (EXT_CSD_REV 6)"
same "after the refusals the EXT_CSD is unchanged" start after-refusals

# --- 512-byte emulation: mmc-utils on the same device -------------------------
expect "mmc disable 512B emulation: not supported here either" "$res/mmc-512.out" "does not support disabling 512B emulation"
same "mmc disable 512B emulation wrote nothing either" start mmc-512
same "the card as it started, at the end" start end

finish
