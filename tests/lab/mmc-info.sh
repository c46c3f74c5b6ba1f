#!/bin/sh
# mmc-info against the real kernel MMC stack in the lab: both emulated cards
# decode to their real values, every register says where it came from, CMD9/
# CMD10 agree with sysfs and leave the card usable, bad input is handled.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/sd-lib.sh
reason=$(sd_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

sd_lab mmc-info || { finish; exit 1; }

check() { # check NAME FILE PYEXPR EXPECTED
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); r=j.get('registers',{}); print($3)" "$res/$2" 2>&1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: got '$got', expected '$4'"; fi
}
rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; }

rc "list exits 0" list 0
check "list shows both cards" list.json "sorted((c['card']['name'], c['card']['type'], c['card']['capacity_bytes']) for c in j['cards'])" \
    "[('mmc0:4567', 'SD', 4294967296), ('mmc1:4567', 'SD', 1073741824)]"
check "list names the controller" list.json "j['cards'][0]['host_controller']['driver']" "sdhci-pci"

rc "4 GiB card decodes" sdhc 0
check "device, host, RCA from the card's name" sdhc.json "j['card']['device'], j['card']['host'], j['card']['rca']" "/dev/mmcblk0 mmc0 0x4567"
check "CSD 2.0, 4 GiB" sdhc.json "r['csd']['decoded']['csd_version'], r['csd']['decoded']['capacity_bytes']" "2.0 4294967296"
check "CID: QEMU!, XY, 0xdeadbeef, MID 0xaa" sdhc.json \
    "r['cid']['fields']['pnm'], r['cid']['fields']['oid'], hex(r['cid']['fields']['psn']), hex(r['cid']['fields']['mid'])" \
    "QEMU! XY 0xdeadbeef 0xaa"
check "SCR 0225000000000000 by ACMD51" sdhc.json "r['scr']['hex'], r['scr']['source']" "0225000000000000 ioctl"
check "SSR from ACMD13 (ioctl), not the zeroed sysfs copy" sdhc.json \
    "r['ssr']['source'], r['ssr']['hex'] != '0' * 128" "ioctl True"
check "CMD13 with the real RCA: state tran" sdhc.json \
    "r['status']['source'], r['status']['decoded']['current_state_name']" "ioctl tran"
check "CMD6 mode-0 switch status read" sdhc.json "r['switch_status']['source']" "ioctl"
check "CID and CSD by CMD9/CMD10" sdhc.json "r['cid']['source'], r['csd']['source']" "ioctl ioctl"
got=$($PY -c "import json,sys; r=json.load(open(sys.argv[1]))['registers']; print(r['cid']['hex'], r['csd']['hex'])" "$res/sdhc.json")
want="$(cat "$res/sysfs-cid") $(cat "$res/sysfs-csd")"
[ "$got" = "$want" ] && pass "CMD9/CMD10 match sysfs cid/csd" || fail "CMD9/CMD10 '$got' differ from sysfs '$want'"
rc "card readable after CMD7/9/10/7" read-after 0

rc "1 GiB card decodes" sdsc 0
check "1 GiB card is SDSC, CSD 1.0" sdsc.json \
    "r['csd']['decoded']['csd_version'], r['csd']['decoded']['capacity_class'], r['csd']['decoded']['capacity_bytes']" \
    "1.0 SDSC 1073741824"

rc "text view" sdhc-text 0
expect "text view: identity first" "$res/sdhc.txt" "^Slot: +mmc0:4567 on mmc0, RCA 0x4567"
rc "--no-ioctl" noioctl 0
check "--no-ioctl: sysfs and debugfs only" noioctl.json \
    "sorted(set(v['source'] for v in r.values()))" "['debugfs', 'sysfs']"

rc "missing device exits 1" missing 1
expect "missing device: clear message" "$res/missing.err" "mmcblk9: no such device"
rc "loop device exits 1" loop 1
expect "loop device: named as not MMC" "$res/loop.err" "loop0: not an MMC/SD device: loop0 is a loop device"
cat "$res/user.err" >&2 2>/dev/null
rc "unprivileged run still decodes" user 0
check "unprivileged: falls back to sysfs and says why" user.json \
    "r['csd']['source'], any('Permission denied' in n for n in j['notes'])" "sysfs True"

finish
