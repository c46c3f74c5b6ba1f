#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-erase in the Raspberry Pi lab, on the Pi's own SD host: a dry run that
# names the card, a raw CMD32/CMD33/CMD38 erase (4M+4M) and a BLKDISCARD
# (8M+4M), both verified. A pattern sits just outside both ranges and at
# their edges inside (tests/lab/guest/rpi-erase.sh); afterwards every byte
# inside reads 0xff through the page cache (so the tool dropped the cached
# pattern) and the pattern outside is unchanged. The emulated card reads
# 0xff after an erase where its SCR promises 0x00: verify warns, which is no
# failure.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/rpi-lib.sh
reason=$(rpi_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

rpi_lab rpi-erase || { finish; exit 1; }

[ "$(cat "$res/fill.rc")" = 0 ] && pass "pattern written around and at the edges of both ranges" || fail "pattern write failed"
rpi_rc "dry run exits 0" dry 0
rpi_check "dry run: the card named, nothing erased" dry.json \
    "j['dry_run'], j['card']['product'], j['erased']['length']" "True QEMU! 0"
rpi_rc "raw erase 4M+4M exits 0 (a verify warning is not a failure)" erase 0
rpi_check "raw erase: CMD32/CMD33 then CMD38, block addresses" erase.json \
    "j['plan']['method'], j['plan']['command']" "erase CMD32/CMD33 CMD38 ERASE (0x0), block addresses"
rpi_check "raw erase: the range erased, not interrupted" erase.json \
    "j['erased'], j['interrupted']" "{'offset': 4194304, 'length': 4194304} False"
rpi_check "raw erase: verify read every byte back as the card's erased value (0xff), and warns" erase.json \
    "j['verify']['bytes_checked'], j['verify']['found'], j['verify']['result']" "4194304 0xff warning"
rpi_rc "discard 8M+4M exits 0" discard 0
rpi_check "discard: BLKDISCARD of the range, verified" discard.json \
    "j['plan']['method'], j['plan']['command'], j['erased']['offset'], j['erased']['length'], j['verify']['found']" \
    "discard BLKDISCARD 8388608 4194304 0xff"

# The regions: START END (MiB) CARD_MD5 PATTERN_MD5 NOT_FF_BYTES
region() { # region NAME START END same|erased
    line=$(awk -v s="$2" -v e="$3" '$1 == s && $2 == e' "$res/regions")
    [ -n "$line" ] || { fail "$1: no region $2-$3 MiB"; return; }
    set -- "$1" "$4" $line
    case $2 in
    same) [ "$5" = "$6" ] && pass "$1: the pattern unchanged" || fail "$1: changed ($5 vs the pattern's $6)" ;;
    erased) [ "$7" = 0 ] && pass "$1: every byte 0xff, the pattern at its edges gone" ||
        fail "$1: $7 bytes are not 0xff" ;;
    esac
}
region "3-4 MiB, before the erase" 3 4 same
region "4-8 MiB, the raw erase" 4 8 erased
region "8-12 MiB, the discard" 8 12 erased
region "12-13 MiB, after the discard" 12 13 same

finish
