#!/bin/sh
# check: expect 20
# mmc-watch end to end: options on the host, then one boot of the lab in which
# six watchers (JSON, text, --once, --all, --health in text and in JSON) and
# one that must see nothing run while the card's driver is unbound and
# rebound and its PCI controller is removed and rescanned; the events they
# printed are checked here.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
suite=mmc-watch-lab
watch=build/bin/mmc-watch

# --- on the host: the command line ---------------------------------------
run 0 $watch --help && expect "--help lists --timeout" "$out" "--timeout TIME"
run 0 $watch --version && expect "--version" "$out" "mmc-watch from mmckit [0-9]"
run 2 $watch --timeout 0 && expect "--timeout 0 refused" "$err" "--timeout 0: expected a time above zero"
run 2 $watch --timeout 2x && expect "--timeout with an unknown unit refused, the units named" "$err" "--timeout: '2x': unknown unit 'x' \(use ns, us, ms, s, m or h"
run 2 $watch --timeout && expect "--timeout without a value" "$err" "option '--timeout' needs an argument"
run 2 $watch mmc0 && expect "stray argument" "$err" "unexpected argument 'mmc0'"
run 2 $watch --bogus && expect "unknown option" "$err" "unknown option '--bogus'"

# --- in the lab ------------------------------------------------------------
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
    skip "lab checks: qemu-system-x86_64 not found (run 'make deps')"
    finish; exit
fi

