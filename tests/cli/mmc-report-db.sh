#!/bin/sh
# mmc-report --db on real databases, no mocks: SQLite in a temporary file and
# a PostgreSQL server started here in a temporary directory (tests/cli/pg.sh)
# and stopped at the end, also on failure. On both: the examples imported,
# imported again (stored once), the report from the database byte for byte
# the report from the directories (text, CSV, JSON, HTML; the demo's bundles
# too when build/demo has them), the filters, a bundle of the earlier format,
# a corrupt bundle rejected with its reason and exit 1, and 8 processes
# importing 200 distinct bundles each at once (plus 5 bundles all 8 send):
# 1605 rows, none lost, none twice. Measured bundles (registers, bus,
# bench) made from the tools' fixtures are compared the same way.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/cli/pg.sh
rep=$(pwd)/build/bin/mmc-report
tmp=$(mktemp -d)
trap 'pg_stop; rm -rf "$tmp" "$out" "$err"' EXIT
trap 'exit 1' INT TERM
# Reproducible HTML: the page's "generated" time.
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH

# Bundles for the concurrent runs: 8 x 200 distinct ones, 5 all share.
for i in 1 2 3 4 5 6 7 8; do tests/cli/gen-bundles "$tmp/gen/$i" 200 "p$i" || fail "gen-bundles $i"; done
tests/cli/gen-bundles "$tmp/gen/shared" 5 shared
cp tests/data/report/bundle-unversioned.json "$tmp/unversioned.json"
# Measured bundles as mmc-qualify makes them (registers, bus, erase, bench),
# from the tools' fixtures: the demo's kind of bundle without booting the lab.
d=tests/data/report
$rep --make-bundle --out "$tmp/measured" --info $d/sd-info.json --bus $d/sd-bus.json --erase-json $d/erase.json \
    --bench $d/bench-iozone.json --bench $d/bench-a1.json --tune-json $d/tune-bus.json --tune-json $d/tune-queue.json \
    --step erase:ok: --host-label "Lab PC, HS" >/dev/null &&
    $rep --make-bundle --out "$tmp/measured" --info $d/emmc-info.json --bench $d/bench-a1.json \
        --step "bench:fail:exit 1" >/dev/null || fail "making measured bundles"
head -c 700 examples/2-sf-lug/01-kingston-2g-microsd--usb-reader-mmcblk-laptop.json > "$tmp/corrupt.json"

