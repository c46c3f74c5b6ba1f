#!/bin/sh
# mmc-bench from the command line: options and usage errors (exit 2), the
# refusals before writing (exit 1), a test file on the host's filesystem
# (created, measured, removed, also on Ctrl-C), and a loop device as a raw
# target. Short runs only: speed claims live in bench/vs-fio.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
bench=build/bin/mmc-bench

run 0 $bench --help && expect "--help lists the suites" "$out" "quick +sequential 4M read/write"
expect "--help lists fio's job options" "$out" "--rw MODE"
run 0 $bench --version && expect "--version" "$out" "mmc-bench from mmckit [0-9]"

run 2 $bench && expect "no target" "$err" "no DEVICE and no --file PATH given"
run 2 $bench --suite fast /dev/null && expect "unknown suite lists them" "$err" "unknown suite \(expected quick, iozone, a1, a2, class\)"
run 2 $bench --rw randrw /dev/null && expect "bad --rw" "$err" "--rw randrw: expected read, write, randread or randwrite"
run 2 $bench --rw read --bs 1000 /dev/null && expect "bad --bs" "$err" "--bs 1000: expected a multiple of 512 from 512 to 16M"
run 2 $bench --rw read --bs 32M /dev/null && expect "--bs above 16M" "$err" "--bs 32M"
run 2 $bench --rw read --bs 4q /dev/null && expect "bad size unit" "$err" "unknown unit 'q'"
run 2 $bench --rw read --iodepth 8 /dev/null && expect "QD above 1 needs io_uring" "$err" "needs --ioengine io_uring"
run 2 $bench --rw read --ioengine libaio /dev/null && expect "bad --ioengine" "$err" "expected psync or io_uring"
run 2 $bench --bs 4k /dev/null && expect "job options need --rw" "$err" "add --rw"
run 2 $bench --suite a1 --rw read /dev/null && expect "suite or job, not both" "$err" "not both"
run 2 $bench --runtime soon /dev/null && expect "bad --runtime" "$err" "--runtime: 'soon'"
run 2 $bench --precondition trim /dev/null && expect "bad --precondition" "$err" "expected none, erase or fill"
run 2 $bench --file /tmp /dev/null && expect "device and --file" "$err" "not both"
run 2 $bench --file /tmp --precondition fill && expect "--precondition is for raw devices" "$err" "applies to a raw device"
run 2 $bench --bogus /dev/null && expect "unknown option" "$err" "unknown option '--bogus'"
run 1 $bench /dev/nonexistent-mmc && expect "missing device" "$err" "/dev/nonexistent-mmc: No such file or directory"
tmpf=$(mktemp)
run 1 $bench "$tmpf" && expect "a file is not a device: hint --file" "$err" "not a block device; use --file PATH"
rm -f "$tmpf"

# A test file on the host's filesystem.
dir=$(mktemp -d)
run 0 $bench -J --file "$dir" --size 8M --rw randread --bs 4k --runtime 0.3s --warmup 0.1 &&
    json_eq "file target: JSON contract" \
        "j['tool'], j['target']['kind'], j['target']['size_bytes'], j['jobs'][0]['name'], j['jobs'][0]['ios'] > 0, j['partial']" \
        "mmc-bench file 8388608 randread-4k True False"
json_eq "latency percentiles in order" \
    "(lambda l: l['min'] <= l['p50'] <= l['p90'] <= l['p99'] <= l['p999'] <= l['max'])(j['jobs'][0]['lat_us'])" "True"
json_eq "calibration: clock, null target, pinning" \
    "j['calibration']['clock']['cost_ns'] > 0, j['calibration']['null_target'][0]['per_io_us'] > 0, j['host']['pinned_cpu'] is not None" \
    "True True True"
json_eq "a file is not a card: no card, no bus" "j['card'], j['bus']" "None None"
[ -z "$(ls -A "$dir")" ] && pass "test file removed afterwards" || fail "left in $dir: $(ls -A "$dir")"
run 0 $bench -J --file "$dir" --size 8M --rw write --bs 1M --number-ios 8 --runtime 10s --warmup 0 &&
    json_eq "--number-ios: exactly that many I/Os" "j['jobs'][0]['ios'], j['jobs'][0]['stop_reason']" "8 ios"
run 0 $bench -J --file "$dir" --size 8M --rw randread --bs 4k --iodepth 4 --ioengine io_uring --runtime 0.3s --warmup 0.1 &&
    json_eq "io_uring QD4" "j['jobs'][0]['runner'], j['jobs'][0]['iodepth'], j['jobs'][0]['ios'] > 0" "io_uring 4 True"