# Runs in the guest (busybox sh). Results go to $SDLAB_OUT for the checks below.
guest='
o=$SDLAB_OUT
card=$(ls /sys/bus/mmc/devices/ | head -n1)
[ -n "$card" ] || { echo "no card in /sys/bus/mmc/devices"; exit 1; }
cardsys=$(cd -P "/sys/bus/mmc/devices/$card" && pwd)
pcidev=${cardsys%%/mmc_host/*}
echo "$card" >$o/card; echo "${cardsys#/sys}" >$o/card_devpath; echo "${pcidev#/sys}" >$o/pci_devpath
socks() { grep -cE "^[^ ]+ +15 +-?[0-9]+ +00000001 " /proc/net/netlink; }
before=$(socks)
(mmc-watch -J --timeout 12 >$o/json 2>$o/json.err; echo $? >$o/json.rc) &
(mmc-watch --timeout 12 >$o/text 2>$o/text.err; echo $? >$o/text.rc) &
(mmc-watch -J --once --timeout 12 >$o/once 2>$o/once.err; echo $? >$o/once.rc) &
(mmc-watch -J --all --timeout 12 >$o/all 2>$o/all.err; echo $? >$o/all.rc) &
(mmc-watch --health --timeout 12 >$o/health 2>$o/health.err; echo $? >$o/health.rc) &
(mmc-watch -J --health --timeout 12 >$o/health-json 2>$o/health-json.err; echo $? >$o/health-json.rc) &
# Events start once all six listen (their sockets show in /proc/net/netlink).
i=0; while [ "$(socks)" -lt $((before + 6)) ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
echo "$before $(socks)" >$o/sockets
waitdev() { i=0; while [ ! -b /dev/mmcblk0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done; }
echo "$card" >/sys/bus/mmc/drivers/mmcblk/unbind
sleep 1
[ -s $o/once.rc ] && echo yes >$o/once.early
echo "$card" >/sys/bus/mmc/drivers/mmcblk/bind
waitdev
echo 1 >"$pcidev/remove"
sleep 1
echo 1 >/sys/bus/pci/rescan
waitdev
[ -b /dev/mmcblk0 ] && echo yes >$o/card.back
sleep 1
(mmc-watch --timeout 1 >$o/none 2>$o/none.err; echo $? >$o/none.rc) &
wait
'
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out" "$err"' EXIT
if SDLAB_QUIET=1 scripts/sdlab --out "$dir" -- sh -c "$guest" >"$dir/lab.log" 2>&1; then
    pass "lab boot ran the watchers"
else
    fail "lab boot failed"; sed 's/^/    | /' "$dir/lab.log" | tail -8
fi
card=$(cat "$dir/card" 2>/dev/null) card_path=$(cat "$dir/card_devpath" 2>/dev/null)
echo "  card $card at $card_path"
read -r socks_before socks_after 2>/dev/null <"$dir/sockets"
if [ "${socks_after:-0}" -ge $((${socks_before:-0} + 6)) ]; then pass "all six watchers listening before the first event"
else fail "watchers not all listening: uevent sockets ${socks_before:-?} before, ${socks_after:-?} after"; fi

# check NAME FILE PYEXPR: PYEXPR over the JSON lines of FILE as ev (a list)
# must be true; on failure the events are shown.
check() {
    if python3 - "$2" "$card_path" "$(cat "$dir/pci_devpath" 2>/dev/null)" "$3" >"$err" 2>&1 <<'EOF'
import json, sys
path, card, pci, expr = sys.argv[1:]
ev = [json.loads(line) for line in open(path)]
def has(action, subsystem, devpath=None, **kw):
    return any(e["action"] == action and e["subsystem"] == subsystem and (devpath is None or e["devpath"] == devpath)
               and all(e.get(k) == v for k, v in kw.items()) for e in ev)
sys.exit(0 if eval(expr) else 1)
EOF
    then pass "$1"; else fail "$1"; sed 's/^/    | /' "$err" "$2" | head -20; fi
}
rc_is() { [ "$(cat "$dir/$2.rc" 2>/dev/null)" = "$3" ] && pass "$1" || fail "$1: exit '$(cat "$dir/$2.rc" 2>/dev/null)', expected $3"; }

j=$dir/json
rc_is "-J --timeout exits 0 after printing events" json 0
check "every line is one JSON object with the documented keys in order" "$j" \
    'ev and all(list(e) == ["time","action","subsystem","devpath","devname","devtype","seqnum","env"] for e in ev)'
check "unbind of the card, subsystem mmc, its devpath" "$j" 'has("unbind", "mmc", card)'
check "bind of the card by mmcblk, with MMC_TYPE=SD" "$j" \
    'any(e["action"] == "bind" and e["devpath"] == card and e["env"].get("DRIVER") == "mmcblk" and e["env"].get("MMC_TYPE") == "SD" for e in ev)'
check "unbind comes before bind" "$j" '[e["action"] for e in ev if e["devpath"] == card][:2] == ["unbind", "bind"]'
check "mmcblk0 removed and added back (block, disk)" "$j" \
    'has("remove", "block", devname="mmcblk0", devtype="disk") and has("add", "block", devname="mmcblk0", devtype="disk")'
check "PCI remove: card and host removed" "$j" \
    'has("remove", "mmc", card) and any(e["action"] == "remove" and e["subsystem"] == "mmc_host" and e["devpath"].startswith(pci + "/mmc_host/") for e in ev)'
check "PCI rescan: host and card added again" "$j" \
    'any(e["action"] == "add" and e["subsystem"] == "mmc_host" for e in ev) and [e["action"] for e in ev if e["subsystem"] == "mmc"][-2:] == ["add", "bind"]'
check "only card, host and mmcblk events without --all" "$j" \
    'all(e["subsystem"] in ("mmc", "mmc_host", "mmc_rpmb") or (e["subsystem"] == "block" and e["devname"].startswith("mmcblk")) for e in ev)'
check "seqnum numbers rise, env carries SUBSYSTEM, time is UTC RFC 3339" "$j" \
    'all(isinstance(e["seqnum"], int) for e in ev) and [e["seqnum"] for e in ev] == sorted(e["seqnum"] for e in ev) and all(e["env"]["SUBSYSTEM"] == e["subsystem"] for e in ev) and all(len(e["time"]) == 24 and e["time"].endswith("Z") for e in ev)'

rc_is "text mode exits 0" text 0
expect "text: unbind line with the card's devpath" "$dir/text" \
    "^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} unbind +mmc +$card_path( |$)"
expect "text: bind line names the driver and card type" "$dir/text" \
    " bind +mmc +$card_path DRIVER=mmcblk MMC_TYPE=SD"
expect "text: block line names the device" "$dir/text" " remove +block +/.*/mmcblk0 DEVNAME=mmcblk0 DEVTYPE=disk"
lines_text=$(wc -l <"$dir/text") lines_json=$(wc -l <"$j")
[ "$lines_text" -eq "$lines_json" ] && pass "text and JSON saw the same $lines_text events" ||
    fail "text has $lines_text lines, JSON $lines_json"

rc_is "--once exits 0" once 0
[ "$(wc -l <"$dir/once")" -eq 1 ] && pass "--once printed exactly one event" || fail "--once printed $(wc -l <"$dir/once") lines"
[ -s "$dir/once.early" ] && pass "--once exited right after the first event" || fail "--once was still running after the unbind"
check "--once printed the first event (unbind)" "$dir/once" \
    'len(ev) == 1 and ev[0]["action"] in ("unbind", "remove")'

rc_is "--all exits 0" all 0
check "--all adds events of other subsystems (bdi, pci)" "$dir/all" \
    'any(e["subsystem"] in ("bdi", "pci") for e in ev) and has("unbind", "mmc", card)'

rc_is "--timeout with no event exits 1" none 1
[ -f "$dir/none" ] && [ ! -s "$dir/none" ] && pass "--timeout with no event prints nothing" || fail "quiet watcher printed something"
[ -s "$dir/card.back" ] && pass "card back as /dev/mmcblk0 after the rescan" || fail "no /dev/mmcblk0 after the rescan"
errs=$(cat "$dir"/*.err 2>/dev/null)
[ -z "$errs" ] && pass "no watcher wrote to stderr" || { fail "watchers wrote to stderr"; echo "$errs" | sed 's/^/    | /' | head -5; }

# --health: each time the card's disk came back (bind, then the rescan),
# mmc-health read it; QEMU's card is in no layout's row and its EXT_CSD-less
# registers give no wear figure: unknown, exit 6 of mmc-health, 0 of the watcher.
rc_is "--health exits 0" health 0
[ "$(grep -cE "^[0-9:.]+ health  /dev/mmcblk0: .*unknown" "$dir/health")" -eq 2 ] &&
    pass "--health: a verdict line (unknown) after each of the two arrivals" ||
    { fail "--health: expected 2 verdict lines"; sed 's/^/    | /' "$dir/health" | head -12; }
rc_is "-J --health exits 0" health-json 0
check "-J --health: the health event carries mmc-health's document, twice" "$dir/health-json" \
    '[(e["device"], e["health"]["verdict"], e["health"]["tool"]) for e in ev if e.get("event") == "health"] == [("/dev/mmcblk0", "unknown", "mmc-health")] * 2'

echo "  events seen (text, then JSON):"
sed 's/^/    /' "$dir/text" "$j" 2>/dev/null
finish
