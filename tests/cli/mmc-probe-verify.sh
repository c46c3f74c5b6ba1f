#!/bin/sh
# check: expect 40
# mmc-probe verify: options; then, as root with loop and FUSE, through the
# real chain (mmc-sim: nbdkit, nbdfuse, loop): a genuine card passes, a
# wraparound fake is named where its storage ends, a worn card's read
# errors are found; on a mounted ext4 (and FAT) on a simulated card the
# user's files stay byte-identical and ours are gone, after Ctrl-C too.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
probe=build/bin/mmc-probe
sim=build/bin/mmc-sim
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# --- Options (no device) ---
run 0 $probe verify --help && expect "--help shows both forms" "$out" "verify \[options\] --file-system DIR"
run 0 $probe verify --help && expect "--help lists the exit statuses" "$out" "0 ok, 10 fake, 14 lost writes, 15 corrupt, 16 read errors"
run 0 $probe --help && expect "mmc-probe --help names verify" "$out" "verify"
run 2 $probe verify && expect "no DEVICE" "$err" "no DEVICE given"
run 2 $probe verify --file-system /tmp /dev/null && expect "a directory or a device, not both" "$err" "unexpected argument '/dev/null'"
run 1 $probe verify --file-system /nonexistent && expect "a missing directory" "$err" "/nonexistent"
run 0 $probe verify --dry-run -J --file-system "$work" && json_eq "--dry-run on a directory: the plan, nothing written" \
    "j['command'], j['mode'], j['dry_run'], j['size'] > 0" "verify file_system True True"
[ -z "$(ls "$work")" ] && pass "--dry-run left no file" || fail "--dry-run left files: $(ls "$work")"
not_devices "mmc-probe verify -n --any-device" "" $probe verify -n --any-device

need_sim_chain

# on_device NAME CARD-OPTIONS: verify --yes -J on a simulated card.
on_device() {
    name=$1; shift
    # shellcheck disable=SC2086
    $sim $fast "$@" -- sh -c "$probe verify --yes --any-device -J \"\$MMC_SIM_DEV\" >$work/$name.json 2>$work/$name.err; echo \$? >$work/$name.rc" \
        >"$work/$name.simout" 2>"$work/$name.simerr"
    cp "$work/$name.json" "$out" 2>/dev/null || : >"$out" # no stale document checked
}

on_device genuine --capacity 128M --au 4M
[ "$(cat "$work/genuine.rc")" = 0 ] && pass "a genuine card: exit 0" || fail "a genuine card: exit $(cat "$work/genuine.rc"): $(cat "$work/genuine.err")"
json_eq "a genuine card: ok, every byte written and verified" \
    "j['verdict'], j['first_bad_offset'], j['real_capacity'], j['bytes_written'], j['bytes_verified']" "ok None 134217728 134217728 134217728"

on_device wrap --capacity 256M --au 4M --fake wraparound --real-size 64M
[ "$(cat "$work/wrap.rc")" = 10 ] && pass "a wraparound fake: exit 10" || fail "a wraparound fake: exit $(cat "$work/wrap.rc"): $(cat "$work/wrap.err")"
json_eq "a wraparound fake: named where its storage ends" \
    "j['verdict'], j['first_bad_offset'], j['first_bad_kind'], j['first_bad_holds'], j['real_capacity']" "fake 67108864 aliasing 0 67108864"

on_device limbo --capacity 128M --au 4M --fake limbo --real-size 40M
json_eq "a limbo fake: named where its storage ends" "j['verdict'], j['first_bad_offset'], j['first_bad_kind']" "fake 41943040 lost"

on_device weak --capacity 64M --au 4M --weak 20M,16k,9
[ "$(cat "$work/weak.rc")" = 16 ] && pass "an unreadable page: exit 16" || fail "an unreadable page: exit $(cat "$work/weak.rc"): $(cat "$work/weak.err")"
json_eq "an unreadable page: a read error at its offset" "j['verdict'], j['first_bad_offset'], j['first_bad_kind'], j['bad_bytes']['read_error']" \
    "read_errors 20971520 read_error 16384"

