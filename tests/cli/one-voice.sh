#!/bin/sh
# check: expect 5
# The tools speak with one voice (README, "One command-line language"): a
# file named on the command line that is missing is exit 1 in every tool and
# for every option that reads one, its message naming the file; with -J the
# same error is a JSON document on stdout; a file whose contents are no card
# is a usage error that names the option and shows no library's marks; a
# single-valued option given twice is refused, naming it. (Each tool's
# options, -J and the exit-status table: conventions.sh.)
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
bin=build/bin
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT
gone=$work/missing

# missing NAME CMD...: CMD exits 1 naming $gone, and with -J (put after the
# tool and its subcommand by the caller) prints the error as JSON.
missing() {
    m_name=$1; shift
    run 1 "$@" && expect "$m_name: a missing file is a failure naming it" "$err" "^[a-z-]+: .*$gone: No such file or directory"
}
missing_json() {
    m_name=$1; shift
    run 1 "$@" &&
        json_eq "$m_name -J: the error as JSON, exit_status 1" \
            "j['tool'] != '' and 'version' in j, j['error']['exit_status'], '$gone' in j['error']['message']" "True 1 True"
}

missing "mmc-info --decode csd=@FILE" $bin/mmc-info --decode "csd=@$gone"
missing_json "mmc-info --decode csd=@FILE" $bin/mmc-info -J --decode "csd=@$gone"
missing "mmc-health --decode ext_csd=@FILE" $bin/mmc-health --decode "ext_csd=@$gone"
missing "mmc-health --from" $bin/mmc-health --from "$gone"
missing_json "mmc-health --from" $bin/mmc-health -J --from "$gone"
missing "mmc-tune emmc --decode ext_csd=@FILE" $bin/mmc-tune emmc -n --decode "ext_csd=@$gone" --bkops auto
missing_json "mmc-tune emmc --decode ext_csd=@FILE" $bin/mmc-tune emmc -n -J --decode "ext_csd=@$gone" --bkops auto
missing "mmc-sim --card-file" $bin/mmc-sim --card-file "$gone" --describe
missing_json "mmc-sim --card-file" $bin/mmc-sim -J --card-file "$gone" --describe
missing "mmc-bus --ios" $bin/mmc-bus --ios "$gone"
missing_json "mmc-bus --ios" $bin/mmc-bus -J --ios "$gone"
missing "mmc-format --check IMAGE" $bin/mmc-format --check "$gone"
missing_json "mmc-format --check IMAGE" $bin/mmc-format --check -J "$gone"
missing "mmc-format --check --fdisk-text" $bin/mmc-format --check --fdisk-text "$gone"
missing "mmc-probe geometry --from-flashbench" $bin/mmc-probe geometry --from-flashbench "$gone"
missing "mmc-report FILE" $bin/mmc-report "$gone"
run 1 $bin/mmc-format --check "$gone"
if grep -q "no such device" "$err"; then fail "mmc-format: a missing image called 'no such device'"; else pass "mmc-format: a missing image is a missing file, not a device"; fi

# An error on --check -J (an empty image) is JSON too.
: >"$work/empty.img"
run 1 $bin/mmc-format --check -J "$work/empty.img" &&
    json_eq "mmc-format --check -J on an empty image: a JSON error" "j['tool'], j['error']['exit_status'], 'empty' in j['error']['message']" "mmc-format 1 True"

# A card file that is not JSON: a usage error naming the option, in our words.
echo garbage >"$work/garbage.json"
run 2 $bin/mmc-sim --card-file "$work/garbage.json" --describe &&
    expect "mmc-sim --card-file garbage: names the option" "$err" "^mmc-sim: --card-file $work/garbage.json: .*not JSON"
if grep -q "json.exception" "$err"; then fail "mmc-sim --card-file garbage: the JSON library's marks reach the user"; else pass "mmc-sim --card-file garbage: no library marks"; fi

# A single-valued option given twice: refused, naming it; one that gathers is not.
run 2 $bin/mmc-health --from A --from B && expect "mmc-health --from twice: refused, named" "$err" "^mmc-health: --from: given more than once"
run 2 $bin/mmc-health -J --from A --from B &&
    json_eq "... and with -J, as JSON" "j['error']['exit_status'], j['error']['message']" "2 --from: given more than once ('A' and 'B'); give one"
run 2 $bin/mmc-erase -o 1M --offset 2M /dev/null && expect "a short and a long spelling of one option count as one" "$err" "^mmc-erase: --offset \(-o\): given more than once"
run 2 $bin/mmc-tune emmc -nJ --bkops auto --bkops off --decode ext_csd=00 &&
    json_eq "-J inside a cluster of short options still asks for JSON" "j['error']['exit_status']" "2"
run 2 $bin/mmc-tune emmc -n --bkops auto --bkops off --decode ext_csd=00 && expect "mmc-tune emmc --bkops twice" "$err" "--bkops: given more than once"
run 0 $bin/mmc-info -J --decode "csd=400e00325b5900003b377f800a404000" --decode "cid=035344534c3136478030c1e5d101157f" &&
    json_eq "--decode gathers: two registers" "sorted(j['registers'])" "['cid', 'csd']"

finish
