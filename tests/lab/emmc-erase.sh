#!/bin/sh
# check: expect 150
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-erase on the emulated eMMC of the eMMC lab (EXT_CSD_REV 5,
# HC_ERASE_GRP_SIZE 512 KiB, SEC_FEATURE_SUPPORT 0, ERASED_MEM_CONT 0, reads
# 0xff after an erase), on two cards: the shared boot's 4 GiB card (block
# addresses, see tests/lab/emmc-lib.sh) and a 64 MiB card (byte addresses)
# booted here, both with boot partitions. Raw CMD35/CMD36/CMD38 ERASE of
# aligned and unaligned ranges: inside reads 0xff (a warning stating
# ERASED_MEM_CONT, not a failure), every byte outside and both boot areas
# unchanged, the page cache dropped; trim, secure erase/trim, BLKSECDISCARD,
# sanitize (and DISCARD, SD methods) refused by the registers with the data
# untouched, because the emulator erases for any CMD38 argument; an erase past
# 2 GiB; on the small card a whole-device BLKDISCARD, every byte read back.
# The small card has a boot of its own (a whole-device erase of 4 GiB takes
# QEMU minutes), cached like the shared one.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

emmc_lab emmc-erase || { finish; exit 1; }
big=$res

# The 64 MiB card: the same guest script in a boot of its own, its results
# kept apart in build/lab/emmc-erase-64M; LAB_FRESH=1 boots again.
small=""
if lab_boot "eMMC lab (64 MiB card)" build/lab/emmc-erase-64M "--card emmc --boot-partitions --size 64M --timeout 600" \
        "$(emmc_lab_inputs)" tests/lab/guest/emmc-erase.sh; then
    small=$lab_run/emmc-erase
fi

MiB=1048576
# The helpers take the results directory in $d and a name prefix in $p.
rc() { # rc NAME FILE EXPECTED
    if [ "$(cat "$d/$2.rc" 2>/dev/null)" = "$3" ]; then pass "$p: $1"; else
        fail "$p: $1: exit $(cat "$d/$2.rc" 2>/dev/null), expected $3"; sed 's/^/    stderr: /' "$d/$2.err" 2>/dev/null | head -3
    fi
}
check() { # check NAME FILE PYEXPR EXPECTED
    got=$($PY -c "import json,sys; j=json.load(open(sys.argv[1])); print($3)" "$d/$2" 2>&1 | tail -n1)
    if [ "$got" = "$4" ]; then pass "$p: $1"; else fail "$p: $1: got '$got', expected '$4'"; fi
}
same_file() { # same_file NAME FILE1 FILE2: both exist, not empty, equal
    if [ -s "$d/$2" ] && cmp -s "$d/$2" "$d/$3"; then pass "$p: $1"; else
        fail "$p: $1: $2 '$(cat "$d/$2" 2>/dev/null)', $3 '$(cat "$d/$3" 2>/dev/null)'"
    fi
}
# data NAME SET BASE TOTAL REGION...: the guest's region lines of SET, each
# REGION START:END:erased|same (bytes from BASE), in order without gaps,
# together TOTAL bytes. erased: every byte 0xff; same: the pattern's bytes, unchanged.
data() {
    name=$1 set=$2 base=$3 total=$4; shift 4
    if msg=$($PY - "$d/regions" "$set" "$base" "$total" "$@" <<'PY'
import sys
path, want_set, base, total = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = {}
for line in open(path):
    f = line.split()
    if len(f) == 6 and f[0] == want_set:
        lines[(int(f[1]), int(f[2]))] = (f[3], f[4], int(f[5]))
bad, erased, same, covered, at = [], 0, 0, 0, None
for region in sys.argv[5:]:
    start, end, want = region.split(":")
    start, end = int(start), int(end)
    if at is not None and start != at:
        bad.append(f"regions leave a gap at {base + at}")
    at = end
    covered += end - start
    got = lines.get((start, end))
    where = f"[{base + start}, {base + end})"
    if got is None:
        bad.append(f"no read back of {where}")
        continue
    card, pattern, not_ff = got
    if want == "erased":
        if not_ff:
            bad.append(f"{not_ff} of {end - start} bytes in {where} are not 0xff"
                       + (" (the pattern is still there)" if card == pattern else ""))
        else:
            erased += end - start
    elif card != pattern:
        bad.append(f"{where} changed ({not_ff} of {end - start} bytes are not 0xff)")
    else:
        same += end - start
if covered != total:
    bad.append(f"regions cover {covered} of {total} bytes")
print("; ".join(bad) if bad else f"{erased} bytes read 0xff, {same} bytes of the pattern unchanged")
sys.exit(1 if bad else 0)
PY
    ); then pass "$p: $name ($msg)"; else fail "$p: $name: $msg"; fi
}

# The checks both cards share. $d results, $p prefix, $addr block|byte.
common() {
    size=$(cat "$d/size" 2>/dev/null)
    rc "busybox dd wrote the pattern" fill 0
    same_file "the first 16 MiB hold the pattern before any erase" before.md5 pat.md5
    for b in 0 1; do
        same_file "boot$b holds its own pattern before any erase" boot$b.before boot$b.want
    done

    # What auto would do: the card's own ERASE in 512 KiB erase groups.
    rc "dry run exits 0" dry 0
    check "dry run: auto picks CMD35/CMD36/CMD38 ERASE, $addr addresses, nothing erased" dry.json \
        "j['dry_run'], j['plan']['method'], j['plan']['command'], j['erased']['length']" \
        "True erase CMD35/CMD36 CMD38 ERASE (0x0), $addr addresses 0"
    check "dry run: erase unit 512 KiB from EXT_CSD HC_ERASE_GRP_SIZE" dry.json \
        "j['plan']['erase_unit'], j['plan']['erase_unit_source']" "524288 EXT_CSD HC_ERASE_GRP_SIZE"

    # Raw ERASE of 4M+4M.
    rc "erase 4M+4M exits 0 (a verify warning is not a failure)" erase 0
    check "erase: the eMMC identified (QEMU!!, RCA 0x0001)" erase.json \
        "j['card']['name'], j['card']['type'], j['card']['product'], j['card']['serial'], j['target']['size_bytes']" \
        "mmc0:0001 MMC QEMU!! 0xdeadbeef $size"
    check "erase: method erase, CMD35/CMD36 CMD38 ERASE (0x0), $addr addresses" erase.json \
        "j['plan']['method'], j['plan']['method_reason'], j['plan']['command']" \
        "erase requested CMD35/CMD36 CMD38 ERASE (0x0), $addr addresses"
    check "erase: the range asked for is the range erased, nothing left over" erase.json \
        "j['plan']['offset'], j['plan']['length'], j['plan']['aligned_offset'], j['plan']['aligned_length'], j['erased'], j['interrupted'], j['error']" \
        "4194304 4194304 4194304 4194304 {'offset': 4194304, 'length': 4194304} False None"
    check "erase: the timed chunks are the range, in order, within the chunk size" erase.json \
        "len(j['chunks']) == j['plan']['chunks'] == j['summary']['chunks'] and all(c['offset'] == 4194304 + sum(x['length'] for x in j['chunks'][:i]) and 0 < c['length'] <= j['plan']['chunk_bytes'] and c['seconds'] > 0 for i, c in enumerate(j['chunks'])) and sum(c['length'] for c in j['chunks'])" \
        "4194304"
    check "erase: ERASED_MEM_CONT says 0x00, the card reads 0xff: verify warns" erase.json \
        "j['verify']['mode'], j['verify']['result'], j['verify']['expected'], j['verify']['found']" \
        "sampled warning 0x00 (EXT_CSD ERASED_MEM_CONT) 0xff"
    check "erase: the warning states both facts" erase.json \
        "any('read 0xff, where 0x00 was expected (EXT_CSD ERASED_MEM_CONT)' in w for w in j['warnings'])" "True"

    # The first erase group of the user area, next to the boot areas.
    rc "erase of the first 512 KiB exits 0" first 0
    check "first group: erased [0, 512K), every byte read (full): 0xff, a warning" first.json \
        "j['erased'], j['verify']['mode'], j['verify']['bytes_checked'], j['verify']['result'], j['verify']['found']" \
        "{'offset': 0, 'length': 524288} full 524288 warning 0xff"

    # Unaligned: only the whole erase groups inside.
    rc "unaligned erase (9M+100K for 2M, by card name) exits 0" unaligned 0
    check "unaligned: whole groups 9.5M-11M erased, head and tail left alone" unaligned.json \
        "j['plan']['offset'], j['plan']['length'], j['plan']['aligned_offset'], j['plan']['aligned_length'], j['plan']['head'], j['plan']['tail']" \
        "9539584 2097152 9961472 1572864 {'offset': 9539584, 'length': 421888, 'action': 'left_alone'} {'offset': 11534336, 'length': 102400, 'action': 'left_alone'}"
    check "unaligned: erased range reported, full verify warns about 0xff" unaligned.json \
        "j['erased'], j['verify']['mode'], j['verify']['bytes_checked'], j['verify']['result'], j['verify']['found']" \
        "{'offset': 9961472, 'length': 1572864} full 1572864 warning 0xff"
    check "unaligned: warnings name the head and tail left alone" unaligned.json \
        "[w.split(' lie ')[0] for w in j['warnings'] if 'left alone' in w]" \
        "['the first 421888 bytes at offset 9539584', 'the last 102400 bytes at offset 11534336']"

    # Ruled out by SEC_FEATURE_SUPPORT 0x00 and EXT_CSD_REV 5, before any command.
    sec="EXT_CSD SEC_FEATURE_SUPPORT is 0x00: "
    refused trim "${sec}SEC_GB_CL_EN \(bit 4\) is clear, so the device does not support TRIM"
    refused secure-erase "${sec}SECURE_ER_EN \(bit 0\) is clear, so the device does not support secure erase"
    refused secure-trim "${sec}secure trim needs SECURE_ER_EN \(bit 0\) and SEC_GB_CL_EN \(bit 4\)"
    refused secure "${sec}SECURE_ER_EN \(bit 0\) is clear, so the device has no secure erase or secure trim for BLKSECDISCARD"
    refused sanitize "${sec}SEC_SANITIZE \(bit 6\) is clear, so the device does not support sanitize"
    refused emmc-discard "EXT_CSD_REV is 5: DISCARD needs eMMC 4.5 \(EXT_CSD_REV 6\) or later"
    refused sd-discard "sd-discard is an SD method and mmcblk0 is an eMMC"
    refused fule "fule is an SD method and mmcblk0 is an eMMC"

    # The read back of the first 16 MiB, through the page cache.
    data "the refused methods' target 12M+1M is unchanged" near 0 $MiB 12582912:13631488:same
    data "first 16 MiB: the erased ranges read 0xff, every byte outside is unchanged" near 0 $((16 * MiB)) \
        0:524288:erased 524288:4194304:same 4194304:8388608:erased 8388608:9961472:same \
        9961472:11534336:erased 11534336:12582912:same 12582912:13631488:same 13631488:16777216:same
    same_file "the page cache holds what the card holds (dropped after the raw commands)" cached.md5 direct.md5
}
refused() { # refused METHOD REGEX
    rc "--method $1 refused (exit 1)" "refuse-$1" 1
    expect "$p: --method $1: the reason is the register" "$d/refuse-$1.err" "method $1 refused: $2"
    # -J on a failure prints the toolkit's error object and nothing else:
    # no plan, no erase (nothing touched).
    if $PY -c "import json,sys; j=json.load(open(sys.argv[1])); assert set(j) == {'tool','version','error'} and j['error']['exit_status'] == 1, j" \
        "$d/refuse-$1.json" >/dev/null 2>&1; then pass "$p: --method $1: only the JSON error object (nothing touched)"; else
        fail "$p: --method $1: a refusal printed more than the JSON error object"; head -c 300 "$d/refuse-$1.json" 2>/dev/null | sed 's/^/    | /'
    fi
}
boot_left_alone() { # boot_left_alone WHAT
    for b in 0 1; do
        same_file "boot$b unchanged by $1" boot$b.after boot$b.want
        if [ "$(cat "$d/boot$b.force_ro" 2>/dev/null)" = 1 ]; then pass "$p: boot$b read-only again (force_ro 1)"; else
            fail "$p: boot$b force_ro is '$(cat "$d/boot$b.force_ro" 2>/dev/null)', expected 1"
        fi
    done
}

# --- the shared boot's 4 GiB card: block addresses --------------------------
d=$big p="4 GiB" addr=block
echo "  the 4 GiB card (block addresses), from the shared boot:"
common
boot_left_alone "the user-area erases"
# Past 2 GiB: block addresses above 4194304, reads at offsets above 2^31.
same_file "2 MiB at 3 GiB hold the pattern before the erase" far-before.md5 far-pat.md5
data "3G+512K for 1M read 0xff, the MiB around it is unchanged" far $((3072 * MiB)) $((2 * MiB)) \
    0:524288:same 524288:1572864:erased 1572864:2097152:same
check "past 2 GiB: the range erased is reported" far.json "j['erased'], j['error']" \
    "{'offset': 3221749760, 'length': 1048576} None"
rc "past 2 GiB: erase with --verify exits 0" far 0
check "past 2 GiB: verify reads the range back (a warning about 0xff)" far.json \
    "j['verify']['result'], j['verify']['found'], j['verify']['bytes_checked'], j['verify']['details'][-1]" \
    "warning 0xff 1048576 erased range: 1048576 of 1048576 bytes checked read 0xff, where 0x00 was expected (EXT_CSD ERASED_MEM_CONT); the card does not behave as its register claims"

# --- the 64 MiB card: byte addresses, and a whole-device discard ------------
if [ -n "$small" ]; then
    d=$small p="64 MiB" addr=byte
    echo "  the 64 MiB card (byte addresses), from a boot of its own:"
    common
    rc "whole-device discard --yes exits 0" discard 0
    check "discard: BLKDISCARD; the kernel sends ERASE (no DISCARD before EXT_CSD_REV 6, no TRIM)" discard.json \
        "j['plan']['method'], j['plan']['command'], j['plan']['expected_basis']" \
        "discard BLKDISCARD BLKDISCARD: the kernel sends ERASE; EXT_CSD ERASED_MEM_CONT"
    check "discard: the whole user area erased, in every planned chunk" discard.json \
        "j['plan']['offset'], j['plan']['length'], j['erased'], j['summary']['chunks'] == j['plan']['chunks'] == len(j['chunks']), j['interrupted'], j['error']" \
        "0 $size {'offset': 0, 'length': $size} True False None"
    check "discard: verify warns that the card reads 0xff" discard.json \
        "j['verify']['result'], j['verify']['found'], any('read 0xff, where 0x00 was expected' in w for w in j['warnings'])" \
        "warning 0xff True"
    data "after the discard the first 16 MiB read 0xff" whole 0 $((16 * MiB)) 0:16777216:erased
    if [ "$(cat "$d/whole-read" 2>/dev/null)" = "$size" ] && [ "$(cat "$d/whole-not-ff" 2>/dev/null)" = 0 ]; then
        pass "$p: after the discard every byte of the user area reads 0xff ($size bytes read)"
    else
        fail "$p: after the discard $(cat "$d/whole-not-ff" 2>/dev/null) of $(cat "$d/whole-read" 2>/dev/null) bytes read are not 0xff (user area $size bytes)"
    fi
    boot_left_alone "the erases and the whole-device discard"
fi

finish
