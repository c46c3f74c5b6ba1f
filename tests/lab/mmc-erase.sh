#!/bin/sh
# mmc-erase against the real kernel MMC stack in the lab, one boot, two
# cards: raw CMD32/CMD33/CMD38 on the 4 GiB SDHC card (block addresses) and
# the 1 GiB SDSC card (byte addresses), BLKDISCARD, an unaligned range; every
# byte inside reads erased and every byte outside is unchanged; the emulated
# card reads 0xff although its SCR says 0x00, which is reported as a warning
# with the facts; methods the card's registers rule out are refused.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/sd-lib.sh
reason=$(sd_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
# The system interpreter where there is one: version-manager shims are slow.
if [ -x /usr/bin/python3 ]; then python3() { /usr/bin/python3 "$@"; }; fi

sd_lab mmc-erase || { finish; exit 1; }

MiB=1048576
rc() { [ "$(cat "$res/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || { fail "$1: exit $(cat "$res/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    stderr: /' "$res/$2.err" 2>/dev/null | head -3; }; }
check() { # check NAME FILE PYEXPR EXPECTED
    got=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($3)" "$res/$2" 2>&1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: got '$got', expected '$4'"; fi
}
# data NAME CARD.bin REGION... : each REGION is START:END:erased|same (bytes);
# together they cover the file. erased: every byte 0x00 or 0xff; same: the pattern.
data() {
    name=$1 card=$res/$2; shift 2
    if msg=$(python3 - "$res/pat.bin" "$card" "$@" <<'PY'
import sys
pat = open(sys.argv[1], "rb").read()
card = open(sys.argv[2], "rb").read()
bad, covered, seen = [], 0, []
for region in sys.argv[3:]:
    start, end, want = region.split(":")
    start, end = int(start), int(end)
    got = card[start:end]
    covered += end - start
    if want == "erased":
        other = len(got) - got.count(0) - got.count(255)
        if other:
            bad.append(f"{other} bytes in [{start}, {end}) are neither 0x00 nor 0xff")
        else:
            seen.append("0xff" if got.count(255) == len(got) else "0x00" if got.count(0) == len(got) else "0x00/0xff")
    elif got != pat[start:end]:
        n = sum(1 for a, b in zip(got, pat[start:end]) if a != b)
        bad.append(f"{n} bytes in [{start}, {end}) changed")
if covered != len(card):
    bad.append(f"regions cover {covered} of {len(card)} bytes")
print("; ".join(bad) if bad else "erased ranges read " + ", ".join(seen))
sys.exit(1 if bad else 0)
PY
    ); then pass "$name ($msg)"; else fail "$name: $msg"; fi
}

# Raw erase on the SDHC card.
rc "erase 4M+8M exits 0 (a warning is not a failure)" erase 0
check "erase: raw CMD32/CMD33/CMD38, block addresses, 4 MiB units from sysfs" erase.json \
    "j['plan']['method'], j['plan']['command'], j['plan']['erase_unit'], j['plan']['erase_unit_source']" \
    "erase CMD32/CMD33 CMD38 ERASE (0x0), block addresses 4194304 sysfs preferred_erase_size"
check "erase: the card identified" erase.json "j['card']['name'], j['card']['product'], j['card']['serial'], j['card']['capacity_bytes']" \
    "mmc0:4567 QEMU! 0xdeadbeef 4294967296"
check "erase: two timed chunks, the whole range erased" erase.json \
    "len(j['chunks']), all(c['seconds'] > 0 for c in j['chunks']), j['erased'], j['interrupted']" \
    "2 True {'offset': 4194304, 'length': 8388608} False"
check "erase: SCR says 0x00, the card reads 0xff: verify warns" erase.json \
    "j['verify']['result'], j['verify']['expected'], j['verify']['found']" \
    "warning 0x00 (SCR DATA_STAT_AFTER_ERASE) 0xff"
check "erase: the warning states the facts" erase.json \
    "any('read 0xff, where 0x00 was expected (SCR DATA_STAT_AFTER_ERASE)' in w for w in j['warnings'])" "True"

# BLKDISCARD on the same card: the kernel sends SD ERASE.
rc "discard 16M+4M exits 0" discard 0
check "discard: BLKDISCARD, verified with the same warning" discard.json \
    "j['plan']['method'], j['plan']['command'], j['erased']['length'], j['verify']['result'], j['verify']['found']" \
    "discard BLKDISCARD 4194304 warning 0xff"

# An unaligned range: the whole AUs only, head and tail left alone.
rc "unaligned erase exits 0" unaligned 0
check "unaligned: whole 4 MiB units 24-28 MiB, head and tail left alone" unaligned.json \
    "j['plan']['aligned_offset'], j['plan']['aligned_length'], j['plan']['head'], j['plan']['tail']['action'], j['verify']['mode']" \
    "25165824 4194304 {'offset': 22020608, 'length': 3145216, 'action': 'left_alone'} left_alone full"

data "SDHC card: inside every range erased, every byte outside unchanged" card0.bin \
    0:$((4 * MiB)):same $((4 * MiB)):$((12 * MiB)):erased $((12 * MiB)):$((16 * MiB)):same \
    $((16 * MiB)):$((20 * MiB)):erased $((20 * MiB)):$((24 * MiB)):same $((24 * MiB)):$((28 * MiB)):erased \
    $((28 * MiB)):$((32 * MiB)):same

# The SDSC card: byte addresses.
rc "SDSC erase exits 0" sdsc 0
check "SDSC: byte addresses, verify warns about 0xff" sdsc.json \
    "j['plan']['command'], j['erased']['length'], j['verify']['result'], j['verify']['found']" \
    "CMD32/CMD33 CMD38 ERASE (0x0), byte addresses 8388608 warning 0xff"
data "SDSC card: inside erased, outside unchanged" card1.bin \
    0:$((4 * MiB)):same $((4 * MiB)):$((12 * MiB)):erased $((12 * MiB)):$((16 * MiB)):same

# Refused by the registers, before any command.
for m in sd-discard fule trim sanitize secure; do rc "--method $m refused" refuse-$m 1; done
expect "sd-discard: SSR DISCARD_SUPPORT" "$res/refuse-sd-discard.err" "SSR DISCARD_SUPPORT is 0"
expect "fule: SSR FULE_SUPPORT" "$res/refuse-fule.err" "SSR FULE_SUPPORT is 0"
expect "trim: an eMMC argument" "$res/refuse-trim.err" "trim is an eMMC method and mmcblk0 is an SD card"
expect "secure: no secure erase on SD" "$res/refuse-secure.err" "SD cards have no secure erase"

rc "dry run exits 0" dry 0
check "dry run: auto picks the card's erase for the whole card, nothing erased" dry.json \
    "j['dry_run'], j['plan']['method'], j['plan']['chunks'], j['erased']['length']" "True erase 1024 0"

finish
