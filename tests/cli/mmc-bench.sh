#!/bin/sh
# check: expect 70
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
run 2 $bench --suite fast /dev/null && expect "unknown suite lists them" "$err" "unknown suite \(expected quick, iozone, a1, a2, class, state, sustained\)"
run 2 $bench --rw randrw /dev/null && expect "bad --rw" "$err" "--rw randrw: expected read, write, randread or randwrite"
run 2 $bench --rw read --bs 1000 /dev/null && expect "bad --bs" "$err" "--bs 1000: expected a multiple of 512 from 512 to 16M"
run 2 $bench --rw read --bs 32M /dev/null && expect "--bs above 16M" "$err" "--bs 32M"
run 2 $bench --rw read --bs 4q /dev/null && expect "bad size unit" "$err" "unknown unit 'q'"
run 2 $bench --rw read --iodepth 8 /dev/null && expect "QD above 1 needs io_uring" "$err" "needs --ioengine io_uring"
run 2 $bench --rw read --ioengine libaio /dev/null && expect "bad --ioengine" "$err" "expected psync or io_uring"
run 2 $bench --bs 4k /dev/null && expect "job options need --rw" "$err" "add --rw"
run 2 $bench --suite a1 --rw read /dev/null && expect "suite or job, not both" "$err" "not both"
run 2 $bench --runtime soon /dev/null && expect "bad --runtime" "$err" "--runtime: 'soon'"
run 2 $bench --runtime 5d /dev/null && expect "--runtime: one duration syntax, its unit list" "$err" "--runtime: '5d': unknown unit 'd' \(use ns, us, ms, s, m or h; seconds without one\)"
run 2 $bench --warmup -1 /dev/null && expect "--warmup -1 refused" "$err" "--warmup: '-1': a time cannot be negative"
run 2 $bench --ci 101 /dev/null && expect "--ci 101 refused" "$err" "--ci 101: expected a percentage from 0 to 100"
run 2 $bench --ci 2s /dev/null && expect "--ci is a percentage, not a time" "$err" "--ci 2s: expected a percentage"
run 2 $bench --idle 5s /dev/null && expect "--idle needs the sustained suite" "$err" "--idle applies to the sustained suite"
run 2 $bench --suite sustained --idle 0 /dev/null && expect "--idle 0 refused" "$err" "--idle: expected a time above zero"
run 0 $bench --help && expect "--help lists the sustained suite" "$out" "sustained +the whole card"
run 2 $bench --precondition trim /dev/null && expect "bad --precondition" "$err" "expected none, erase, fill or fragment"
run 2 $bench --file /tmp /dev/null && expect "device and --file" "$err" "not both"
run 2 $bench --file /tmp --precondition fill && expect "--precondition is for raw devices" "$err" "applies to a raw device"
run 2 $bench --bogus /dev/null && expect "unknown option" "$err" "unknown option '--bogus'"
run 1 $bench /dev/nonexistent-mmc && expect "missing device" "$err" "^mmc-bench: /dev/nonexistent-mmc: no such device$"
tmpf=$(mktemp)
run 1 $bench "$tmpf" && expect "a file is not a device: hint --file" "$err" "not a block device; use --file PATH"
rm -f "$tmpf"
not_devices mmc-bench "; use --file PATH to measure a file on a mounted filesystem" $bench

# A test file on the host's filesystem.
dir=$(mktemp -d)
run 0 $bench -J --file "$dir" --size 8M --rw randread --bs 4k --runtime 0.3s --warmup 0.1 &&
    json_eq "file target: JSON contract" \
        "j['tool'], j['target']['kind'], j['target']['size_bytes'], j['jobs'][0]['name'], j['jobs'][0]['ios'] > 0, j['partial']" \
        "mmc-bench file 8388608 randread-4k True False"
json_eq "latency percentiles in order" \
    "(lambda l: l['min'] <= l['p50'] <= l['p90'] <= l['p99'] <= l['p999'] <= l['max'])(j['jobs'][0]['lat_us'])" "True"
json_eq "calibration: clock, null target; not pinned by default" \
    "j['calibration']['clock']['cost_ns'] > 0, j['calibration']['null_target'][0]['per_io_us'] > 0, j['host']['pinned_cpu'], j['calibration']['pin_error']" \
    "True True None not asked"
