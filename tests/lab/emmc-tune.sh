#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-tune emmc on the emulated eMMC of the eMMC lab (QEMU 11's eMMC on an
# AST2600 board, EXT_CSD_REV 5), through the real kernel's MMC ioctl: every
# write this eMMC accepts (PARTITION_CONFIG's boot partition and boot ack,
# BOOT_BUS_CONDITIONS' width, BOOT_WP's power-on protection, and the one-time
# RST_n_FUNCTION and a GP partition, which a re-initialisation of QEMU's
# eMMC resets), each read back
# from debugfs; the refusals of what EXT_CSD_REV 5 does not support, with the
# EXT_CSD unchanged; side by side with mmc-utils' mmc from the same state,
# the whole EXT_CSD after `mmc-tune emmc` equal to the one after the
# equivalent `mmc` command; the configuration saved and applied back.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
emmc_lab emmc-tune || { finish; exit 1; }

# --- the configuration as it is -------------------------------------------
rc "mmc-tune emmc DEVICE: exit 0" show 0
jq_eq "configuration: PARTITION_CONFIG [179] writable, boot from boot partition 1" show.out \
    "[(r['index'], r['writable'], r['value']) for r in j['configuration'] if r['field'] == 'PARTITION_CONFIG']" \
    "[(179, True, 'boot from boot partition 1, boot ack off')]"
jq_eq "configuration: CACHE_CTRL not writable on EXT_CSD_REV 5, and why" show.out \
    "[(r['writable'], 'EXT_CSD_REV 5' in r['not_writable']) for r in j['configuration'] if r['field'] == 'CACHE_CTRL']" "[(False, True)]"
expect "text view: grouped, with the boot group" "$res/show-text.out" "^boot:$"

# --- what EXT_CSD_REV 5 cannot take: refused, nothing written ---------------
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
jq_eq "the cache: needs eMMC 4.5" refuse1.out "j['refusals'][0]['reason'].startswith('a cache (CACHE_CTRL [33]) needs eMMC 4.5 (EXT_CSD_REV 6); this device is eMMC 4.41 (EXT_CSD_REV 5)')" True
jq_eq "an enhanced area: MAX_ENH_SIZE_MULT is 0" refuse4.out "'MAX_ENH_SIZE_MULT [159:157] is 0' in j['refusals'][0]['reason']" True
jq_eq "reliable write: WR_REL_PARAM says it is fixed" refuse5.out "'HS_CTRL_REL is 0' in j['refusals'][0]['reason']" True
jq_eq "a DDR boot: BOOT_INFO says no" refuse7.out "'DDR_BOOT_MODE is 0' in j['refusals'][0]['reason']" True
jq_eq "permanent boot write protection: refused without --permanent" refuse10.out "'give --permanent' in j['refusals'][0]['reason']" True
same "after the refusals the EXT_CSD is unchanged" start after-refusals
rc "-n: exit 0" dry 0
jq_eq "-n: the plan, PARTITION_CONFIG 0x08 -> 0x50, not applied" dry.out \
    "[(c['field'], c['index'], hex(c['old']), hex(c['new']), c['reversible']) for c in j['changes']], j['applied']" \
    "[('PARTITION_CONFIG', 179, '0x8', '0x50', True)] False"
same "-n wrote nothing" start after-dry

# --- one-time settings, undone by re-initialising QEMU's eMMC ----------------
rc "--rst-n on --permanent: exit 0" tune-rstn 0
jq_eq "--rst-n on --permanent: one-time, verified" tune-rstn.out "[(c['field'], c['index'], c['undo']) for c in j['changes']], j['verified']" \
    "[('RST_n_FUNCTION', 162, 'one-time')] True"
changed "--rst-n on --permanent: RST_n_FUNCTION 0x01, nothing else" start tune-rstn 162 0x01
rc "mmc hwreset enable: exit 0" mmc-rstn 0
same "EXT_CSD after mmc-tune --rst-n on --permanent = after mmc hwreset enable" tune-rstn mmc-rstn
rc "--gp 1,8M --permanent: exit 0" tune-gp 0
jq_eq "--gp 1,8M --permanent: 16 groups of 512 KiB, completed, verified" tune-gp.out \
    "[(c['field'], c['new']) for c in j['changes']], j['verified']" "[('GP_SIZE_MULT_1', 16), ('PARTITION_SETTING_COMPLETED', 1)] True"
