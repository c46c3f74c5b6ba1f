#!/bin/sh
# mmc-report on the shipped examples (text, --csv, -J), --make-bundle from the
# tool fixtures in tests/data/report, and bad input: no bundles exits 1, a
# named non-bundle is a warning and exit 1, a bad command line exits 2.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
rep=build/bin/mmc-report
data=tests/data/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# Text: each study's table as published (after the documented conversion).
run 0 $rep examples/ && {
    expect "OLPC study title" "$out" "^OLPC XO and ASUS Eee PC SD card performance$"
    expect "OLPC: MiB/s x 1.048576, by card; one number of decimals a column (18.20 above 10.24)" "$out" "^  A-Data 8GB +18\.20 +16\.32 +8\.756$"
    expect "OLPC: the row below lines up" "$out" "^  ATP 2GB +10\.24 +10\.11 +4\.886$"
    expect "OLPC: the slowest write" "$out" "^  A-Data 8GB +4\.257 +3\.848 +0\.367$"
    expect "sf-lug: MB/s as published" "$out" "^  Sandisk 2G SD Ultra II +4\.7$"
    expect "RetroBSD: 959 kbytes/s = 0.982 MB/s" "$out" "^  Lexar SD Platinum II 512 Mb +0\.982 +– +–$"
    expect "RetroBSD: the I/O error is shown, not a zero" "$out" "^  ADATA microSD 2 Gb +– +error +0\.888$"
    expect "RetroBSD: the error is explained" "$out" "ADATA microSDHC Class 4 8 Gb @ LiteBSD, chipKIT Wi-Fire, SPI 16.7 MHz: error: I/O errors"
    expect "RetroBSD: two cards of one name are two rows" "$out" "^  Kodak SD 2 Gb \(2\) +1\.198 +– +–$"
    expect "ODROID: the random-I/O table" "$out" "^  Ultra A1 32GB @ ODROID N1 \(RK3399\), SDR104 +456 +3171 +843 +2791 +548 +1777 +20 +66$"
    expect "ODROID: DDR50 has no sequential figure" "$out" "^  Extreme A1 32GB @ ODROID N1 \(RK3399\), DDR50 +740 +3049 +1039 +2408 +747 +1068 +– +–$"
    expect "ODROID: A1 verdicts" "$out" "Extreme A1 32GB @ ODROID N1 \(RK3399\), DDR50 +A1 random write 4 KiB QD1 +500 IOPS +1039 IOPS +– +pass"
    expect "ODROID: not-applicable without a figure" "$out" "A1 sequential write +10 MB/s +– +– +not-applicable"
    expect "Raspberry Pi: iozone 16384k record, 4k IOPS = kB/s / 4" "$out" "^  SanDisk Extreme Pro 8GB 95MB/s @ Raspberry Pi \(2013\) +– +– +219\.5 +1422 +– +– +20\.57 +22\.95$"
    expect "units are said" "$out" "published in kbytes/s; shown in MB/s"
}
if grep -q "$(printf '\033')" "$out"; then fail "no colour when not on a terminal"; else pass "no colour when not on a terminal"; fi

# CSV: one document, a "table" column.
run 0 $rep --csv examples/ && {
    expect "CSV header" "$out" "^table,study,card,host,seq_write_mb_s,seq_read_mb_s,rand_write_iops_1k,"
    got=$(python3 -c "
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1], newline='')))
res=[r for r in rows if r['table']=='results']; ver=[r for r in rows if r['table']=='verdicts']
olpc=[r for r in res if r['card']=='ATP 2GB' and r['host']=='OLPC XO'][0]
err=[r for r in res if r['error']]
print(len(res), len(ver), round(float(olpc['seq_write_mb_s'])/1.048576, 2), len(err), repr(err[0]['seq_read_mb_s']))" "$out")
    [ "$got" = "55 12 0.72 2 ''" ] && pass "CSV: 55 results, 12 verdicts, MiB/s recoverable, errors empty not 0" || fail "CSV rows: got '$got'"
}

