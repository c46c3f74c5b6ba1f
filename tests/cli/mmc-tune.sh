#!/bin/sh
# check: expect 50
# mmc-tune emmc offline, on EXT_CSD dumps of real devices pasted with
# --decode (tests/data/tune/): the configuration, plans with each field's
# index, old and new value, whether it can be undone and its consequence;
# the refusals (unsupported, out of range, unaligned, contradictory,
# one-time without --permanent, partitioning already completed), hostile
# input refused as usage errors, and --save/--from-config with the model
# checked. A pasted EXT_CSD is never written: there is nothing to write to.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
T=build/bin/mmc-tune
D=tests/data/tune
cm4="ext_csd=@$D/emmc51-cm4.hex"
old="ext_csd=@$D/emmc441-kylemanna.hex"
done_="ext_csd=@$D/emmc51-completed.hex"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# --- the configuration ------------------------------------------------------
run 0 $T emmc -J --decode "$cm4" &&
    json_eq "configuration: CACHE_CTRL [33] on, writable, reversible" \
        "[(r['index'], r['raw'], r['writable'], r['reversible']) for r in j['configuration'] if r['field'] == 'CACHE_CTRL']" "[(33, 1, True, True)]"
json_eq "configuration: RST_n_FUNCTION [162] one-time; partitions after power cycle" \
    "[r['undo'] for r in j['configuration'] if r['field'] == 'RST_n_FUNCTION'], [r['after_power_cycle'] for r in j['configuration'] if r['field'] == 'GP_SIZE_MULT_1']" \
    "['one-time'] [True]"
json_eq "configuration: the groups in order" \
    "list(dict.fromkeys(r['group'] for r in j['configuration']))" \
    "['cache', 'background_operations', 'boot', 'reset', 'write_protection', 'partitions', 'reliability', 'power_off_notification', 'sanitize']"
json_eq "JSON names the tool and its version" "j['tool'], j['subcommand'], bool(j['version'])" "mmc-tune emmc True"
run 0 $T emmc --decode "$old" && expect "eMMC 4.41: the cache is not writable, with the reason" "$out" "CACHE_CTRL \[33\]: a cache \(CACHE_CTRL \[33\]\) needs eMMC 4.5"

# --- plans -----------------------------------------------------------------
run 0 $T emmc -n -J --decode "$cm4" --volatile-cache off &&
    json_eq "--volatile-cache off: CACHE_CTRL [33] 1 -> 0, reversible, not applied" \
        "[(c['field'], c['index'], c['old'], c['new'], c['reversible'], bool(c['consequence'])) for c in j['changes']], j['applied']" \
        "[('CACHE_CTRL', 33, 1, 0, True, True)] False"
run 0 $T emmc --decode "$cm4" --boot-partition 1 --boot-ack on &&
    expect "a pasted EXT_CSD: the plan, and nothing written" "$out" "^Pasted EXT_CSD: nothing was written"
expect "text plan: PARTITION_CONFIG [179] 0x0 -> 0x48" "$out" "PARTITION_CONFIG \[179\]: 0x0 -> 0x48 \(reversible\)"
run 1 $T emmc -n -J --decode "$cm4" --rst-n on &&
    json_eq "--rst-n without --permanent: refused, the change shown one-time" \
        "[(c['index'], c['reversible']) for c in j['changes']], [r['setting'] for r in j['refusals']], 'give --permanent' in j['refusals'][0]['reason']" \
        "[(162, False)] ['--rst-n'] True"
expect "a refusal: nothing was written" "$err" "^mmc-tune: the pasted EXT_CSD: 1 setting refused; nothing was written$"
run 0 $T emmc -n -J --decode "$cm4" --rst-n on --permanent &&
    json_eq "--rst-n on --permanent: planned, 'cannot be undone on this device'" \
        "j['refusals'], 'cannot be undone on this device' in j['changes'][0]['consequence'], j['one_time']" "[] True True"
run 0 $T emmc -n -J --decode "$cm4" --gp 1,512M --permanent &&
    json_eq "--gp 1,512M: GP_SIZE_MULT_1 [143] 0 -> 64 groups, completion last, 512 MiB less user area" \
        "[(c['field'], c['new']) for c in j['changes'] if c['field'] == 'GP_SIZE_MULT_1'], j['writes'][-1]['index'], j['user_area_bytes'] - j['user_area_bytes_after'], j['power_cycle']" \
        "[('GP_SIZE_MULT_1', 64)] 155 536870912 True"
json_eq "--gp: the completion says the device must be power-cycled and repartitioned" \
    "[('power-cycled' in c['consequence'] and 'made again' in c['consequence']) for c in j['changes'] if c['index'] == 155]" "[True]"