rc "mmc gp create -y 8192 1 0 0: exit 0" mmc-gp 0
same "EXT_CSD after mmc-tune --gp 1,8M --permanent = after mmc gp create -y 8192 1 0 0" tune-gp mmc-gp
for n in rstn mmc-rstn gp mmc-gp; do rc "re-initialised after $n" reinit-$n 0; done
same "after the re-initialisations the one-time settings are gone" start after-one-time

# --- PARTITION_CONFIG, by mmc-tune and by mmc -------------------------------
rc "--boot-partition 2 --boot-ack on: exit 0" tune-bp2 0
jq_eq "--boot-partition 2: applied and verified" tune-bp2.out "j['applied'], j['verified']" "True True"
changed "--boot-partition 2 --boot-ack on: PARTITION_CONFIG 0x50, nothing else" start tune-bp2 179 0x50
rc "mmc bootpart enable 1 0: exit 0" mmc-bp1 0
same "mmc bootpart enable 1 0 puts it back as it started" start mmc-bp1
rc "mmc bootpart enable 2 1: exit 0" mmc-bp2 0
same "EXT_CSD after mmc-tune --boot-partition 2 --boot-ack on = after mmc bootpart enable 2 1" tune-bp2 mmc-bp2
rc "--boot-partition user: exit 0" tune-user 0
rc "mmc bootpart enable 7 1: exit 0" mmc-user 0
same "EXT_CSD after mmc-tune --boot-partition user = after mmc bootpart enable 7 1" tune-user mmc-user
rc "--boot-partition 1 --boot-ack off: exit 0" tune-bp1 0
same "mmc-tune --boot-partition 1 --boot-ack off puts it back as it started" start tune-bp1

# --- BOOT_BUS_CONDITIONS ----------------------------------------------------
rc "--boot-bus 4: exit 0" tune-bus4 0
changed "--boot-bus 4: BOOT_BUS_CONDITIONS 0x01, nothing else" start tune-bus4 177 0x01
rc "mmc bootbus set single_backward x1 x4: exit 0" mmc-bus4 0
same "EXT_CSD after mmc-tune --boot-bus 4 = after mmc bootbus set single_backward x1 x4" tune-bus4 mmc-bus4
rc "--boot-bus 8: exit 0" tune-bus8 0
rc "mmc bootbus set single_backward x1 x8: exit 0" mmc-bus8 0
same "EXT_CSD after mmc-tune --boot-bus 8 = after mmc bootbus set single_backward x1 x8" tune-bus8 mmc-bus8
same "mmc-tune --boot-bus 1 puts it back as it started" start tune-bus1

# --- BOOT_WP: power-on protection, until the card is initialised again ------
rc "--boot-wp power-on: exit 0" tune-wp 0
jq_eq "--boot-wp power-on: lasts until power cycle" tune-wp.out "[(c['field'], c['index'], c['undo'], c['reversible']) for c in j['changes']], j['verified']" \
    "[('BOOT_WP', 173, 'until power cycle', False)] True"
changed "--boot-wp power-on: BOOT_WP 0x01, nothing else" start tune-wp 173 0x01
jq_eq "--boot-wp power-on again: already on, nothing to change" tune-wp-again.out "j['changes'], any('already on' in n for n in j['notes'])" "[] True"
rc "the card initialised again (host driver unbound and bound)" reinit-wp 0
same "after the re-initialisation (QEMU's power cycle) BOOT_WP is clear again" start reinit-wp
rc "mmc writeprotect boot set: exit 0" mmc-wp 0
same "EXT_CSD after mmc-tune --boot-wp power-on = after mmc writeprotect boot set" tune-wp mmc-wp
same "the card as it started, at the end" start end

# --- the configuration file -------------------------------------------------
rc "--save: exit 0" save 0
jq_eq "--save: the model and the boot settings" config.json \
    "j['model']['ext_csd_rev'], j['model']['name'], j['settings']['boot_partition'], j['settings']['boot_ack'], j['settings']['boot_bus']" \
    "5 QEMU!! 1 off 1"
rc "--from-config of the same device: exit 0" from-config 0
jq_eq "--from-config of the same device: nothing to change" from-config.out "j['changes'], j['refusals']" "[] []"
rc "--from-config of another model: exit 2" from-other 2
expect "--from-config of another model: not the same model" "$res/from-other.err" "not the same model"

finish