# JSON: the same tables.
run 0 $rep -J examples/ && {
    json_eq "JSON: tool and version" "j['tool'], j['version']" "mmc-report 0.1.0"
    json_eq "JSON: five studies" "len(j['groups']), len(j['bundles'])" "5 55"
    json_eq "JSON: by-card matrix, hosts as columns" "j['groups'][0]['hosts'], round(j['groups'][0]['seq_read_mb_s'][4][0], 4)" \
        "['Transcend M3', 'ASUS Eee PC', 'OLPC XO'] 18.7695"
    json_eq "JSON: missing is null" "j['groups'][3]['seq_read_mb_s'][2]" "[66.0, None]"
    json_eq "JSON: the published figure rides along" "j['groups'][4]['results'][0]['as_published']['seq_read']" \
        "{'value': 22413, 'unit': 'kB/s', 'record': 'iozone 16384k read'}"
}

# --make-bundle from the tools' JSON, then a report of it.
run 0 $rep --make-bundle --out "$tmp/results" --info $data/sd-info.json --bus $data/sd-bus.json --erase-json $data/erase.json \
    --bench $data/bench-iozone.json --bench $data/bench-a1.json --step "erase:ok:discarded" --step "bench:fail:exit 1: A1 write" \
    --host-label "Lab PC, HS" && {
    bundle=$(cat "$out")
    case "$bundle" in
    "$tmp/results/sandisk-sl16g-16gb-lab-pc-hs-"????????T??????Z.json) pass "bundle name: card-host-time.json" ;;
    *) fail "bundle name: $bundle" ;;
    esac
    [ -s "$bundle" ] && pass "bundle written" || fail "bundle not written"
    cp "$bundle" "$out"
    json_eq "bundle: format and kind" "j['format'], j['format_version'], j['kind']" "mmckit-bundle 1 measured"
    json_eq "bundle: card from the registers" "j['card']['label'], j['card']['serial'], j['card']['classes']['app_perf_class']" \
        "SanDisk SL16G 16GB 0x0eace07e A1"
    json_eq "bundle: results from the bench jobs" "j['results']" \
        "{'seq_read_mb_s': 12.6, 'seq_write_mb_s': 10.2, 'rand_read_iops': {'1k': 2100.0, '4k': 1650.0, '16k': 720.0}, 'rand_write_iops': {'1k': 310.0, '4k': 460.0, '16k': 260.0}}"
    json_eq "bundle: steps kept" "[(s['name'], s['ok']) for s in j['steps']]" "[('erase', True), ('bench', False)]"
    json_eq "bundle: the tools' documents kept" "j['registers']['tool'], j['bus']['host'], j['erase']['tool'], len(j['bench'])" \
        "mmc-info mmc0 mmc-erase 2"
}
# A second bundle of the same card and host a moment later never overwrites.
run 0 $rep --make-bundle --out "$tmp/results" --bench $data/bench-iozone.json --card-label "SanDisk SL16G 16GB" --host-label "Lab PC, HS" &&
    [ "$(ls "$tmp/results" | wc -l)" -eq 2 ] && pass "second bundle beside the first" || fail "second bundle: $(ls "$tmp/results")"
cp $data/bench-a1.json "$tmp/results/raw-bench.json" # a tool's output beside the bundles is ignored
run 0 $rep "$tmp/results" && {
    expect "measured group" "$out" "^Measured with mmckit$"
    expect "two runs, two rows" "$out" "^  SanDisk SL16G 16GB \(2\) +12\.6$"
    expect "verdict from the bench, with its bus ceiling" "$out" "A1 random write 4 KiB QD1 +500 IOPS +460 IOPS +13 MB/s +fail"
    expect "failed step shown" "$out" "step bench failed: exit 1: A1 write"
}
[ -s "$err" ] && fail "a tool output in a directory is ignored quietly: $(cat "$err")" || pass "a tool output in a directory is ignored quietly"