json_eq "a file is not a card: no card, no bus" "j['card'], j['bus']" "None None"
run 0 $bench -J --cpu 0 --file "$dir" --size 8M --rw randread --runtime 0.2s --warmup 0 &&
    json_eq "--cpu 0 pins" "j['host']['pinned_cpu'], j['calibration']['pin_error']" "0 None"
run 2 $bench --file /tmp --suite state && expect "state suite needs a raw device" "$err" "the state suite erases its region: it needs a raw device"
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
# The handshake: mmc-bench runs with its stderr on a terminal (a pty), where
# its progress line says when the job is measuring and has done I/O; the
# SIGINT goes only then, however long starting took (a fixed sleep raced a
# loaded machine). Every wait is bounded: 60 s for the line, 30 s for the exit.
rc=$(python3 - "$bench" "$dir/ctrlc.tmp" "$out" "$err" <<'PY'
import os, pty, re, select, signal, subprocess, sys, time
bench, file, out, err = sys.argv[1:5]
master, slave = pty.openpty()
child = subprocess.Popen([bench, "-J", "--file", file, "--size", "8M", "--rw", "randread", "--runtime", "60s", "--warmup", "0"],
                         stdin=subprocess.DEVNULL, stdout=open(out, "wb"), stderr=slave, env=dict(os.environ, TERM="xterm"))
os.close(slave)
said = b""
def read_until(done, seconds):  # what the child says, until done() or the time is up; reading keeps it from blocking
    global said
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        if select.select([master], [], [], 0.2)[0]:
            try: said += os.read(master, 4096)
            except OSError: return  # the child closed the terminal: it has ended
    return done()
measuring = re.compile(rb"randread-4k +[0-9.]+/60 s +([0-9.]+) IOPS")
if not read_until(lambda: child.poll() is not None or any(float(m.group(1)) > 0 for m in measuring.finditer(said)), 60):
    open(err, "wb").write(b"never said it was measuring: " + said[-300:])
child.send_signal(signal.SIGINT)
read_until(lambda: child.poll() is not None, 30)
try: print(child.wait(timeout=1))
except subprocess.TimeoutExpired: child.kill(); child.wait(); print("running 30 s after SIGINT")
PY
)
[ "$rc" = 130 ] && pass "Ctrl-C: exit 130, as mmc-erase" || fail "Ctrl-C: exit $rc, expected 130 ($(cat "$err"))"
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
    # -n beside --destructive: the plan, placed as a run
    # places it; nothing measured, written or asked; a refusal is the run's.
    run 0 $bench -n -J --suite quick "$loop" &&
        json_eq "dry run, read-only: the reads planned, the writes left out" \
            "j['dry_run'], j['writes'], [x['name'] for x in j['jobs']], len(j['skipped'])" "True False ['seqread-4M', 'randread-4k'] 2"
    run 0 $bench -n --destructive --any-device --suite quick --size 16M "$loop" </dev/null &&
        expect "dry run with --destructive: says it writes, asks nothing" "$out" "^Plan for $loop \(suite quick, WRITES"
    expect "  each job with its region" "$out" "^ seqwrite-4M +write +4 MiB QD1 +offset 0 B, 16 MiB"
    expect "  and that nothing was done" "$out" "^Dry run: nothing was measured, written or created"
    run 1 $bench -n --destructive --suite quick "$loop" && expect "dry run: a write the run would refuse is refused" "$err" "not an MMC/SD device.*--any-device"
    run 0 $bench -n --file "$dir/planned" --size 8M && [ ! -e "$dir/planned" ] && pass "dry run on --file: no test file made" ||
        fail "dry run on --file made $dir/planned"
    [ -z "$(tr -d '\0' <"$dir/disk.img" | head -c 1)" ] && pass "nothing written by refused runs and dry runs" || fail "a refused or dry run wrote"
    run 0 $bench -J --destructive --any-device --yes --rw randwrite --bs 4k --runtime 0.3s --warmup 0.1 "$loop" &&
        json_eq "writes with --destructive --any-device --yes" "j['jobs'][0]['rw'], j['jobs'][0]['ios'] > 0" "randwrite True"
    run 0 $bench -J --suite quick --runtime 0.2s --warmup 0.05 "$loop" &&
        json_eq "suite on a non-card: writes skipped, no verdicts" "len(j['jobs']), len(j['skipped']), j['verdicts']" "2 2 []"
    run 0 $bench -J --destructive --any-device --yes --precondition fill --size 8M --rw randread --runtime 0.2s --warmup 0 "$loop" &&
        json_eq "precondition fill recorded" "j['precondition']['method'], j['precondition']['region']['length'], j['precondition']['mb_s'] > 0" \
            "fill 8388608 True"
    run 0 $bench -J --destructive --any-device --yes --precondition erase --size 8M --rw randread --runtime 0.2s --warmup 0 "$loop" &&
        json_eq "precondition erase recorded" "j['precondition']['method'], j['precondition']['how']" "erase BLKDISCARD"
    run 0 $bench -J --destructive --any-device --yes --precondition fragment --au 4M --size 32M --rw randread --runtime 0.2s --warmup 0 "$loop" &&
        json_eq "precondition fragment recorded: 2 writes in each of 8 AUs" \
            "j['precondition']['method'], j['precondition']['fragment'], j['precondition']['partial']" \
            "fragment {'writes': 16, 'aus': 8, 'passes': 2} False"
    run 1 $bench --suite state --any-device "$loop" && expect "state suite needs --destructive" "$err" "writes to and erases its region.*add --destructive"
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
# On a simulated card (mmc-sim): the state suite shows what erasing buys, and
# every request mmc-bench counts is one the card counted. Counters and orders
# of magnitude only: timing on this shared machine is noisy.
sim=build/bin/mmc-sim
if [ "$(id -u)" -eq 0 ] && command -v nbdfuse >/dev/null && command -v nbdkit >/dev/null && [ -e /dev/fuse ] && [ -e /dev/loop-control ]; then
    # 48 MiB: two halves of 6 AUs, one more than the 5 the card keeps open.
    $sim -p class10-2015 --capacity 256M --state full --stats "$dir/stats.json" -- \
        sh -c "$bench -J -y --any-device --destructive --suite state --au 4M --size 48M --runtime 2s \"\$MMC_SIM_DEV\"" >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 0 ] && pass "sim: state suite ran" || { fail "sim: state suite exit $rc"; sed 's/^/    | /' "$err" | head -5; }
    json_eq "sim: used state by fragment, then erased by discard" \
        "j['state']['used']['precondition']['fragment'], j['state']['erased']['erase']['how'], j['state']['erased']['erase']['region']['length']" \
        "{'writes': 24, 'aus': 12, 'passes': 2} BLKDISCARD 50331648"
    # Sequential write is left out here: in the simulator's FTL a merge
    # leaves an AU in order, so the fragment precondition leaves only the
    # AUs still open needing a merge, and which of them the sequential half
    # holds depends on its random order (x1.07 to x1.66 over 11 idle runs).
    # The fragmented card below gives a gain the model fixes.
    json_eq "sim: erasing bought random write speed (>2x)" \
        "j['state']['gain']['rand_write'] > 2, 'after erase' in j['state']['summary']" "True True"
    cp "$out" "$dir/state.json"
    if [ -s "$dir/stats.json" ]; then
        python3 - "$dir/state.json" "$dir/stats.json" >"$out" 2>&1 <<'PY'
