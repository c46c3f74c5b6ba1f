#!/bin/sh
# mmc-info --decode from the command line: a worked example,
# input variants, JSON shape, and every malformed-input error (exit 2).
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
info=build/bin/mmc-info

run 0 $info --decode csd=400e00325b5900001fff7f800a400000 --json &&
    json_eq "CSD v2.0 of 4 GiB" "j['registers']['csd']['decoded']['capacity_bytes'], j['registers']['csd']['decoded']['csd_version']" "4294967296 2.0"
json_eq "JSON names tool and version" "j['tool'], bool(j['version'])" "mmc-info True"
json_eq "register carries hex, source, fields" "j['registers']['csd']['source'], j['registers']['csd']['fields']['c_size'], j['registers']['csd']['hex']" "input 8191 400e00325b5900001fff7f800a400000"

run 0 $info --decode "csd=0x40:0e:00:32:5B:59:00:00:1F:FF:7F:80:0A:40:00:00" && expect "colons, 0x and upper case accepted" "$out" "4 GiB"

tmp=$(mktemp); printf '400e0032 5b590000\n1fff7f80 0a400000\n' >"$tmp"
run 0 $info --decode "csd=@$tmp" && expect "@FILE with spaces and newlines" "$out" "4 GiB"
rm -f "$tmp"

run 0 $info -v --decode csd=400e00325b5900001fff7f800a400000 && expect "-v lists bit ranges" "$out" '\[69:48\] +C_SIZE +8191'

run 2 $info --decode csd=400e00325b5900001fff7f800a4000 && expect "short CSD: register, expected and given lengths" "$err" "csd: expected 16 bytes \(32 hex digits\), got 30 hex digits"
run 2 $info --decode scr=02c58003zz000000 && expect "non-hex names the character" "$err" "scr: 'z' at position 9 is not a hex digit"
run 2 $info --decode ssr= && expect "empty value" "$err" "ssr: empty value"
run 2 $info --decode foo=00 && expect "unknown register" "$err" "unknown register 'foo'"
run 2 $info --decode csd && expect "missing =" "$err" "expected KIND=HEX"
run 1 $info --decode csd=@/nonexistent/file && expect "unreadable @FILE: a failure, as every missing input file" "$err" "/nonexistent/file: No such file"
run 1 $info --decode ext_csd=@/dev/zero && expect "@FILE is capped (a failure, as every input file): /dev/zero fails at once" "$err" "/dev/zero: more than 1 MiB; no register dump is that large"
# An EXT_CSD printed by a pre-2013 kernel (ext_csd[511] first): a real dump.
rev=tests/data/ext_csd/reversed-emmc441-kylemanna.hex
run 0 $info --family mmc -J --decode ext_csd=@$rev &&
    json_eq "reversed EXT_CSD recognised: rev 5, 7503872 sectors" "j['registers']['ext_csd']['fields']['ext_csd_rev'], j['registers']['ext_csd']['fields']['sec_count']" "5 7503872"
json_eq "and a warning says it was decoded reversed" "'bytes look reversed' in j['registers']['ext_csd']['warnings'][0]" "True"
run 0 $info --family mmc -J --byte-order normal --decode ext_csd=@$rev &&
    json_eq "--byte-order normal decodes it as given" "j['registers']['ext_csd']['fields']['ext_csd_rev']" "0"
run 2 $info --byte-order big --decode csd=00 && expect "bad --byte-order" "$err" "--byte-order big: expected normal, reversed or auto"
run 2 $info --family xd --decode csd=00 && expect "bad --family" "$err" "--family xd: expected sd or mmc"

# Pasted registers say which family they are where they can:
# a Samsung eMMC's CSD (CSD_STRUCTURE 3) and CID (CBX in byte 1)
# decode as MMC without --family, exactly as with --family mmc, and say why.
emmc_csd=d02701320f5903fff6dbffef8e404000
emmc_cid=1501004d384731474303dc0db061506f
for reg in csd=$emmc_csd cid=$emmc_cid; do
    kind=${reg%%=*}
    run 0 $info -J --family mmc --decode "$reg" && cp "$out" "$tmp.mmc.json"
    run 0 $info -J --decode "$reg" &&
        json_eq "eMMC $kind without --family: decoded as MMC, as with --family mmc" \
            "j['family'], j['registers'] == json.load(open('$tmp.mmc.json'))['registers'], j['warnings'] == json.load(open('$tmp.mmc.json'))['warnings']" \
            "mmc True True"
    run 0 $info --decode "$reg" &&
        expect "eMMC $kind text: the family, why, and the option for the other reading" "$out" \
            "^Family: +MMC \(from the registers: .*; --family sd reads them as SD\)$"
    if grep -q "reserved for SD\|made 2021-00" "$out"; then fail "eMMC $kind: no SD reading's warning or date"; else pass "eMMC $kind: no SD reading's warning or date"; fi