# How many examples --label kodak should find, counted from the files.
kodak=$($PY -c "
import json,glob
cards=[json.load(open(f))['card'] for f in glob.glob('examples/*/*.json')]
print(sum(any('kodak' in (c.get(k) or '').lower() for k in ('label','product','serial')) for c in cards))")

# same NAME A B: the two files are the same bytes.
same() { if cmp -s "$2" "$3"; then pass "$1"; else fail "$1: differ"; diff "$2" "$3" | head -6 | sed 's/^/    | /'; fi; }

# on_backend NAME URL FRESH_URL: every check, on one database; the
# concurrent imports go to a second, new one (so they race its migration too).
on_backend() {
    name=$1 db=$2 fresh=$3
    echo "== $name"
    run 0 $rep --db "$db" --import examples/ &&
        expect "$name: import the examples" "$out" ": 55 stored, 0 already there, 0 rejected$"
    run 0 $rep --db "$db" --import examples/ &&
        expect "$name: the same bundles again are stored once" "$out" ": 0 stored, 55 already there, 0 rejected$"

    # The report from the database is the report from the directories.
    for view in text csv json html; do
        case $view in
        text) opt="" ;; csv) opt=--csv ;; json) opt=-J ;; html) opt="--html -" ;;
        esac
        # shellcheck disable=SC2086
        $rep $opt examples/ >"$tmp/dir.$view" 2>"$tmp/dir.err"
        # shellcheck disable=SC2086
        if run 0 $rep $opt --db "$db"; then same "$name: $view report from the database = from examples/" "$tmp/dir.$view" "$out"; fi
    done
    # SQLite: a database of their own, every bundle compared. PostgreSQL:
    # one database for all, so --label picks the SanDisk one out.
    mdb=$tmp/measured-$name.sqlite filter="" files=$tmp/measured
    case $db in postgres*) mdb=$db filter="--label SL16G --host Lab" files=$(ls "$tmp"/measured/sandisk-*) ;; esac
    run 0 $rep --db "$mdb" --import "$tmp/measured" && expect "$name: measured bundles import" "$out" ": 2 stored,"
    for view in csv json html; do
        case $view in csv) opt=--csv ;; json) opt=-J ;; html) opt="--html -" ;; esac
        # shellcheck disable=SC2086
        $rep $opt $files >"$tmp/measured.$view" 2>/dev/null
        # shellcheck disable=SC2086
        run 0 $rep $opt --db "$mdb" $filter && same "$name: measured bundles: $view from the database = from the files" "$tmp/measured.$view" "$out"
    done
    got=$(count "$mdb" "SELECT cid_hex, card_date, bus_clock_hz, bus_actual_clock_hz, tool_version FROM bundles WHERE card_product = 'SL16G'")
    [ "$got" = "035344534c313647800eace07e00e801|2014-08|50000000|26000000|0.1.0" ] &&
        pass "$name: raw CID, its date, the bus clock kept in columns" || fail "$name: columns: $got"
    # Version 5's columns: mmc-tune's before and after (tests/data/report/tune-bus.json, tune-queue.json).
    got=$(count "$mdb" "SELECT tune_bus_before_mode, tune_bus_before_clock_hz, tune_bus_before_mb_s, tune_bus_chosen_mode,
        tune_bus_chosen_clock_hz, tune_bus_chosen_mb_s, tune_bus_live_trials, tune_bus_trials, tune_bus_rejected, tune_bus_restored,
        tune_queue_before_scheduler, tune_queue_scheduler, tune_queue_read_ahead_kb, tune_queue_verdict FROM bundles WHERE card_product = 'SL16G'")
    [ "$got" = "SDR50|100000000|43.9|SDR104|150000000|58.7|1|3|1|1|mq-deadline|mq-deadline|128|no measurable difference" ] &&
        pass "$name: mmc-tune's bus mode and MB/s before and chosen, and the queue's result, in columns" || fail "$name: tune columns: $got"
    got=$(count "$mdb" "SELECT count(tune), count(tune_bus_chosen_mode) FROM bundles WHERE card_product <> 'SL16G' OR card_product IS NULL")
    [ "$got" = "0|0" ] && pass "$name: a bundle that did not tune leaves the tune columns empty" || fail "$name: tune columns of the other: $got"
    got=$(count "$mdb" "SELECT count(*) FROM jobs j JOIN bundles b ON b.id = j.bundle_id WHERE b.card_product = 'SL16G' AND j.rw = 'randread'")
    want=$($PY -c "
import json,sys
print(sum(j['rw'] == 'randread' for f in sys.argv[1:] for j in json.load(open(f))['jobs']))" $d/bench-iozone.json $d/bench-a1.json)
    [ "$got" = "$want" ] && pass "$name: the bench jobs are rows ($want randread)" || fail "$name: randread jobs: $got, expected $want"

    # The demo's bundles (the lab's mmc-qualify runs) are compared in
    # tests/lab/mmc-qualify.sh, where the lab writes them.

    # Filters.
    run 0 $rep -J --db "$db" --host odroid && json_eq "$name: --host odroid" "len(j['bundles'])" 9
    run 0 $rep -J --db "$db" --label KODAK && json_eq "$name: --label is a substring, any case" \
        "len(j['bundles']), sorted(set(b['card'] for b in j['bundles']))[0]" "$kodak Kodak SD 2 Gb"
    run 0 $rep -J --db "$db" --label kodak --host litebsd && json_eq "$name: --label and --host together" "len(j['bundles'])" 3
    run 0 $rep -J --db "$db" --card kodak --host litebsd && json_eq "$name: deprecated --card: still --label" "len(j['bundles'])" 3
    expect "$name: deprecated --card: says so" "$err" "^mmc-report: --card is deprecated: use --label$"
    run 1 $rep --db "$db" --since 2027-01-01 && expect "$name: nothing since: exit 1" "$err" "no bundles in .* match the filters"

    # A bundle of the earlier format still imports; a corrupt one is refused.
    run 0 $rep --db "$db" --import "$tmp/unversioned.json" && expect "$name: earlier format imports" "$out" ": 1 stored,"
    run 0 $rep --db "$db" --label 0x00c0ffee && expect "$name: ... and reports" "$out" "^  Unversioned card +9\.8$"
    run 1 $rep -J --db "$db" --import "$tmp/corrupt.json" examples/2-sf-lug && {
        expect "$name: corrupt bundle: said with its reason" "$err" "corrupt.json: rejected: not JSON \(.*parse error"
        json_eq "$name: ... and the rest still imported" "j['stored'], j['duplicates'], j['rejected']" "0 2 1"
    }
    run 1 $rep --db "$db" --import tests/data/report/bench-a1.json &&
        expect "$name: a tool's output named: rejected" "$err" "bench-a1.json: rejected: not an mmckit bundle \(mmc-bench output"

    # 8 processes at once into a new database, each 5 shared bundles and 200 of its own.
    pids=""
    for i in 1 2 3 4 5 6 7 8; do
        $rep -J --db "$fresh" --import "$tmp/gen/shared" "$tmp/gen/$i" >"$tmp/import-$name-$i.json" 2>"$tmp/import-$name-$i.err" &
        pids="$pids $!"
    done
    bad=0
    for p in $pids; do wait "$p" || bad=$((bad + 1)); done
    [ $bad -eq 0 ] && pass "$name: 8 concurrent imports all exit 0" ||
        { fail "$name: $bad of 8 concurrent imports failed"; cat "$tmp"/import-"$name"-*.err | head -5 | sed 's/^/    | /'; }
    got=$($PY -c "
import json,sys
d=[json.load(open(f)) for f in sys.argv[1:]]
print(sum(x['stored'] for x in d), sum(x['duplicates'] for x in d), sum(x['rejected'] for x in d))" "$tmp"/import-"$name"-*.json 2>&1)
    [ "$got" = "1605 35 0" ] && pass "$name: the imports say 1605 stored, 35 duplicates" || fail "$name: the imports say: $got"
}

# count DB SQL: one number from the database itself (sqlite3 or psql).
count() {
    case $1 in
    postgres*) "$PG_BIN/psql" -X -A -t -q "$1" -c "$2" ;;
    *) sqlite3 "$1" "$2" ;;
    esac
}
rows_check() {
    name=$1 db=$2 fresh=$3
    got=$(count "$fresh" "SELECT count(*), count(DISTINCT content_hash), count(DISTINCT card_serial) FROM bundles")
    [ "$got" = "1605|1605|1605" ] && pass "$name: 1605 rows, none lost, none twice" || fail "$name: rows: $got"
    got=$(count "$fresh" "SELECT version FROM schema_version")
    [ "$got" = 5 ] && pass "$name: the new database migrated once, to version 5" || fail "$name: new database at version $got"
    # 55 examples + 1 earlier-format bundle (+ 2 measured ones where they
    # share the database: PostgreSQL).
    want=56
    case $db in postgres*) want=58 ;; esac
    got=$(count "$db" "SELECT count(*) FROM bundles")
    [ "$got" = $want ] && pass "$name: $want bundles in all" || fail "$name: $got bundles in all, expected $want"
    got=$(count "$db" "SELECT count(*) FROM rejections WHERE reason LIKE 'not JSON%'")
    [ "$got" = 1 ] && pass "$name: the rejection is recorded in the database" || fail "$name: rejections: $got"
    got=$(count "$db" "SELECT version FROM schema_version")
    [ "$got" = 5 ] && pass "$name: schema version 5" || fail "$name: schema version $got"
    # Version 4's columns: there, and empty for bundles that do not say how the card was attached.
    got=$(count "$db" "SELECT count(attachment), count(reader_usb_id), count(card_sectors) FROM bundles")
    [ "$got" = "0|0|0" ] && pass "$name: the attachment columns, empty for bundles made before them" || fail "$name: attachment columns: $got"
}