# --erase, the old spelling of --erase-json (mmc-qualify's --erase says what
# to erase): still taken for one release, with one warning line.
run 0 $rep --make-bundle --out "$tmp/old-erase" --erase $data/erase.json --card-label old --host-label old &&
    expect "deprecated --erase: says so" "$err" "^mmc-report: --erase is deprecated: use --erase-json$"
cp "$(cat "$out")" "$out" 2>/dev/null && json_eq "deprecated --erase: still the erase document" "j['erase']['tool']" "mmc-erase"

# mmc-probe's documents and the state suite: kept, shown, and
# the state suite's writes are not the card's sequential figure.
run 0 $rep --make-bundle --out "$tmp/probe" --bench $data/bench-iozone.json --bench $data/bench-state.json \
    --probe $data/probe-geometry.json --probe $data/probe-capacity.json --card-label sim --host-label host && {
    cp "$(cat "$out")" "$tmp/probe.json"
    cp "$tmp/probe.json" "$out"
    json_eq "--probe: geometry and capacity kept whole" \
        "j['probe']['geometry']['au_size'], j['probe']['geometry']['ladder'] is not None, j['probe']['capacity']['verdict']" "4194304 True good"
    json_eq "the state suite's writes are not the sequential write figure" "j['results']['seq_write_mb_s']" "10.2"
    run 0 $rep "$tmp/probe" && {
        expect "text: the probe's row" "$out" "^  sim @ host +16 KiB +4 MiB +– +medium +good$"
        expect "text: what erasing bought" "$out" "^  sim @ host: sequential write 5\.43 → 10\.85 MB/s after erase"
    }
    run 0 $rep --html - "$tmp/probe" && {
        expect "HTML: the probe's table" "$out" "<table class=\"probe\">"
        expect "HTML: what erasing bought" "$out" "<li>sim @ host: sequential write 5\.43 → 10\.85 MB/s after erase"
    }
    run 0 $rep -J "$tmp/probe" &&
        json_eq "JSON: the probe and the state in the results row" \
            "j['groups'][0]['results'][0]['probe']['geometry']['page_size'], j['groups'][0]['results'][0]['state']['seq_write_mb_s']['erased']" \
            "16384 10.846"
}
run 0 $rep --make-bundle --out "$tmp/probe-bad" --probe $data/bench-state.json &&
    expect "--probe with another tool's output: a failed step" "$err" "warning: load mmc-probe: .*not mmc-probe -J output"

# mmc-tune's documents: kept whole, and the report shows the bus
# mode and MB/s before and after, and the queue's result (fixtures written to
# the contract: trials and a chosen mode; live_trials false; a queue result
# with no measurable difference).
run 0 $rep --make-bundle --out "$tmp/tune" --bench $data/bench-iozone.json --tune-json $data/tune-bus.json --tune-json $data/tune-queue.json \
    --card-label tuned --host-label host && {
    cp "$(cat "$out")" "$out"
    json_eq "--tune: bus and queue kept whole, by subcommand" \
        "len(j['tune']['bus']['trials']), j['tune']['queue']['result']['verdict'], j['tools']['mmc-tune']" "3 no measurable difference 0.1.0"
}
run 0 $rep --make-bundle --out "$tmp/tune" --tune-json $data/tune-bus-offline.json --card-label offline --host-label host
run 0 $rep "$tmp/tune" && {
    expect "text: before and after" "$out" "^  tuned @ host +SDR50 at 100 MHz +43\.9 +SDR104 at 150 MHz +58\.7 +3, 1 rejected +yes$"
    expect "text: a plan without live trials chooses nothing" "$out" "^  offline @ host +HS at 50 MHz +– +– +– +none \(plan only\) +–$"
    expect "text: ... and says why" "$out" "^  offline @ host: bus: this kernel \(6\.1\.0-28-amd64\) cannot trial modes live; 6\.4 or later can$"
    expect "text: the queue's result" "$out" "^  tuned @ host: queue: mq-deadline, read-ahead 128 KiB -> mq-deadline, read-ahead 128 KiB: no measurable difference"
}
run 0 $rep -J "$tmp/tune" &&
    json_eq "JSON: the tune results per card@host" \
        "[(r['card'], r['tune']['bus']['before']['mb_s'], (r['tune']['bus']['chosen'] or {}).get('mb_s'), (r['tune']['queue'] or {}).get('verdict')) for r in j['groups'][0]['results']]" \
        "[('offline', None, None, None), ('tuned', 43.9, 58.7, 'no measurable difference')]"
