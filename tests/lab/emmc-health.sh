#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-health on the emulated eMMC of the eMMC lab (QEMU's eMMC on an AST2600
# board): EXT_CSD reaches mmc-health through the kernel, by CMD8 and from
# debugfs alike. QEMU's eMMC reports EXT_CSD_REV 5 (mmc-info's suite reads
# it), older than the health fields of revision 7 (eMMC 5.0), so the card's
# health is unknown, never healthy, and says why; the card is writable, and
# read-only, with the kernel's force_ro as the reason, while force_ro is set.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
emmc_lab emmc-health || { finish; exit 1; }

card="c=j['cards'][0]"

rc "unknown health: exit 6" health 6
for doc in health noioctl; do
    cp "$res/$doc.json" "$out" 2>/dev/null
    json_eq "$doc: the eMMC named, verdict unknown, EXT_CSD_REV 5 named as the reason" \
        "(lambda c: (c['card']['name'], c['verdict'], c['wear'], [n['source'] for n in c['no_health_data']], any('EXT_CSD_REV 5 predates' in n['why'] for n in c['no_health_data'])))(j['cards'][0])" \
        "('mmc0:0001', 'unknown', [], ['ext_csd'], True)"
    json_eq "$doc: writable, no reason against it" "j['cards'][0]['writability']['writable'], j['cards'][0]['writability']['reasons']" "True []"
done
rc "--no-ioctl: exit 6 too" noioctl 6
rc "text view exits 6" health-text 6
expect "text view: the verdict first" "$res/health.txt" "unknown"
rc "force_ro: read-only, exit 5" force-ro 5
cp "$res/force-ro.json" "$out" 2>/dev/null
json_eq "force_ro: verdict read_only, the kernel's force_ro the reason, not permanent" \
    "(lambda w: (j['cards'][0]['verdict'], w['writable'], [(r['cause'], r['permanent']) for r in w['reasons']]))(j['cards'][0]['writability'])" \
    "('read_only', False, [('force_ro', False)])"
finish