run 0 $T emmc -n -J --decode "$cm4" --enhanced-area 64M,1G --permanent &&
    json_eq "--enhanced-area 64M,1G: start in sectors, 128 groups, its cost in words" \
        "[(c['field'], c['new']) for c in j['changes'] if c['field'] in ('ENH_START_ADDR', 'ENH_SIZE_MULT')], any('of normal capacity' in c['consequence'] for c in j['changes'])" \
        "[('ENH_START_ADDR', 131072), ('ENH_SIZE_MULT', 128)] True"
run 0 $T emmc -n -J --decode "$cm4" --sanitize &&
    json_eq "--sanitize: SANITIZE_START [165], what it destroys" \
        "[(c['index'], c['reversible']) for c in j['changes']], j['destroys_data'], 'unrecoverable' in j['changes'][0]['consequence']" "[(165, False)] True True"
run 0 $T emmc -n -J --decode "$cm4" --volatile-cache on &&
    json_eq "what is already so: no change, a note" "j['changes'], len(j['notes'])" "[] 1"

# --- a setting already in force: nothing planned, no completion -------------
# Every real dump here but the 4.41's ships with WR_REL_SET 0x1f: asking for
# reliable writes it already makes must not complete its partitioning.
for dump in emmc51-cm4 emmc51-aaru emmc45-rev6; do
    run 0 $T emmc -n --decode "ext_csd=@$D/$dump.hex" --write-reliability user --permanent &&
        expect "$dump: --write-reliability user, already in WR_REL_SET: nothing to change" "$out" "^Nothing to change\.$"
    if grep -qE "PARTITION_SETTING_COMPLETED|ERASE_GROUP_DEF" "$out"; then fail "$dump: a completion planned for a setting in force"; else pass "$dump: no completion planned"; fi
done
run 0 $T emmc -n -J --decode "$cm4" --write-reliability user,gp1,gp2,gp3,gp4 --permanent &&
    json_eq "every part WR_REL_SET already names: no change, no write, a note" "j['changes'], j['writes'], j['one_time'], len(j['notes'])" "[] [] False 1"
run 0 $T emmc -n -J --decode "$old" --write-reliability user --permanent &&
    json_eq "the 4.41 dump (WR_REL_SET 0): reliable write is a change, completed" \
        "[(c['field'], c['old'], c['new']) for c in j['changes'] if c['field'] in ('WR_REL_SET', 'PARTITION_SETTING_COMPLETED')]" \
        "[('WR_REL_SET', 0, 1), ('PARTITION_SETTING_COMPLETED', 0, 1)]"
run 0 $T emmc -n -J --decode "$cm4" --gp 1,64M --write-reliability user --permanent &&
    json_eq "a GP partition with reliable write already in force: only the partition and its completion" \
        "[c['field'] for c in j['changes'] if c['undo'] == 'one-time']" "['GP_SIZE_MULT_1', 'PARTITION_SETTING_COMPLETED']"
run 1 $T emmc -n -J --decode "$cm4" --gp 1,64M &&
    json_eq "a refused plan lists no writes (-J)" "len(j['changes']) > 0, j['writes'], j['refusals'][0]['setting']" "True [] --gp 1"
run 1 $T emmc -n --decode "$cm4" --gp 1,64M && if grep -q "^Writes" "$out"; then fail "a refused plan lists writes (text)"; else pass "a refused plan lists no writes (text)"; fi
run 1 $T emmc -n --decode "$cm4" --gp 1,1T --permanent &&
    if grep -q "enhanced area" "$out"; then fail "--gp 1,1T: its refusal speaks of an enhanced area no one asked for"; else pass "--gp 1,1T: the refusal speaks of the GP partitions only"; fi
run 1 $T emmc -n -J --decode "$cm4" --sanitize --permanent &&
    json_eq "--sanitize --permanent: refused, sanitize is given alone" "j['writes'], 'on its own' in j['refusals'][0]['reason']" "[] True"
run 0 $T emmc -n -J --decode "$cm4" --sanitize &&
    json_eq "--sanitize: an irreversible action, not a one-time setting" "[c['undo'] for c in j['changes']], j['one_time'], j['destroys_data']" "['irreversible action'] False True"

# --- refusals: unsupported, out of range, unaligned, contradictory ---------
refused() { # refused NAME REGEX ARGS...: exit 1, the reason on stdout (text), nothing written
    r_name=$1 r_re=$2; shift 2
    run 1 $T emmc "$@" && expect "$r_name" "$out" "$r_re" &&
        expect "$r_name: nothing written" "$err" "refused; nothing was written$"
}
refused "unaligned: the nearest sizes named" "--gp 1: SIZE 100 MiB is not a multiple of the device's write protect group \(8 MiB.*the nearest are 96 MiB and 104 MiB" \
    --decode "$cm4" --gp 1,100M --permanent