import json, sys
b, s = (json.load(open(f)) for f in sys.argv[1:3])
c = s["counters"]
writes = b["precondition"]["fragment"]["writes"] + sum(j["ios"] + j["warmup"]["ios"] for j in b["jobs"])
wbytes = b["precondition"]["fragment"]["writes"] * 4096 + sum(j["bytes"] + j["warmup"]["ios"] * j["block_size"] for j in b["jobs"])
print(writes == c["write"]["requests"], wbytes == c["write"]["bytes"], c["discard"]["bytes"], c["erases"] > 0, c["merges"] > 0)
PY
        expect "sim: every write mmc-bench made is one the card counted, and one discard of the region" "$out" "^True True 50331648 True True$"
    else
        fail "sim: no --stats file"
    fi
    # A card whose every AU is fragmented, taken as found. The host chain
    # only ever slows the served card (more when the CPUs are busy: see
    # a1-twins.sh), so each figure is held only from above, to its model's
    # (+5%), and erasing must still buy speed (the model: x1.64). How close
    # to the model the figures come is logic, on the virtual clock
    # (BenchStateSuite), and precision, for bench/premise-states.
    card="-p class10-2015 --size 256M --state fragmented"
    # shellcheck disable=SC2086
    $sim $card --describe -J >"$dir/model.json" &&
        $sim $card -- sh -c "$bench -J -y --any-device --destructive --suite state --precondition none --au 4M --size 48M --runtime 1s \"\$MMC_SIM_DEV\"" >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 0 ] || { fail "sim, fragmented card: exit $rc"; sed 's/^/    | /' "$err" | head -5; }
    python3 - "$out" "$dir/model.json" >"$dir/held.txt" 2>&1 <<'PY'
