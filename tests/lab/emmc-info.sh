#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# mmc-info and mmc-bus on the emulated eMMC of the eMMC lab (an Aspeed AST2600
# board, boot partitions on): EXT_CSD by CMD8 and from debugfs agree, the boot
# areas and the boot configuration are decoded, CID/CSD decode as MMC, every
# EXT_CSD field Debian's mmc-utils prints has the same value in mmc-info (the
# peer oracle), and mmc-bus finds the HS52 limits of card, host and board.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/emmc-lib.sh
reason=$(emmc_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }

emmc_lab emmc-info || { finish; exit 1; }

check() { # check NAME FILE PYEXPR EXPECTED
    got=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); r=j.get('registers',{}); print($3)" "$res/$2" 2>&1)
    if [ "$got" = "$4" ]; then pass "$1"; else fail "$1: got '$got', expected '$4'"; fi
}
# Lines "PASS text" / "FAIL text" from a checker become results here.
results() { while IFS= read -r line; do case $line in PASS\ *) pass "${line#PASS }" ;; FAIL\ *) fail "${line#FAIL }" ;; *) echo "  $line" ;; esac; done; }

# --- EXT_CSD: by CMD8, from debugfs, the same bytes ------------------------
rc "mmc-info -J exits 0" info 0
check "EXT_CSD read by CMD8 (ioctl)" info.json "r['ext_csd']['source']" "ioctl"
rc "mmc-info --no-ioctl -J exits 0" noioctl 0
check "--no-ioctl: EXT_CSD from debugfs" noioctl.json "r['ext_csd']['source']" "debugfs"
ioctl_hex=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['registers']['ext_csd']['hex'])" "$res/info.json" 2>/dev/null)
debugfs_hex=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['registers']['ext_csd']['hex'])" "$res/noioctl.json" 2>/dev/null)
if [ ${#ioctl_hex} -eq 1024 ] && [ "$ioctl_hex" = "$debugfs_hex" ]; then
    pass "EXT_CSD by CMD8 and from debugfs: the same 512 bytes"
else
    fail "EXT_CSD by CMD8 (${#ioctl_hex} hex digits) and from debugfs differ"
fi
raw=$(tr -d ' \n' <"$res/debugfs-ext_csd" | tr 'A-F' 'a-f')
[ "$raw" = "$ioctl_hex" ] && pass "EXT_CSD hex is the kernel's debugfs ext_csd" || fail "EXT_CSD hex differs from debugfs ext_csd"
check "EXT_CSD decoded as eMMC 4.41 (EXT_CSD_REV 5)" info.json \
    "r['ext_csd']['fields']['ext_csd_rev'], r['ext_csd']['decoded']['mmc_version']" "5 4.41"
check "a 4 GiB user area (the image less the boot and RPMB areas), sector addressed" info.json \
    "r['ext_csd']['fields']['sec_count'], r['ext_csd']['decoded']['capacity_bytes'], r['ext_csd']['decoded']['block_addressed']" \
    "8388608 4294967296 True"
check "an RPMB area of 4 MiB (RPMB_SIZE_MULT 32), as the lab makes by default" info.json \
    "r['ext_csd']['fields']['rpmb_size_mult'], r['ext_csd']['decoded']['rpmb_bytes']" "32 4194304"
[ "$(cat "$res/rpmb.dev" 2>/dev/null)" = char ] && pass "the kernel offers the RPMB area as /dev/mmcblk0rpmb" ||
    fail "no character device /dev/mmcblk0rpmb: $(cat "$res/rpmb.dev" 2>/dev/null)"

# --- boot partitions and the boot configuration ----------------------------
for b in 0 1; do
    s=$(cat "$res/boot$b.sectors" 2>/dev/null)
    [ "$s" = 2048 ] && pass "the kernel sees mmcblk0boot$b (1 MiB)" || fail "mmcblk0boot$b: $s sectors, expected 2048"
done
check "boot areas listed with their sizes" info.json \
    "[(p['name'], p['bytes'], p['boot_area']) for p in j['partitions'] if p['boot_area']]" \
    "[('mmcblk0boot0', 1048576, True), ('mmcblk0boot1', 1048576, True)]"
expect "text view names the boot areas" "$res/info.txt" "^Boot area: +mmcblk0boot0 "
check "BOOT_SIZE_MULT 8: 1 MiB each" info.json \
    "r['ext_csd']['fields']['boot_size_mult'], r['ext_csd']['decoded']['boot_partition_bytes']" "8 1048576"
check "PARTITION_CONFIG 0x08: boot from boot0, user area accessed, no boot ack" info.json \
    "hex(r['ext_csd']['fields']['partition_config']), r['ext_csd']['decoded']['boot_partition_enable'], r['ext_csd']['decoded']['partition_access'], r['ext_csd']['decoded']['boot_ack']" \
    "0x8 boot0 user False"
check "boot configuration: bus conditions, protection, write protection" info.json \
    "r['ext_csd']['fields']['boot_bus_conditions'], r['ext_csd']['fields']['boot_config_prot'], r['ext_csd']['decoded']['boot_wp_status_text']" \
    "0 0 boot0 not protected, boot1 not protected"
expect "text view: boot partition enabled" "$res/info.txt" "Boot partition enabled +boot0"

# --- the card: an MMC, RCA 0x0001, CID/CSD decoded as MMC -------------------
check "an MMC card named QEMU!!, RCA 0x0001" info.json "j['card']['type'], j['family'], j['card']['product'], j['card']['rca'], j['card']['name']" \
    "MMC mmc QEMU!! 0x0001 mmc0:0001"
check "CID and CSD by CMD10/CMD9, decoded as MMC" info.json \
    "r['cid']['source'], r['cid']['card'], r['csd']['source'], r['csd']['card']" "ioctl mmc ioctl mmc"
check "CID: product QEMU!!, serial 0xdeadbeef" info.json \
    "r['cid']['fields']['pnm'], r['cid']['decoded']['serial_hex']" "QEMU!! 0xdeadbeef"
check "CSD: spec 4.x, capacity left to EXT_CSD" info.json \
    "r['csd']['fields']['spec_vers'], r['csd']['decoded']['csd_capacity_is_placeholder']" "4 True"
check "controller sdhci-aspeed" info.json "j['host_controller']['driver']" "sdhci-aspeed"
rc "listing exits 0" list 0
check "listing: the eMMC, typed MMC" list.json "[(c['card']['name'], c['card']['type'], c['card']['capacity_bytes']) for c in j['cards']]" \
    "[('mmc0:0001', 'MMC', 4294967296)]"

# --- the peer oracle: mmc-utils' `mmc extcsd read`, field by field ----------
rc "mmc extcsd read exits 0" extcsd 0
python3 - "$res/extcsd.txt" "$res/info.json" <<'EOF' | results
import json, re, sys

text = open(sys.argv[1]).read()
ext = json.load(open(sys.argv[2]))["registers"]["ext_csd"]
fields, raw = ext["fields"], bytes.fromhex(ext["hex"])

# mmc-utils names that are not JEDEC's, for the same bytes.
ALIASES = {
    "BOOT_SIZE_MULTI": "BOOT_SIZE_MULT",   # EXT_CSD[226]
    "CARD_TYPE": "DEVICE_TYPE",            # EXT_CSD[196], renamed DEVICE_TYPE in eMMC 4.41
    "HPI_FEATURE": "HPI_FEATURES",         # EXT_CSD[503]
    "EXT_CSD_DEVICE_LIFE_TIME_EST_TYP_A": "DEVICE_LIFE_TIME_EST_TYP_A",
    "EXT_CSD_DEVICE_LIFE_TIME_EST_TYP_B": "DEVICE_LIFE_TIME_EST_TYP_B",
    "EXT_CSD_PRE_EOL_INFO": "PRE_EOL_INFO",
}
# Where mmc-utils prints a computed value, not the field: how to get the
# field back from what it prints, and why.
COMPUTED = {
    # "Cache Size [CACHE_SIZE] is %d KiB": the 4-byte field itself, in kb units
    # by JEDEC, which mmc-utils labels KiB; the number is the field.
    "CACHE_SIZE": (lambda v: v, "mmc-utils prints the raw field with a KiB label"),
    # "Command Queue Depth [CMDQ_DEPTH]: %u": mmc-utils prints (field & 0x1f) + 1,
    # the queue depth, not the N-1 coded field.
    "CMDQ_DEPTH": (lambda v: v - 1, "mmc-utils prints the depth, field + 1"),
}

printed = []  # (name or byte index, value, line)
unparsed = []
m = re.search(r"Extended CSD rev 1\.(\d+)", text)
if m:
    printed.append(("EXT_CSD_REV", int(m.group(1)), m.group(0)))
for line in text.splitlines():
    found = False
    for m in re.finditer(r"\[([A-Z][A-Z0-9_]*)\[(\d+)\]\]: 0x([0-9a-fA-F]+)", line):
        printed.append((int(m.group(2)), int(m.group(3), 16), line.strip())); found = True
    for m in re.finditer(r"\[([A-Z][A-Z0-9_]*): 0x([0-9a-fA-F]+)\]", line):
        printed.append((m.group(1), int(m.group(2), 16), line.strip())); found = True
    for m in re.finditer(r"\[([A-Z][A-Z0-9_]*)\]:? (?:is )?(0x[0-9a-fA-F]+|\d+)", line):
        printed.append((m.group(1), int(m.group(2), 0), line.strip())); found = True
    if not found and re.search(r"\[[A-Z][A-Z0-9_]*", line):
        unparsed.append(line.strip())

compared = bad = 0
for key, value, line in printed:
    if isinstance(key, int):  # a byte by its index
        ours = raw[key] if key < len(raw) else None
        where = f"EXT_CSD[{key}]"
    else:
        name = ALIASES.get(key, key)
        ours = fields.get(name.lower())
        where = name if name == key else f"{key} (JEDEC {name})"
        if key in COMPUTED and ours is not None:
            value = COMPUTED[key][0](value)
    if ours is None:
        print(f"FAIL oracle: mmc-utils prints {where} = {value:#x} ({line!r}); mmc-info has no such field")
        bad += 1
        continue
    compared += 1
    if ours != value:
        print(f"FAIL oracle: {where}: mmc-utils {value:#x}, mmc-info {ours:#x} ({line!r})")
        bad += 1
for line in unparsed:
    print(f"FAIL oracle: cannot read mmc-utils line {line!r}")
print(f"mmc-utils printed {len(printed)} EXT_CSD fields; compared {compared} with mmc-info, {bad} missing or different")
if compared >= 30 and not bad and not unparsed:
    print(f"PASS oracle: mmc extcsd read and mmc-info agree where both print ({compared} fields compared)")
elif compared < 30:
    print(f"FAIL oracle: only {compared} fields compared (expected 30 or more on an EXT_CSD rev 3 eMMC)")
EOF

# --- mmc-bus: HS52 on 4 bits, limited by the card and the host ------------
rc "mmc-bus -J exits 0" bus 0
check "running MMC-HS at 52 MHz on 4 bits" bus.json \
    "j['hosts'][0]['ios']['mode'], j['hosts'][0]['ios']['clock_hz'], j['hosts'][0]['ios']['bus_width_bits']" "MMC-HS 52000000 4"
check "ceilings: mode 52 MB/s, clock 26 MB/s" bus.json \
    "j['hosts'][0]['mode_ceiling_mb_s'], j['hosts'][0]['clock_ceiling_mb_s'], j['hosts'][0]['ceiling_mb_s']" "52.0 26.0 26.0"
check "card best mode MMC-HS" bus.json "j['hosts'][0]['card_best_mode']" "MMC-HS"
finding() { # finding NAME REGEX: a finding of hosts[0] matches REGEX
    got=$(python3 -c "import json,re,sys; h=json.load(open(sys.argv[1]))['hosts'][0]; print(any(re.search(sys.argv[2], f['text']) for f in h['findings']))" "$res/bus.json" "$2" 2>&1)
    [ "$got" = True ] && pass "$1" || fail "$1: no finding matches /$2/"
}
finding "finding: the card is limited to HS52 by its DEVICE_TYPE" "limited to HS52 by its DEVICE_TYPE 0x03"
finding "finding: the host has no HS200" "host offers no .*HS200"
finding "finding: the bus is 4 bits wide, not 8" "runs 4 bits wide; MMC-HS is rated for 8"
# The board's device tree (AST2600) is read from the host's of_node and reported.
check "device tree read: the node's compatible as the kernel has it" bus.json \
    "j['hosts'][0]['device_tree']['compatible'] == open('$res/of_node.compatible').read().split()" "True"
check "device tree read: the node is the AST2600 eMMC host" bus.json \
    "any('ast2600' in c for c in j['hosts'][0]['device_tree']['compatible'])" "True"
check "device tree read: its source is the live of_node" bus.json \
    "j['hosts'][0]['device_tree']['source'] == open('$res/of_node.path').read().strip()" "True"
check "the cause is named with what decided it" bus.json \
    "j['hosts'][0]['limit'] in ('host', 'board', 'card', 'tuning', 'none', 'unknown') and (bool(j['hosts'][0]['decided_by']) or bool(j['hosts'][0]['would_decide']))" "True"
if grep -q "^  Device tree: " "$res/bus.txt"; then pass "mmc-bus -v reports the device tree"; else fail "mmc-bus -v reports the device tree"; sed 's/^/    | /' "$res/bus.txt" | head -12; fi

finish