refused "out of range: more than MAX_ENH_SIZE_MULT" "more than the device's maximum 29.12 GiB" --decode "$cm4" --enhanced-area 0,40G --permanent
refused "out of range: past the user area" "ends past the user area" --decode "$cm4" --enhanced-area 60G,8M --permanent
refused "contradictory: boot ack with no boot partition" "no boot partition enabled" --decode "$cm4" --boot-partition none --boot-ack on
refused "contradictory: sanitize with other settings" "sanitize is run on its own" --decode "$cm4" --sanitize --volatile-cache off
refused "contradictory: reliable write of a GP partition not made" "gp3 does not exist" --decode "$old" --write-reliability user,gp3 --permanent
refused "partitioning already completed" "already completed on this device" --decode "$done_" --gp 2,64M --permanent
refused "unsupported on eMMC 4.41: the cache" "needs eMMC 4.5 \(EXT_CSD_REV 6\); this device is eMMC 4.41" --decode "$old" --volatile-cache on

# --- hostile input: usage errors, exit 2 ------------------------------------
usage() { # usage NAME REGEX ARGS...
    u_name=$1 u_re=$2; shift 2
    run 2 $T emmc "$@" && expect "$u_name" "$err" "$u_re"
}
usage "a GP partition number out of range" "--gp 5,1M: expected N,SIZE with N from 1 to 4" --decode "$cm4" --gp 5,1M
usage "a size that is not one" "--gp SIZE" --decode "$cm4" --gp 1,lots
usage "a boot bus width that is none" "--boot-bus 3: expected a width of 1, 4 or 8" --decode "$cm4" --boot-bus 3
usage "a setting given twice" "--gp 1 given twice" --decode "$cm4" --gp 1,8M --gp 1,16M
usage "--permanent alone" "--permanent qualifies one-time settings" --decode "$cm4" --permanent
usage "a short EXT_CSD" "ext_csd" --decode ext_csd=00ff
usage "not hex" "ext_csd" --decode ext_csd=zz
usage "another register" "expected ext_csd=HEX" --decode csd=400e00325b5900001fff7f800a400000
usage "a DEVICE and --decode" "not both" --decode "$cm4" /dev/mmcblk0

# --- an old kernel's byte-reversed dump -------------------------------------
run 0 $T emmc -J --decode "ext_csd=@tests/data/ext_csd/reversed-emmc441-kylemanna.hex" &&
    json_eq "a byte-reversed dump is read reversed, said so" "any('byte-reversed' in n for n in j['notes']), [r['raw'] for r in j['configuration'] if r['field'] == 'PARTITION_CONFIG']" "True [0]"

# --- --save and --from-config -----------------------------------------------
run 0 $T emmc --decode "$done_" --save "$tmp/model.json" && expect "--save: said where" "$out" "^Saved to $tmp/model.json$"
cp "$tmp/model.json" "$out"
json_eq "--save: the model and the completed partitions" "j['model']['ext_csd_rev'], j['settings']['gp'], j['settings']['enhanced_area']" \
    "8 ['1,536870912'] 0,1073741824"
run 0 $T emmc -n -J --decode "$done_" --from-config "$tmp/model.json" &&
    json_eq "--from-config on the device it came from: nothing to change" "j['changes'], j['refusals']" "[] []"
run 0 $T emmc -n -J --decode "$cm4" --from-config "$tmp/model.json" --permanent &&
    json_eq "--from-config on a fresh device of the model: its partitioning planned" \
        "[c['field'] for c in j['changes'] if c['field'] in ('GP_SIZE_MULT_1', 'ENH_SIZE_MULT', 'PARTITION_SETTING_COMPLETED')]" \
        "['ENH_SIZE_MULT', 'GP_SIZE_MULT_1', 'PARTITION_SETTING_COMPLETED']"
usage "--from-config of another model" "not the same model" -n --decode "$old" --from-config "$tmp/model.json"
echo '{"kind": "mmc-tune emmc configuration", "model": {"ext_csd_rev": 8, "sec_count": 1}, "settings": {"ffu": "now"}}' > "$tmp/ffu.json"
usage "--from-config: an unknown setting" "unknown setting \"ffu\"" -n --decode "$cm4" --from-config "$tmp/ffu.json"
echo 'not json' > "$tmp/bad.json"
usage "--from-config: not JSON" "." -n --decode "$cm4" --from-config "$tmp/bad.json"
usage "settings and --from-config" "not both" -n --decode "$cm4" --from-config "$tmp/model.json" --volatile-cache on

finish
