#!/bin/sh
# One card, one identity: every tool that names a card gives the same
# "card" object (dev::identify), on each fixture card.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
keys="['capacity_bytes', 'controller', 'date', 'device', 'host', 'manufacturer', 'name', 'product', 'rca', 'serial', 'type']"

for fixture in sd-qemu:mmcblk0 emmc-cm4:mmcblk1; do
    tree=tests/data/sysfs/${fixture%%:*}/sys dev=${fixture#*:}
    run 0 build/bin/mmc-info -J --no-ioctl --sysfs-root "$tree" "$dev" && cp "$out" "$tmp/info.json"
    run 0 build/bin/mmc-erase -n -J --no-ioctl --sysfs-root "$tree" "$dev" && cp "$out" "$tmp/erase.json"
    run 0 build/bin/mmc-info -J --sysfs-root "$tree" && cp "$out" "$tmp/list.json"
    got=$($PY - "$tmp" "$keys" <<'PY'
import json, sys
d = sys.argv[1]
info = json.load(open(d + "/info.json"))["card"]
erase = json.load(open(d + "/erase.json"))["card"]
listed = [c["card"] for c in json.load(open(d + "/list.json"))["cards"] if c["card"]["name"] == info["name"]][0]
keys = sorted(info)
# The list reads sysfs only (no CID decode): the same keys, and what it has agrees.
same = all(listed[k] == info[k] for k in ("name", "type", "capacity_bytes", "host", "device", "rca"))
print(keys == eval(sys.argv[2]), info == erase, sorted(listed) == keys and same, info["product"] is not None)
PY
)
    if [ "$got" = "True True True True" ]; then pass "${fixture%%:*}: mmc-info, mmc-erase and the card list name the card alike"
    else fail "${fixture%%:*}: identity objects differ (keys, erase, list, product): $got"; fi
done
finish