run 0 $rep --html - "$tmp/tune" && {
    expect "HTML: the tuning table" "$out" "<table class=\"tune\">.*<td>SDR104 at 150 MHz</td><td class=\"num\">58\.7</td>"
    expect "HTML: the queue's result" "$out" "<li>tuned @ host: queue: .*no measurable difference"
}
run 0 $rep --make-bundle --out "$tmp/tune-bad" --tune-json $data/probe-geometry.json &&
    expect "--tune with another tool's output: a failed step" "$err" "warning: load mmc-tune: .*not mmc-tune -J output"

# Missing inputs are failed steps, not errors.
run 0 $rep --make-bundle --out "$tmp/partial" --info "$tmp/nope.json" --bus $data/sd-info.json --bench $data/bench-iozone.json && {
    expect "missing input warned" "$err" "warning: load mmc-info: .*nope.json: No such file or directory"
    expect "wrong tool's output warned" "$err" "warning: load mmc-bus: .*not mmc-bus -J output"
    cp "$(cat "$out")" "$out"
    json_eq "missing inputs recorded as failed steps" "[(s['name'], s['ok']) for s in j['steps']], 'registers' in j" \
        "[('load mmc-info', False), ('load mmc-bus', False)] False"
}

# Errors.
mkdir "$tmp/empty"
run 1 $rep "$tmp/empty" && expect "no bundles: exit 1 with a message" "$err" "no bundles found in .*/empty"
run 1 $rep $data/bench-a1.json examples/2-sf-lug && {
    expect "a named non-bundle: warning" "$err" "bench-a1.json: not an mmckit bundle \(mmc-bench output; mmc-report makes a bundle"
    expect "... and the others still reported" "$out" "^  Kingston 2G microSD +13\.3$"
}
run 1 $rep "$tmp/nope.json" && expect "missing file" "$err" "nope.json: No such file or directory"
echo '{"format": "mmckit-bundle", "format_version": 2}' > "$tmp/newer.json"
run 1 $rep "$tmp/newer.json" && expect "newer format refused" "$err" "version 2 is newer than this mmc-report reads"
run 2 $rep --frobnicate examples && expect "bad option: exit 2" "$err" "unknown option '--frobnicate'"
run 2 $rep && expect "no arguments: exit 2" "$err" "no bundles named"
run 2 $rep -J --csv examples && expect "-J and --csv" "$err" "choose one of -J and --csv"
run 2 $rep --make-bundle --info x.json && expect "--make-bundle needs --out" "$err" "needs --out DIR"
run 2 $rep --make-bundle --out "$tmp/x" --step nonsense && expect "bad --step" "$err" "expected NAME:ok\|fail:MESSAGE"
run 2 $rep --out "$tmp/x" examples && expect "--out without --make-bundle" "$err" "go with --make-bundle"
run 2 $rep --make-bundle --out "$tmp/x" --csv && expect "report option with --make-bundle" "$err" "not with --make-bundle"
run 0 $rep --html - examples/5-raspberry-pi-iozone && expect "--html - writes the page to stdout" "$out" "^<!DOCTYPE html>"
run 0 $rep --help && expect "--help" "$out" "--make-bundle"
run 0 $rep --version && expect "--version" "$out" "mmc-report from mmckit"
finish