run 0 $bench --file "$dir" --size 8M --rw randread --runtime 0.3s --warmup 0.1 && expect "text table" "$out" "^randread-4k +4k +1 +psync"
run 1 $bench --file "$dir/sub/none" --size 8M --rw read --runtime 0.3s && expect "missing directory" "$err" "No such file or directory"
touch "$dir/existing"
run 1 $bench --file "$dir/existing" --size 8M --rw read --runtime 0.3s && expect "never overwrites a file" "$err" "exists; mmc-bench creates its own test file"
rm -f "$dir/existing"

# Ctrl-C: partial results, exit 130 and "interrupted" as in mmc-erase, the test file gone.
$bench -J --file "$dir/ctrlc.tmp" --size 8M --rw randread --runtime 60s --warmup 0 >"$out" 2>"$err" </dev/null &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && pass "Ctrl-C: exit 130, as mmc-erase" || fail "Ctrl-C: exit $rc, expected 130"
json_eq "Ctrl-C: partial JSON, interrupted as mmc-erase says it" "j['partial'], j['partial_why'], j['jobs'][0]['ios'] > 0, j['interrupted']" "True interrupted during randread-4k True True"
[ -z "$(ls -A "$dir")" ] && pass "Ctrl-C: test file removed" || fail "Ctrl-C left: $(ls -A "$dir")"

# A loop device (root only): raw reads, and every refusal before a write.
if [ "$(id -u)" -eq 0 ] && loop=$(losetup -f --show "$(truncate -s 64M "$dir/disk.img" && echo "$dir/disk.img")" 2>/dev/null); then
    run 0 $bench -J --rw read --bs 1M --runtime 0.3s --warmup 0.1 "$loop" &&
        json_eq "loop device: raw O_DIRECT reads" "j['target']['kind'], j['target']['direct'], j['card'], j['not_a_card'].split(':')[0]" \
            "block True None $(basename "$loop")"
    run 1 $bench --rw write --runtime 0.3s "$loop" && expect "write needs --destructive" "$err" "add --destructive"
    run 1 $bench --destructive --yes --rw write --runtime 0.3s "$loop" && expect "not MMC needs --any-device" "$err" "not an MMC/SD device.*--any-device"
    run 1 $bench --destructive --any-device --rw write --runtime 0.3s "$loop" </dev/null &&
        expect "no terminal, no --yes: refused" "$err" "no terminal to ask on; add --yes"
    [ -z "$(tr -d '\0' <"$dir/disk.img" | head -c 1)" ] && pass "nothing written by refused runs" || fail "a refused run wrote"
    run 0 $bench -J --destructive --any-device --yes --rw randwrite --bs 4k --runtime 0.3s --warmup 0.1 "$loop" &&
        json_eq "writes with --destructive --any-device --yes" "j['jobs'][0]['rw'], j['jobs'][0]['ios'] > 0" "randwrite True"
    run 0 $bench -J --suite quick --runtime 0.2s --warmup 0.05 "$loop" &&
        json_eq "suite on a non-card: writes skipped, no verdicts" "len(j['jobs']), len(j['skipped']), j['verdicts']" "2 2 []"
    run 0 $bench -J --destructive --any-device --yes --precondition fill --size 8M --rw randread --runtime 0.2s --warmup 0 "$loop" &&
        json_eq "precondition fill recorded" "j['precondition']['method'], j['precondition']['region']['length'], j['precondition']['mb_s'] > 0" \
            "fill 8388608 True"
    run 0 $bench -J --destructive --any-device --yes --precondition erase --size 8M --rw randread --runtime 0.2s --warmup 0 "$loop" &&
        json_eq "precondition erase recorded" "j['precondition']['method'], j['precondition']['how']" "erase BLKDISCARD"
    run 2 $bench --rw read --offset 64M --runtime 0.2s "$loop" && expect "offset beyond the end" "$err" "beyond the end"
    if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q "$loop" 2>/dev/null && mkdir -p "$dir/mnt" && mount "$loop" "$dir/mnt" 2>/dev/null; then
        run 1 $bench --destructive --any-device --yes --rw write --runtime 0.3s "$loop" &&
            expect "mounted device refused" "$err" "in use: $(basename "$loop") is mounted on $dir/mnt"
        run 0 $bench -J --file "$dir/mnt" --size 8M --rw randread --runtime 0.3s --warmup 0.1 &&
            json_eq "file on a mounted device names it" "j['target']['device'], j['target']['direct']" "$(basename "$loop") True"
        umount "$dir/mnt"
    else
        skip "mounted device refused: no ext4 here"
    fi
    losetup -d "$loop"
else
    skip "loop device tests: need root and a free loop device"
fi
rm -rf "$dir"

finish
