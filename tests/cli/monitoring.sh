#!/bin/sh
# check: expect 15
# Fleet monitoring: the alert rules by promtool (check and unit
# tests) against the metric names mmc-health really writes, and its metrics
# by promtool's lint; the systemd units by systemd-analyze verify; the
# timer's command run as the unit runs it, with the sandbox this machine can
# apply; its textfile scraped by a real prometheus-node-exporter on a
# loopback port, before and after the card is removed from the sysfs tree; --nagios's line and exit
# status for each verdict; mmc-watch --journal's records read back from a
# systemd-journald started for the test in a private mount namespace.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
health=build/bin/mmc-health
watch=build/bin/mmc-watch
data=tests/data/health
work=$(mktemp -d)
exporter_pid=""
cleanup() {
    [ -z "$exporter_pid" ] || { kill "$exporter_pid" 2>/dev/null; wait "$exporter_pid" 2>/dev/null; }
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Alert rules --------------------------------------------------------
if command -v promtool >/dev/null; then
    if promtool check rules monitoring/mmckit.rules.yml >"$out" 2>&1; then pass "promtool check rules: $(grep -o '[0-9]* rules found' "$out")"
    else fail "promtool check rules"; sed 's/^/    | /' "$out" | head; fi
    if promtool test rules monitoring/mmckit.rules.test.yml >"$out" 2>&1; then pass "promtool test rules: every alert fires and stays quiet as the tests say"
    else fail "promtool test rules"; sed 's/^/    | /' "$out" | head -20; fi
    # A rule that is wrong must fail its tests (the tests can see red).
    sed 's/> 3 \* 3600/> 5 * 3600/' monitoring/mmckit.rules.yml >"$work/mmckit.rules.yml"
    cp monitoring/mmckit.rules.test.yml "$work/"
    if promtool test rules "$work/mmckit.rules.test.yml" >"$out" 2>&1; then fail "a stale rule of 5 h passed the tests written for 3 h"
    else pass "a wrong threshold fails the rule tests"; fi
else
    skip "promtool is not installed (Debian package prometheus; make deps)"
fi
# The rules use only names mmc-health writes: a read-only card gives the
# verdict, writable and life used.
run 5 $health --from $data/sd-switch-on.json --prometheus "$work/ro.prom"
missing=""
for m in $(grep -o 'mmc_health_[a-z_]*' monitoring/mmckit.rules.yml | sort -u); do
    grep -qE "^$m[{ ]" "$work/ro.prom" || missing="$missing $m"
done
[ -z "$missing" ] && pass "every mmc_health_* name in the rules is one mmc-health writes" || fail "the rules use names mmc-health never writes:$missing"
# Every fixture's metrics pass promtool's lint (a counter is named _total,
# HELP on each family), and none has an empty label (--from has no device).
if command -v promtool >/dev/null; then
    lint=""
    for f in $data/*.json; do
        $health --from "$f" --prometheus "$work/lint.prom" >/dev/null 2>&1
        [ -s "$work/lint.prom" ] || { lint="$lint $(basename "$f"):unwritten"; continue; }
        promtool check metrics <"$work/lint.prom" >"$out" 2>&1 && [ ! -s "$out" ] || lint="$lint $(basename "$f"):$(head -c 200 "$out")"
        ! grep -q '=""' "$work/lint.prom" || lint="$lint $(basename "$f"):empty-label"
        rm -f "$work/lint.prom"
    done
    [ -z "$lint" ] && pass "promtool check metrics: clean for every fixture, no empty label" || fail "promtool check metrics:$lint"
fi

# --- systemd units ------------------------------------------------------
# systemd-analyze verify needs no running systemd; --root holds the units,
# the tools at their installed paths and the man pages Documentation= names.
if command -v systemd-analyze >/dev/null; then
    root=$work/root
    mkdir -p "$root/usr/bin" "$root/lib/systemd" "$root/usr/share/man/man1"
    cp -r /lib/systemd/system "$root/lib/systemd/"
    cp $health $watch "$root/usr/bin/"
    cp monitoring/mmckit-health.service monitoring/mmckit-health.timer monitoring/mmckit-watch.service "$root/lib/systemd/system/"
    cp man/mmc-health.1 man/mmc-watch.1 "$root/usr/share/man/man1/"
    for unit in mmckit-health.service mmckit-health.timer mmckit-watch.service; do
        MANPATH=$root/usr/share/man systemd-analyze verify --root="$root" "/lib/systemd/system/$unit" >"$out" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && [ ! -s "$out" ]; then pass "systemd-analyze verify $unit: clean"
        else fail "systemd-analyze verify $unit (exit $rc)"; sed 's/^/    | /' "$out" | head; fi
    done
else
    skip "systemd-analyze is not installed (Debian package systemd)"
fi
unit_value() { sed -n "s/^$2=//p" "monitoring/$1" | tail -n1; }
# The package ships them, installed and not enabled (tests/cli/package.sh
# builds it; here only what it is built from).
missing=""
while read -r src dest; do [ -f "$src" ] || missing="$missing $src"; done <debian/mmckit.install
for f in monitoring/mmckit-health.service monitoring/mmckit-health.timer monitoring/mmckit-watch.service monitoring/mmckit.rules.yml; do
    grep -q "^$f " debian/mmckit.install || missing="$missing $f(not listed)"
done
[ -z "$missing" ] && pass "debian/mmckit.install ships the units and rules" || fail "debian/mmckit.install:$missing"
grep -q 'dh_installsystemd --no-enable --no-start' debian/rules && pass "debian/rules: units installed, not enabled or started" ||
    fail "debian/rules does not pass --no-enable --no-start"
[ "$(unit_value mmckit-health.service CapabilityBoundingSet)" = CAP_SYS_RAWIO ] &&
    pass "mmckit-health.service keeps CAP_SYS_RAWIO alone (MMC_IOC_CMD needs it)" || fail "CapabilityBoundingSet of mmckit-health.service"
[ -n "$(unit_value mmckit-health.timer RandomizedDelaySec)" ] && [ "$(unit_value mmckit-health.timer OnCalendar)" = hourly ] &&
    pass "the timer: hourly, randomized" || fail "the timer is not hourly with RandomizedDelaySec"

# The service's command as the unit runs it: its ExecStart with the built
# tool, the textfile directory in $work, and a fixture tree (this machine
# has no card) -- under the sandbox this machine can apply without systemd
# as PID 1 (no systemd-run): a private mount namespace with / read-only
# except the textfile directory (ProtectSystem=strict, ReadWritePaths=), no
# network (PrivateNetwork=), the capability bounding set and no_new_privs
# (CapabilityBoundingSet=, NoNewPrivileges=) by setpriv.
exec_start=$(unit_value mmckit-health.service ExecStart)
textdir=$work/textfile
mkdir -p "$textdir"
cmd=$(printf '%s' "$exec_start" | sed "s|^/usr/bin/|$PWD/build/bin/|; s|/var/lib/prometheus/node-exporter|$textdir|")
case $cmd in
"$PWD/build/bin/mmc-health --prometheus $textdir/mmckit.prom") pass "ExecStart: mmc-health --prometheus into the textfile directory, every card" ;;
*) fail "ExecStart is '$exec_start'" ;;
esac
caps=$(unit_value mmckit-health.service CapabilityBoundingSet | tr 'A-Z' 'a-z' | sed 's/cap_/+/g')
# shellcheck disable=SC2086
# The card's sysfs tree is a copy, so that the card can be removed from it.
tree=$work/sysfs
cp -a tests/data/sysfs/emmc-cm4/sys "$tree"
run_unit() { # NAME: the unit's command over $tree, its status in the unit's terms
    # shellcheck disable=SC2086
    unshare -m -n --propagation private sh -c '
        mount --bind "$1" "$1" && mount -o remount,bind,ro / && shift &&
        exec setpriv --no-new-privs --bounding-set=-all,'"$caps"' --inh-caps=-all "$@"' \
        sh "$textdir" $cmd --sysfs-root "$tree" >"$out" 2>"$err"
    rc=$?
    success=" 0 $(unit_value mmckit-health.service SuccessExitStatus) "
    case $success in
    *" $rc "*) pass "$1: the sandboxed command succeeds in the unit's terms (exit $rc)" ;;
    *) fail "$1: the sandboxed command: exit $rc"; sed 's/^/    stderr: /' "$err" | head -5 ;;
    esac
}
run_unit "a card"
expect "it wrote the card's verdict" "$textdir/mmckit.prom" '^mmc_health_verdict\{card="mmc1:0001",device="/dev/mmcblk1",verdict="healthy"\} 1$'
# The sandbox holds: outside the writable directory, nothing is written.
unshare -m -n --propagation private sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro / && shift && exec "$@"' \
    sh "$textdir" $health --from $data/emmc-cm4.json --prometheus "$work/elsewhere.prom" >"$out" 2>"$err"
if [ $? -eq 1 ] && [ ! -e "$work/elsewhere.prom" ]; then pass "the same sandbox refuses a file outside ReadWritePaths"
else fail "the read-only sandbox let mmc-health write $work/elsewhere.prom"; fi

# --- node_exporter scrapes the textfile --------------------------------
if command -v prometheus-node-exporter >/dev/null; then
    port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
        --collector.textfile.directory="$textdir" >"$work/exporter.log" 2>&1 &
    exporter_pid=$!
    scrape() { # FILE: node_exporter's page, waiting up to 20 s for it to answer
        deadline=$(($(date +%s) + 20))
        # Python's urllib, not curl: make deps installs no curl (a fresh Debian 12
        # minbase has none, and this check failed there).
        until $PY -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
            "http://127.0.0.1:$port/metrics" >"$1" 2>/dev/null; do
            if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$exporter_pid" 2>/dev/null; then break; fi
            sleep 0.1
        done
    }
    scrape "$work/metrics"
    expect "before the removal node_exporter serves mmc_health_cards 1" "$work/metrics" '^mmc_health_cards 1$'
    expect "node_exporter serves the card's verdict" "$work/metrics" '^mmc_health_verdict\{card="mmc1:0001",device="/dev/mmcblk1",verdict="healthy"\} 1$'
    expect "node_exporter read the file cleanly" "$work/metrics" '^node_textfile_scrape_error 0$'
    file_label=$(sed -n 's/^node_textfile_mtime_seconds{file="\([^"]*mmckit.prom\)"}.*/\1/p' "$work/metrics")
    if [ -n "$file_label" ] && $PY -c 'import re,sys; sys.exit(0 if re.fullmatch(r"(.*/)?mmckit\.prom", sys.argv[1]) else 1)' "$file_label"; then
        pass "MmcHealthStale's file matcher fits node_exporter's label ($file_label)"
    else fail "node_textfile_mtime_seconds for mmckit.prom: '$file_label'"; fi
    # The card is removed: the next run rewrites the file to say so, and the
    # card's series are gone from the next scrape.
    rm -rf "$tree/bus/mmc/devices/mmc1:0001" "$tree/kernel/debug/mmc1/mmc1:0001" "$tree"/class/block/mmcblk1* "$tree/block/mmcblk1"
    find "$tree/devices" -depth -name 'mmc1:0001' -exec rm -rf {} +
    run_unit "the card removed"
    expect "with the card removed, mmc-health says so on stderr" "$err" "no MMC/SD card found; .*mmckit.prom says mmc_health_cards 0"
    scrape "$work/metrics-after"
    expect "after the removal node_exporter serves mmc_health_cards 0" "$work/metrics-after" '^mmc_health_cards 0$'
    expect "after the removal node_exporter read the file cleanly" "$work/metrics-after" '^node_textfile_scrape_error 0$'
    if grep -q 'mmc1:0001' "$work/metrics-after"; then fail "the removed card's series are still served: $(grep -c 'mmc1:0001' "$work/metrics-after")"
    elif grep -q '^mmc_health_verdict{card="mmc1:0001"' "$work/metrics"; then pass "the removed card's series are gone (they were served before)"
    else fail "the card's series were not served before the removal"; fi
    kill "$exporter_pid"; wait "$exporter_pid" 2>/dev/null; exporter_pid=""
else
    skip "prometheus-node-exporter is not installed (make deps)"
fi

# --- Nagios: each verdict its state ------------------------------------
nagios() { # FIXTURE STATUS LINE-REGEX
    run "$2" $health --nagios -w 80 --critical 95 --from "$data/$1" && expect "--nagios $1: exit $2" "$out" "$3"
}
nagios emmc-cm4.json 0 '^MMC_HEALTH OK - mmc1:0001 healthy, life used 10% \| life_used=10%;80;95;0$'
nagios sandisk-worn.json 1 '^MMC_HEALTH WARNING - sandisk-industrial worn, life used 85% \(outside -w 80\) \| life_used=85%;80;95;0$'
nagios emmc-pre-eol-urgent.json 2 '^MMC_HEALTH CRITICAL - mmc1:0001 end of life'
nagios sd-switch-on.json 2 '^MMC_HEALTH CRITICAL - mmc0:4567 read-only: the host reports the write-protect switch set'
nagios emmc-rev6.json 3 '^MMC_HEALTH UNKNOWN - mmc1:0001 unknown \(no health data\)$'
[ "$(wc -l <"$out")" -eq 1 ] && pass "--nagios prints one line" || fail "--nagios printed $(wc -l <"$out") lines"
run 2 $health --nagios -w 50 --critical 80 --from $data/sandisk-worn.json && expect "-c/--critical raises worn to CRITICAL" "$out" "outside -c 80"
# As check_mmc_health (the package's link in /usr/lib/nagios/plugins), -c is
# --critical; a range it cannot read, or a failure, is UNKNOWN (3), never 1 or 2.
ln -s "$PWD/$health" "$work/check_mmc_health"
run 2 "$work/check_mmc_health" -w 50 -c 80 --from $data/sandisk-worn.json && expect "check_mmc_health -c is --critical" "$out" "life_used=85%;50;80;0"
# Its help describes the check's own letters: -c is --critical, --family has none.
if run 0 "$work/check_mmc_health" --help; then
    expect "check_mmc_health --help: -c is --critical" "$out" '^ -c, --critical RANGE'
    if grep -qE -- '-c, --family|-J' "$out"; then fail "check_mmc_health --help documents mmc-health's own -c or -J"
    else pass "check_mmc_health --help: no -c, --family, no -J"; fi
fi
run 3 "$work/check_mmc_health" -w 20:10 --from $data/sandisk-worn.json && expect "a bad range is UNKNOWN" "$out" "^MMC_HEALTH UNKNOWN - '20:10': the start 20 is above the end 10$"
run 3 $health --nagios --from /nonexistent.json && expect "a failure is UNKNOWN, naming --from" "$out" "^MMC_HEALTH UNKNOWN - --from: /nonexistent.json"
run 3 $health --nagios -J --from $data/emmc-cm4.json && expect "--nagios with --json is UNKNOWN (a usage error)" "$out" "^MMC_HEALTH UNKNOWN - --nagios and --json"
run 2 $health -w 80 --from $data/emmc-cm4.json && expect "-w alone is refused" "$err" "only qualify --nagios"
run 0 $health -c mmc --decode "ext_csd=$($PY -c "import json; print(json.load(open('$data/emmc-cm4.json'))['cards'][0]['registers']['ext_csd'])")" &&
    pass "mmc-health's own -c is still --family"

# --- mmc-watch --journal: records in a real journal ---------------------
# systemd-journald runs without systemd as PID 1 when its directories are
# private: a mount namespace with tmpfs on /run/systemd/journal and the
# journal's storage. A kernel uevent is made by writing "change" to
# /sys/class/mem/null/uevent (no card here: the card fields are unit-tested
# through a sysfs tree, tests/unit/uevent_journal_test.cpp).
if [ "$(id -u)" -ne 0 ] || [ ! -x /lib/systemd/systemd-journald ] || ! command -v journalctl >/dev/null; then
    skip "mmc-watch --journal against journald: needs root and systemd-journald"
else
    cat >"$work/journal.sh" <<'SH'
set -u
watch=$1 work=$2
mkdir -p /run/systemd/journal /run/log /var/log/journal
mount -t tmpfs tmpfs /run/systemd/journal && mount -t tmpfs tmpfs /run/log && mount -t tmpfs tmpfs /var/log/journal || exit 10
# No journald yet: mmc-watch says so before any event.
"$watch" --journal --once --timeout 30 >"$work/nojournal.out" 2>&1
echo "$?" >"$work/nojournal.rc"
/lib/systemd/systemd-journald >"$work/journald.log" 2>&1 &
jpid=$!
deadline=$(($(date +%s) + 20))
until [ -S /run/systemd/journal/socket ]; do [ "$(date +%s)" -lt "$deadline" ] || exit 11; sleep 0.1; done
"$watch" --journal --all --once --timeout 15 >"$work/watch.out" 2>&1 &
wpid=$!
# Events are seen only once mmc-watch listens: make them until it has one.
while kill -0 "$wpid" 2>/dev/null; do echo change >/sys/class/mem/null/uevent; sleep 0.2; done
wait "$wpid"
echo "$?" >"$work/watch.rc"
# journald stores what it received in its own time (--sync asks, but a busy
# machine once answered the query before the record was in): ask up to 5 s.
i=0
while :; do
    journalctl --sync 2>/dev/null
    journalctl --no-pager -o json SYSLOG_IDENTIFIER=mmc-watch MMC_DEVPATH=/devices/virtual/mem/null >"$work/records.json"
    [ -s "$work/records.json" ] || [ $i -ge 50 ] && break
    sleep 0.1; i=$((i + 1))
done
kill "$jpid"; wait "$jpid"
SH
    timeout 60 unshare -m --propagation private sh "$work/journal.sh" "$PWD/$watch" "$work"
    rc=$?
    if [ $rc -ne 0 ]; then fail "the journald namespace could not be set up (exit $rc)"; sed 's/^/    | /' "$work/journald.log" 2>/dev/null | head -5
    else
        if [ "$(cat "$work/nojournal.rc")" = 1 ] && grep -q "is systemd-journald running" "$work/nojournal.out"; then pass "no journald: mmc-watch --journal says so, exit 1"
        else fail "without journald: exit $(cat "$work/nojournal.rc"): $(cat "$work/nojournal.out")"; fi
        [ "$(cat "$work/watch.rc")" = 0 ] && pass "mmc-watch --journal --once: one event sent, exit 0" || fail "mmc-watch --journal: exit $(cat "$work/watch.rc"): $(head -c 300 "$work/watch.out")"
        [ ! -s "$work/watch.out" ] && pass "--journal prints nothing (the record is in the journal)" || fail "--journal printed: $(head -c 200 "$work/watch.out")"
        cp "$work/records.json" "$out"
        got=$($PY -c "
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
j = r[0]
print(len(r) >= 1, j['MMC_EVENT'], j['MMC_SUBSYSTEM'], j['PRIORITY'], j['MESSAGE'], j['_TRANSPORT'], 'MMC_SEQNUM' in j)" "$out" 2>&1)
        [ "$got" = "True change mem 6 change mem null journal True" ] &&
            pass "journalctl -o json finds the record by its fields: $got" || fail "journal record: $got"
    fi
fi

finish