import json, sys
b, m = (json.load(open(f)) for f in sys.argv[1:3])
p = m["modelled"]["premise"]
got = {j["name"]: j["mb_s"] for j in b["jobs"]}
pairs = [("used", got["seqwrite-512k-used"], p["seq_write_mb_s_fragmented"]),
         ("erased", got["seqwrite-512k-erased"], p["seq_write_mb_s_fragmented_erased"])]
bad = [f"{n} {g} above the model's {w} MB/s" for n, g, w in pairs if g > 1.05 * w]
if got["seqwrite-512k-erased"] <= got["seqwrite-512k-used"]:
    bad.append(f"erasing bought nothing: {got['seqwrite-512k-used']} then {got['seqwrite-512k-erased']} MB/s")
print("ok" if not bad else "; ".join(bad), b["precondition"]["method"])
print(f"    used {got['seqwrite-512k-used']} (model {pairs[0][2]}), erased {got['seqwrite-512k-erased']} (model {pairs[1][2]}) MB/s")
PY
    expect "sim, fragmented card: sequential write used and after erase, neither above the model's, erased faster" "$dir/held.txt" "^ok none$"
    grep '^    ' "$dir/held.txt"
    # The sustained suite on a small card without an SLC cache: the whole
    # card once, the JSON fields there, and no knee (the model has none).
    # Smoke only: real time is noisy, so no figure is held to a value.
    $sim -p class10-2015 --size 64M -- sh -c "$bench -J -y --any-device --destructive --suite sustained --au 4M --idle 1s \"\$MMC_SIM_DEV\"" >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 0 ] && pass "sim: sustained suite ran" || { fail "sim: sustained suite exit $rc"; sed 's/^/    | /' "$err" | head -5; }
    json_eq "sim: sustained figures, no knee without a cache, the whole card written, recovery after the idle time" \
        "sorted(k for k in ('burst_mb_s', 'slc_cache_bytes', 'sustained_mb_s', 'worst_latency_ms', 'p999_latency_ms', 'verdicts') if k in j['sustained']) == sorted(['burst_mb_s', 'slc_cache_bytes', 'sustained_mb_s', 'worst_latency_ms', 'p999_latency_ms', 'verdicts']), j['sustained']['slc_cache_bytes'], j['sustained']['bytes_written'], j['sustained']['burst_mb_s'] > 0, j['sustained']['recovery']['idle_s'], 0 < len(j['sustained']['trace']) <= 200" \
        "True None 67108864 True 1.0 True"
    # A card with a 32 MiB SLC cache over 25 MB/s TLC flash: the knee is
    # found. Only what noise cannot change is held: a knee between half and
    # twice the cache (the host chain's pauses fold some of the cache back,
    # moving the knee later), the burst above the speed after it.
    $sim -p v30-slc-tlc --size 256M --slc-cache 32M -- sh -c "$bench -J -y --any-device --destructive --suite sustained --au 4M \"\$MMC_SIM_DEV\"" >"$out" 2>"$err"
    rc=$?
    [ $rc -eq 0 ] && pass "sim, SLC cache: sustained suite ran" || { fail "sim, SLC cache: sustained suite exit $rc"; sed 's/^/    | /' "$err" | head -5; }
    json_eq "sim, SLC cache: the knee found near the 32 MiB cache, burst above the speed after it" \
        "16 * 2**20 <= (j['sustained']['slc_cache_bytes'] or 0) <= 64 * 2**20, j['sustained']['burst_mb_s'] > 1.5 * j['sustained']['sustained_mb_s']" \
        "True True"
else
    skip "simulated card tests (need root, nbdkit, nbdfuse, /dev/fuse and loop)"
fi
rm -rf "$dir"

finish
