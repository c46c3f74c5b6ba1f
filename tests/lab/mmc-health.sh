#!/bin/sh
# mmc-health against the lab's kernel MMC stack (the shared SD lab boot,
# tests/lab/sd-lib.sh): CMD56 reaches
# QEMU's SD card and its answer comes back through mmc-health exactly as the
# model makes it; a writable card is writable, and read-only under the
# kernel's force_ro.
#
# What QEMU's SD model returns to CMD56 (hw/sd/sd.c): up to 9.0 every GEN_CMD
# read is filled by APP_READ_BLOCK, memset(sd->data, 0xec, len), and a write
# is dropped (APP_WRITE_BLOCK does nothing); 9.1 replaced both with a
# vendor_data buffer. The lab's QEMU is Debian 12's 7.2: 512 bytes of 0xec,
# which mmc-health must call no health data. A CMD42 password lock, set by
# the lab-only tool mmc-lock (mmc-health sends no CMD42), is reported as
# the reason the card is read-only.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/sd-lib.sh
reason=$(sd_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
major=$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p')
minor=$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version [0-9]*\.\([0-9]*\).*/\1/p')
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

sd_lab mmc-health || { finish; exit 1; }

check() { # check NAME FILE PYEXPR EXPECTED
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); c=j['cards'][0]; print($3)" "$res/$2" 2>&1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: got '$got', expected '$4'"; fi
}
rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; }

rc "QEMU's card is in no layout's row: unknown, exit 6" plain 6
check "no CMD56 sent to it, and the note names its CID" plain.json \
    "c['verdict'], c['no_health_data'], c['notes']" \
    "unknown [] ['no health data known for this card (MID 0xaa, OID \"XY\")']"
check "the card is writable: sysfs ro 0, no reason" plain.json \
    "c['writability']['writable'], c['writability']['reasons'], c['device']" "True [] /dev/mmcblk0"
expect "the hint names --layout" "$res/plain.err" "--layout NAME tries a vendor layout on purpose"

if [ "$major" -lt 9 ] || { [ "$major" -eq 9 ] && [ "$minor" -eq 0 ]; }; then
    fill=ec
else
    fill=""
fi
if [ -n "$fill" ]; then
    rc "--layout sandisk: a block comes back, no health data, exit 6" sandisk 6
    check "CMD56 argument 1 returns QEMU $major.$minor's 512 bytes of 0x$fill" sandisk.json \
        "c['no_health_data']" "[{'source': 'cmd56:sandisk', 'why': 'the card answered with a block of 0x$fill bytes'}]"
    got=$($PY -c "import json,sys; b=json.load(open(sys.argv[1]))['cards'][0]['cmd56'][0]['blocks'][0]; print(b['arg'], b['hex'] == '$fill' * 512)" "$res/sandisk-raw.json" 2>&1)
    [ "$got" = "0x00000001 True" ] && pass "--save-raw keeps the block as the card sent it" || fail "raw block: $got"
    rc "--layout two_step: the write is accepted, the read answers" two-step 6
    check "the two-step read returns the same fill" two-step.json \
        "c['no_health_data']" "[{'source': 'cmd56:two_step', 'why': 'the card answered with a block of 0x$fill bytes'}]"
else
    skip "QEMU $major.$minor: CMD56 answers a vendor_data buffer this suite has not checked; only 7.2-9.0's 0xec fill is asserted"
fi
rc "the card reads after the CMD56 commands" read-after 0
rc "--prometheus on the live card" prom 6
expect "metrics name the live device" "$res/mmc.prom" 'mmc_health_verdict\{card="mmc0:4567",device="/dev/mmcblk0",verdict="unknown"\} 1'
if command -v promtool >/dev/null; then
    promtool check metrics <"$res/mmc.prom" >"$res/promtool.out" 2>&1 && pass "promtool: the live card's metrics" ||
        { fail "promtool on the live card's metrics"; sed 's/^/    | /' "$res/promtool.out" | head -5; }
else
    skip "promtool is not installed (Debian package prometheus; make deps)"
fi

rc "force_ro set: read_only, exit 5" force-ro 5
check "force_ro is the reason, one that can be undone" force-ro.json \
    "c['verdict'], [(r['cause'], r['scope'], r['permanent']) for r in c['writability']['reasons']]" \
    "read_only [('force_ro', 'card', False)]"
rc "force_ro cleared: unknown again (no wear source), exit 6" rw-again 6
check "force_ro cleared: writable" rw-again.json "c['writability']['writable']" "True"

# The CMD42 password lock (tests/lab/tools/mmc-lock): QEMU 7.2's SD model
# honours it (hw/sd/sd.c sd_lock_command) and reports CARD_IS_LOCKED in the
# card status, which mmc-health reads with CMD13.
rc "mmc-lock: the card takes a password and locks" lock 0
expect "CMD13 shows CARD_IS_LOCKED (bit 25) after the lock" "$res/lock.out" "^status 0x02...... locked 1 failed 0$"
rc "locked: read_only, exit 5" locked 5
check "the password lock is the one reason, one that can be undone" locked.json \
    "c['verdict'], [(r['cause'], r['scope'], r['permanent']) for r in c['writability']['reasons']]" \
    "read_only [('card_locked', 'card', False)]"
check "the remedy names CMD42 and what a forced erase costs" locked.json \
    "c['writability']['reasons'][0]['remedy']" \
    "unlock it with its password (CMD42); a forced erase also unlocks it but destroys all data"
rc "QEMU refuses an unlock with the same password (PWD_LEN must exceed the stored one)" unlock 1
expect "...with LOCK_UNLOCK_FAILED, still locked" "$res/unlock.out" "locked 1 failed 1$"
rc "a forced erase unlocks it" force-erase 0
expect "CMD13 shows the lock gone, no failure" "$res/force-erase.out" "locked 0 failed 0$"
rc "unlocked: unknown again (no wear source), exit 6" unlocked 6
check "unlocked: writable" unlocked.json "c['writability']['writable']" "True"
rc "the card reads after the lock and the forced erase" read-unlocked 0

# The write-protect switch: QEMU's SD model takes it from its drive
# (!blk_is_writable), but 7.2 refuses a read-only drive outright, so the
# switch cannot be set in this lab; the host-side tests cover it
# (tests/cli/mmc-health.sh, sd-switch-on.json). Assert the refusal, so a
# QEMU that accepts it is noticed. No guest boots: QEMU stops at realize.
img=$work/ro.img; truncate -s 64M "$img"
timeout 60 qemu-system-x86_64 -machine pc -accel tcg -display none -S -device sdhci-pci -device sd-card,drive=c \
    -drive "id=c,if=none,format=raw,readonly=on,file=$img" >"$work/qemu-ro.out" 2>&1
ro_status=$?
if [ "$major" -eq 7 ]; then
    [ "$ro_status" = 1 ] && pass "QEMU $major.$minor refuses a read-only drive as an SD card" || fail "QEMU with a read-only drive: exit $ro_status"
    expect "with the words QEMU uses" "$work/qemu-ro.out" "Cannot use read-only drive as SD card"
else
    skip "QEMU $major.$minor: whether a read-only drive sets the switch is not checked (only 7.x's refusal is known)"
fi
finish