on_backend sqlite "$tmp/results.sqlite" "$tmp/fresh.sqlite"
rows_check sqlite "$tmp/results.sqlite" "$tmp/fresh.sqlite"

# SQLite used by two processes at once waits rather than failing: a writer
# holds the lock for 2 s while an import runs. The writer says when it holds
# the lock (the import starts only then) and, just before it lets go, leaves
# a mark: an import that ends before that mark did not wait.
rm -f "$tmp/lock.held" "$tmp/lock.released"
$PY -c "
import sqlite3,time,sys
c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE')
open(sys.argv[2], 'w').close(); time.sleep(2)
open(sys.argv[3], 'w').close(); c.execute('COMMIT')" "$tmp/results.sqlite" "$tmp/lock.held" "$tmp/lock.released" &
locker=$!
i=0
while [ ! -e "$tmp/lock.held" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$tmp/lock.held" ] || fail "sqlite: the writer never took the lock"
run 0 $rep --db "$tmp/results.sqlite" --import "$tmp/unversioned.json" &&
    expect "sqlite: a locked database is waited for" "$out" ": 0 stored, 1 already there"
[ -e "$tmp/lock.released" ] && pass "sqlite: ... until the writer let go" || fail "sqlite: the import ended while the writer still held the lock"
wait $locker

if pg_start; then
    pass "postgresql: a server of our own on $PG_DIR"
    "$PG_BIN/createdb" -h "$PG_DIR" -U mmc fresh || fail "createdb fresh"
    fresh="postgresql://mmc@/fresh?host=$PG_DIR"
    on_backend postgresql "$PG_URL" "$fresh"
    rows_check postgresql "$PG_URL" "$fresh"
else
    fail "postgresql: could not start a server (is the postgresql package installed?)"
fi
run 1 $rep --db "postgresql://mmc@/mmc?host=$tmp/no-server" &&
    expect "postgresql: no server: exit 1 with libpq's reason" "$err" "^mmc-report: PostgreSQL: .*(No such file|connection)"

# Usage.
run 2 $rep --import examples && expect "--import needs --db" "$err" "need --db URL"
run 2 $rep --label x examples && expect "--label needs --db" "$err" "need --db URL"
run 2 $rep --db "$tmp/x.sqlite" examples && expect "--db with paths" "$err" "unexpected argument 'examples' with --db"
run 2 $rep --db "$tmp/x.sqlite" --since yesterday && expect "bad --since" "$err" "expected YYYY-MM-DD"
run 2 $rep --db "$tmp/x.sqlite" --since 2026-13-45 && expect "--since not in the calendar: usage error, not 'no match'" "$err" "--since '2026-13-45': expected YYYY-MM-DD"
run 2 $rep --db "$tmp/x.sqlite" --since 2026-02-29 && expect "--since 2026-02-29 (not a leap year)" "$err" "--since '2026-02-29'"
run 2 $rep --db "$tmp/x.sqlite" --since 2026-11-01T24:00Z && expect "--since hour 24" "$err" "--since '2026-11-01T24:00Z'"
run 2 $rep --db "$tmp/x.sqlite" --import && expect "--import with nothing" "$err" "needs bundle files or directories"
run 2 $rep --db "$tmp/x.sqlite" --import --csv examples && expect "--import with --csv" "$err" "not with --import"
run 1 $rep --db /nonexistent/dir/x.sqlite --import examples/2-sf-lug &&
    expect "unopenable SQLite file: exit 1" "$err" "^mmc-report: /nonexistent/dir/x.sqlite: unable to open"
run 1 $rep --db "$tmp/typo.sqlite" && expect "a report of a database that is not there: exit 1" "$err" "typo.sqlite: no such database"
[ ! -e "$tmp/typo.sqlite" ] && pass "... and none is created" || fail "a report created $tmp/typo.sqlite"
finish