# --- On a mounted file system ---
# fs_case NAME MKFS: a file system on a simulated card with files of the
# user's, verify --file-system, then the files' sums and what is left.
cat >"$work/fs.sh" <<'SH'
set -e
d=$MMC_SIM_DEV w=$1 mkfs=$2 name=$3
$mkfs "$d" >/dev/null 2>&1
mkdir -p "$w/mnt"
mount "$d" "$w/mnt"
trap 'umount "$w/mnt"' EXIT
head -c 3000000 /dev/urandom >"$w/mnt/photo.jpg"
mkdir "$w/mnt/docs"; echo "notes" >"$w/mnt/docs/notes.txt"
(cd "$w/mnt" && find . -type f | sort | xargs sha256sum) >"$w/$name.before"
set +e
$PROBE verify --file-system "$w/mnt" -J >"$w/$name.json" 2>"$w/$name.err"; echo $? >"$w/$name.rc"
(cd "$w/mnt" && find . -type f | sort | xargs sha256sum) >"$w/$name.after"
ls -A "$w/mnt" >"$w/$name.ls"
SH
fs_case() {
    name=$1 mkfs=$2
    PROBE=$probe $sim $fast --capacity 96M --au 4M -- sh "$work/fs.sh" "$work" "$mkfs" "$name" >"$work/$name.simout" 2>"$work/$name.simerr"
    [ "$(cat "$work/$name.rc" 2>/dev/null)" = 0 ] && pass "$name: verify on the mounted file system: exit 0" ||
        fail "$name: exit $(cat "$work/$name.rc" 2>/dev/null): $(cat "$work/$name.err" "$work/$name.simerr" 2>/dev/null | head -3)"
    cp "$work/$name.json" "$out" 2>/dev/null || : >"$out"
    json_eq "$name: ok, the free space filled and verified" "j['verdict'], j['mode'], j['bytes_verified'] == j['bytes_written'] > 32 * 2**20" "ok file_system True"
    cmp -s "$work/$name.before" "$work/$name.after" && [ -s "$work/$name.before" ] && pass "$name: the user's files are byte-identical" ||
        fail "$name: the user's files changed"
    grep -q mmc-probe-verify "$work/$name.ls" && fail "$name: our files are left: $(cat "$work/$name.ls")" || pass "$name: our files are removed"
}
export PROBE=$probe
fs_case ext4 "mkfs.ext4 -q -F"
if command -v mkfs.vfat >/dev/null && { grep -qw vfat /proc/filesystems || modprobe vfat 2>/dev/null; }; then
    fs_case fat "mkfs.vfat"
else skip "FAT (no mkfs.vfat, or this kernel mounts no vfat)"; fi

# Ctrl-C part-way: our files removed, the user's intact, exit 130.
cat >"$work/intr.sh" <<'SH'
d=$MMC_SIM_DEV w=$1
mkfs.ext4 -q -F "$d" >/dev/null 2>&1
mkdir -p "$w/mnt"; mount "$d" "$w/mnt" || exit 9
echo "keep me" >"$w/mnt/keep.txt"
$PROBE verify --file-system "$w/mnt" >/dev/null 2>"$w/intr.err" &
pid=$!
i=0; while [ ! -e "$w/mnt/mmc-probe-verify.0" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
kill -INT $pid
wait $pid; echo $? >"$w/intr.rc"
ls -A "$w/mnt" >"$w/intr.ls"
cat "$w/mnt/keep.txt" >"$w/intr.keep"
umount "$w/mnt"
SH
# Slow flash, so that the run is still writing when the signal comes.
$sim --capacity 96M --au 4M --page-program 2ms -- sh "$work/intr.sh" "$work" >"$work/intr.simout" 2>"$work/intr.simerr"
[ "$(cat "$work/intr.rc" 2>/dev/null)" = 130 ] && pass "Ctrl-C: exit 130" || fail "Ctrl-C: exit $(cat "$work/intr.rc" 2>/dev/null) $(cat "$work/intr.err" 2>/dev/null)"
[ "$(cat "$work/intr.ls" 2>/dev/null)" = "keep.txt
lost+found" ] && pass "Ctrl-C: our files removed, the user's left" || fail "Ctrl-C: left $(cat "$work/intr.ls" 2>/dev/null | tr '\n' ' ')"
[ "$(cat "$work/intr.keep" 2>/dev/null)" = "keep me" ] && pass "Ctrl-C: the user's file intact" || fail "Ctrl-C: the user's file changed"

finish