done
rm -f "$tmp.mmc.json"
run 0 $info -J --decode csd=$emmc_csd && json_eq "the CSD's reason is CSD_STRUCTURE 3" "j['family_basis']" \
    "from the registers: CSD_STRUCTURE 3 is MMC-only (reserved on SD); --family sd reads them as SD"
run 0 $info --decode csd=400e00325b5900001fff7f800a400000 && expect "an SDHC CSD: SD, from the register" "$out" \
    "^Family: +SD \(from the registers: CSD_STRUCTURE 1 .*; --family mmc reads them as MMC\)$"
# An SD CSD 1.0 looks like an MMC 1.x CSD; an OCR can be either: assumed SD, and said so.
run 0 $info --decode csd=00260032575981e9f6da7f800a40008f --decode ocr=80ff8000 &&
    expect "cannot tell: SD assumed, --family mmc named" "$out" "^Family: +SD \(assumed: the registers given do not say; --family mmc reads them as MMC\)$"
run 0 $info --decode cid=035344534e3531328053e8f3b1015500 --decode csd=$emmc_csd &&
    expect "registers that disagree: SD assumed, both reasons and --family mmc" "$out" "^Family: +SD \(assumed: the registers disagree: .*OID.*CSD_STRUCTURE 3.*; --family mmc reads them as MMC\)$"
run 0 $info --family sd --decode csd=$emmc_csd && expect "--family is obeyed and named" "$out" "^Family: +SD \(given: --family sd\)$"
# --card was the family here, a card file in mmc-sim, a filter in mmc-report
# before --family: the old spelling still works, with one warning line.
run 0 $info --card mmc --decode csd=$emmc_csd && expect "deprecated --card: still the family" "$out" "^Family: +MMC \(given: --family mmc\)$"
want_err="mmc-info: --card is deprecated: use --family"
[ "$(cat "$err")" = "$want_err" ] && pass "deprecated --card: one warning line" || fail "deprecated --card: stderr '$(cat "$err")'"
run 2 $info --card mmc --card mmc --decode csd=$emmc_csd && expect "deprecated --card twice: a repeated option" "$err" "^mmc-info: --card: given more than once"
run 1 $info --sysfs-root /nonexistent && expect "a --sysfs-root that does not exist is an error, not 'no cards'" "$err" "mmc-info: /nonexistent: no such directory"
empty=$(mktemp -d)
run 0 $info --sysfs-root "$empty" && expect "no arguments lists cards (none in an empty tree)" "$out" "No MMC/SD cards found"
rmdir "$empty"
# A card whose sysfs name is not UTF-8 and carries terminal escapes.
bad=tests/data/sysfs/sd-badname/sys
run 0 $info --sysfs-root $bad -J && json_eq "non-UTF-8 sysfs name: -J list is valid JSON, byte replaced" "ascii(j['cards'][0]['card']['product'])" "'QE\ufffd\x1b]0;pwned\x07'"
expect "non-UTF-8 sysfs name: warning names the place" "$err" "mmc-info: warning: invalid UTF-8 in /cards/0/card/product replaced by U\+FFFD"
run 0 $info --sysfs-root $bad mmcblk0 -J && json_eq "non-UTF-8 sysfs name: -J device view is valid JSON" "j['card']['name']" "mmc0:4567"
run 0 $info --sysfs-root $bad && expect "text view escapes control and invalid bytes" "$out" 'QE\\xff\\x1b\]0;pwned\\x07'
if grep -q "$(printf '\033')" "$out"; then fail "no raw ESC from the card reaches the terminal"; else pass "no raw ESC from the card reaches the terminal"; fi
# Not a device: "not a block device", not "not on an MMC host".
not_devices mmc-info "" $info
# A device on another bus is named for what it is, with the path as typed.
run 1 $info --sysfs-root tests/data/sysfs/usb-reader/sys /dev/sda &&
    expect "a USB disk: not an MMC/SD device, said why" "$err" "^mmc-info: /dev/sda: not an MMC/SD device: sda is on USB"

run 2 $info --bogus && expect "unknown option" "$err" "unknown option '--bogus'"
run 0 $info --help && expect "--help lists --decode" "$out" "--decode KIND=HEX"
run 0 $info --version && expect "--version" "$out" "mmc-info from mmckit [0-9]"

finish
