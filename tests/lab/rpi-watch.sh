#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-watch in the Raspberry Pi lab: two watchers (JSON and text) while the
# Pi's SD host is unbound from sdhost-bcm2835 and bound again - the rescan of
# a platform host, which removes the host and its card and finds them anew.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/rpi-lib.sh
reason=$(rpi_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

rpi_lab rpi-watch || { finish; exit 1; }

read -r before after <"$res/sockets" 2>/dev/null
[ "${after:-0}" -ge $((${before:-0} + 2)) ] && pass "both watchers listening before the unbind" ||
    fail "watchers not listening: uevent sockets ${before:-?} before, ${after:-?} after"
[ "$(cat "$res/unbind.rc")" = 0 ] && [ "$(cat "$res/bind.rc")" = 0 ] && pass "sdhost unbound and bound again" ||
    fail "unbind/bind failed"
[ ! -e "$res/still-there" ] && pass "the card went away with its host" || fail "mmcblk0 still there after the unbind"
[ -e "$res/card.back" ] && pass "the card is back after the bind" || fail "no mmcblk0 after the bind"
for w in json text; do
    [ "$(cat "$res/$w.rc" 2>/dev/null)" = 0 ] && pass "$w watcher exits 0 at its timeout" ||
        fail "$w watcher: exit $(cat "$res/$w.rc" 2>/dev/null)"
done

host=$(cat "$res/host")
ev() { # ev NAME PYEXPR: PYEXPR over the JSON events as ev (a list) is true
    if $PY - "$res/json" "$host" "$2" >"$err" 2>&1 <<'PY'
import json, sys
path, host, expr = sys.argv[1:]
ev = [json.loads(line) for line in open(path) if line.strip()]
sys.exit(0 if eval(expr) else 1)
PY
    then pass "$1"; else fail "$1"; sed 's/^/    | /' "$res/json" | head -12; fi
}
ev "the card removed (subsystem mmc)" 'any(e["action"] == "remove" and e["subsystem"] == "mmc" for e in ev)'
ev "the host removed (subsystem mmc_host)" 'any(e["action"] == "remove" and e["subsystem"] == "mmc_host" for e in ev)'
ev "the host added again under the sdhost platform device" \
    'any(e["action"] == "add" and e["subsystem"] == "mmc_host" and host in e["devpath"] for e in ev)'
ev "the card added and bound by mmcblk, typed SD" \
    'any(e["action"] == "bind" and e["subsystem"] == "mmc" and e["env"].get("DRIVER") == "mmcblk" and e["env"].get("MMC_TYPE") == "SD" for e in ev)'
ev "removal before the new card" \
    '[e["action"] for e in ev if e["subsystem"] == "mmc"][0] in ("unbind", "remove") and [e["action"] for e in ev if e["subsystem"] == "mmc"][-1] == "bind"'
expect "text: a remove line for the card" "$res/text" "^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} remove +mmc "
expect "text: the bind line names driver and card type" "$res/text" " bind +mmc .*DRIVER=mmcblk MMC_TYPE=SD"

finish
