#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-tune emmc's user-area write protection and boot images on the emulated
# eMMC of the eMMC lab, through the real kernel. QEMU's eMMC answers the
# write protect commands (CMD28/29/30) only on a card of 2 GiB or less and
# not CMD31 at all, so this suite boots a 64 MiB card of its own (byte
# addressed), results kept in build/lab/emmc-wp-boot-64M. The kernel sets
# ERASE_GROUP_DEF on this host, so the write protect group is the EXT_CSD's
# HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE, 512 KiB. QEMU keeps its own 2 MiB
# groups whatever its registers say, sends CMD30's 32 bits in the host's
# byte order (a memcpy of a uint32_t; JESD84-B51 6.10.4 puts the addressed
# group in the last bit sent) and, as this kernel sees it, does not refuse
# a write into a protected group (observed: a direct 512-byte write there
# succeeds). So on this emulator the protection is not observable: what is
# checked is that the commands are accepted (no error in the card status),
# that mmc-tune's read-back, decoding by the standard, refuses to call the
# result verified and names the group, that USER_WP is put back and the
# EXT_CSD is unchanged, and the refusals. mmc-utils' writeprotect user set
# is accepted on this EXT_CSD_REV 5 card; its `get` sends CMD31, which QEMU
# lacks, and fails. Checked as well: boot images written, read back
# byte-identical past the page cache, force_ro as it was; an image with
# --boot-partition and --boot-bus giving the EXT_CSD mmc's bootpart/bootbus
# give; images refused (too large, empty, a device, a protected boot area)
# with nothing changed.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
if ! scripts/make-locked armhf -s -j2 cross-armhf >build/lab-emmc-build.log 2>&1; then
    fail "cross build (make cross-armhf) failed"; tail -n 15 build/lab-emmc-build.log | sed 's/^/    | /'
    finish; exit 1
fi
lab_boot "eMMC lab (64 MiB card)" build/lab/emmc-wp-boot-64M "--card emmc --boot-partitions --size 64M --timeout 900" \
    "$(emmc_lab_inputs)" tests/lab/guest/emmc-wp-boot.sh || { finish; exit 1; }
res=$lab_run/emmc-wp-boot
M=1048576

rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || { fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    stderr: /' "$res/$2.err" 2>/dev/null | head -5; }; }
same() { # same NAME A B: EXT_CSD snapshots A and B are the same 512 bytes
    a=$(cat "$res/$2.hex" 2>/dev/null) b=$(cat "$res/$3.hex" 2>/dev/null)
    if [ ${#a} -eq 1024 ] && [ "$a" = "$b" ]; then pass "$1"; else fail "$1: EXT_CSD $2 and $3 differ"; fi
}
differ() { # differ NAME A B: both snapshots read, not the same
    a=$(cat "$res/$2.hex" 2>/dev/null) b=$(cat "$res/$3.hex" 2>/dev/null)
    if [ ${#a} -eq 1024 ] && [ ${#b} -eq 1024 ] && [ "$a" != "$b" ]; then pass "$1"; else fail "$1: EXT_CSD $2 and $3 the same (or unread)"; fi
}
jq_eq() { # jq_eq NAME FILE PYEXPR EXPECTED, j the file's JSON
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($3)" "$res/$2" 2>&1 | tail -n1)
    [ "$got" = "$4" ] && pass "$1" || fail "$1: got '$got', expected '$4'"
}
val() { # val NAME FILE EXPECTED: the file's content
    got=$(cat "$res/$2" 2>/dev/null)
    [ "$got" = "$3" ] && pass "$1" || fail "$1: got '$got', expected '$3'"
}
G=524288
runs="[(r['offset'], r['bytes'], r['type']) for r in j['user_wp']['protected']]"

# --- the listing --------------------------------------------------------------
rc "mmc-tune emmc DEVICE lists the groups: exit 0" list 0
jq_eq "the group: the EXT_CSD's 512 KiB (ERASE_GROUP_DEF set by the kernel), 128 groups over the 64 MiB user area" list.out \
    "j['user_wp']['group_bytes'], j['user_wp']['group_source'], j['user_wp']['groups']" \
    "$G EXT_CSD HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE 128"
jq_eq "no group protected at the start; QEMU answers CMD30 but not CMD31, said so" list.out \
    "j['user_wp']['protected'], j['user_wp']['types_known']" "[] False"
expect "text view: the protection section" "$res/list-text.out" "^user area write protection \(group 512 KiB"

# --- temporary protection -------------------------------------------------------
rc "a write into group 1 before the protection: exit 0" write-g1-before 0
jq_eq "--user-wp temporary --offset 512K --size 512K: CMD28 at group 1 (byte address 524288)" wp-set.out \
    "[(s['command'], s['groups']) for s in j['user_wp_plan']['steps']], j['applied']" "[(28, [1])] True"
rc "the read-back of QEMU's byte-swapped CMD30 answer does not verify: exit 1" wp-set 1
expect "the read-back names the group it cannot see protected" "$res/wp-set.err" "read back: group 1 reads none, planned temporary"
same "temporary protection leaves the EXT_CSD as it was (USER_WP untouched)" start after-wp-set
rc "a write into unprotected group 0: exit 0" write-g0-protected 0
rc "mmc writeprotect user get fails: QEMU has no CMD31 (exit 255)" mmc-get-set 255
expect "mmc writeprotect user get: the ioctl times out" "$res/mmc-get-set.err" "ioctl: Connection timed out"
rc "mmc writeprotect user set temp on EXT_CSD_REV 5: accepted (exit 0)" mmc-set 0

# --- refusals ---------------------------------------------------------------------
rc "permanent without --permanent: exit 1" wp-perm 1
jq_eq "permanent without --permanent: refused, says to give it" wp-perm.out "'give --permanent' in j['user_wp_plan']['refusals'][0]['reason']" True
rc "a range past the user area: exit 1" wp-past 1
same "after the refusals the EXT_CSD is unchanged" start after-wp-refusals

# --- power-on protection ------------------------------------------------------------
rc "--user-wp power-on: the read-back of QEMU's answer does not verify: exit 1" wp-pwron 1
jq_eq "--user-wp power-on: CMD28 with USER_WP 0x01 (US_PWR_WP_EN), until power cycle" wp-pwron.out \
    "[(s['command'], s['user_wp_during'], s['groups']) for s in j['user_wp_plan']['steps']], j['user_wp_plan']['power_cycle'], j['applied']" \
    "[(28, 1, [0])] True True"
same "USER_WP is put back after the power-on protection: the EXT_CSD as it started" start after-wp-pwron
val "the card initialised again" reinit-pwron.rc 0
rc "after the re-initialisation (QEMU's power cycle) group 0 takes writes" write-g0-reinit 0
rc "... and so does group 1" write-g1-reinit 0

# --- boot images ----------------------------------------------------------------------
val "boot0's force_ro before: 1 (the kernel's default)" boot0-before.force_ro 1
rc "--boot-image 1=boot1.img: exit 0" img1 0
jq_eq "--boot-image 1: the job, applied and verified" img1.out \
    "[(b['area'], b['bytes'], b['partition_bytes']) for b in j['boot_images']['jobs']], j['applied'], j['verified']" \
    "[(1, 307200, $M)] True True"
val "boot0 read back past the page cache is byte-identical to the image" img1.cmp.rc 0
val "boot0's force_ro is back at 1" boot0-after.force_ro 1
same "the image leaves the EXT_CSD as it was" boot-start after-img1
same "the EXT_CSD after mmc-tune's image = after force_ro, dd and force_ro by hand" after-img1 after-dd2
jq_eq "--boot-image 1 again: already there, nothing written" img1-again.out \
    "j['boot_images']['jobs'], j['applied'], any('already holds' in n for n in j['boot_images']['notes'])" "[] False True"
rc "--boot-image 2 --boot-partition 2 --boot-bus 4: exit 0" img2-config 0
jq_eq "image and boot configuration in one plan, verified" img2-config.out \
    "[c['field'] for c in j['changes']], [b['area'] for b in j['boot_images']['jobs']], j['verified']" \
    "['PARTITION_CONFIG', 'BOOT_BUS_CONDITIONS'] [2] True"
val "boot1 read back byte-identical" img2.cmp.rc 0
val "boot1's force_ro before and after: 1 and 1" boot1-after.force_ro "$(cat "$res/boot1-before.force_ro" 2>/dev/null)"
differ "the boot configuration changed" after-dd2 after-img2-config
rc "mmc bootpart enable 2 0: exit 0" mmc-bp2 0
rc "mmc bootbus set single_backward x1 x4: exit 0" mmc-bus4 0
same "EXT_CSD after mmc-tune --boot-image 2 --boot-partition 2 --boot-bus 4 = after mmc bootpart/bootbus" after-img2-config mmc-config
rc "an image larger than the partition: exit 1" img-big 1
jq_eq "an image larger than the partition: refused, by name" img-big.out "'larger than boot partition 1' in j['boot_images']['refusals'][0]['reason'], j['applied']" "True False"
rc "an empty image: exit 1" img-empty 1
rc "a device as the image: exit 1" img-dev 1
jq_eq "a device as the image: not a regular file" img-dev.out "'not a regular file' in j['boot_images']['refusals'][0]['reason']" True
val "boot0's force_ro after the refusals: 1" boot0-refusals.force_ro 1
same "the refusals leave the EXT_CSD unchanged" boot-refusals-start after-boot-refusals
rc "--boot-wp power-on: exit 0" bootwp 0
rc "an image into a power-on protected boot area: exit 1" img-protected 1
jq_eq "a protected boot area: refused, naming it and BOOT_WP" img-protected.out \
    "'boot partition 1 is write-protected until the next power cycle' in j['boot_images']['refusals'][0]['reason']" True
same "the protected-area refusal leaves the EXT_CSD unchanged" bootwp-on after-img-protected
val "the card initialised again at the end" reinit-end.rc 0
same "the card as it started, at the end" start end
finish
