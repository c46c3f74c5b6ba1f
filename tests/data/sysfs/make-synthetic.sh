#!/bin/sh
# Builds the two fixture trees no lab can capture here: an eMMC on a
# device-tree board and a card behind a USB reader. Their register values are
# real dumps from tests/data/registers.json (an 8 GB Samsung eMMC CID, a
# SanDisk iNAND CSD, an eMMC 5.1 EXT_CSD); the layout follows a Raspberry Pi
# CM4 (sdhci-iproc) and an xHCI USB reader. The SD tree (sd-qemu/) was
# captured in the lab with scripts/capture-sysfs.
set -eu
cd "$(dirname "$0")"
ext_csd=$(python3 -c "import json; d=json.load(open('../registers.json')); print([e['hex'] for e in d if e['kind']=='ext_csd'][0])")

rm -rf emmc-cm4 usb-reader

# --- eMMC on mmc1, controller fe340000.mmc (device tree) ------------------
r=emmc-cm4/sys
ctrl=devices/platform/emmc2bus/fe340000.mmc
host=$ctrl/mmc_host/mmc1
card=$host/mmc1:0001
mkdir -p "$r/$card/block/mmcblk1/mmcblk1p1" "$r/$card/block/mmcblk1/mmcblk1p2" \
    "$r/$card/block/mmcblk1/mmcblk1boot0" "$r/$card/block/mmcblk1/mmcblk1boot1" "$r/$ctrl/of_node" \
    "$r/bus/platform/drivers/sdhci-iproc" "$r/class/mmc_host" "$r/class/block" "$r/bus/mmc/devices" "$r/block" \
    "$r/kernel/debug/mmc1/mmc1:0001"
ln -s ../../../../bus/platform/drivers/sdhci-iproc "$r/$ctrl/driver"
printf 'brcm,bcm2711-emmc2\0' > "$r/$ctrl/of_node/compatible"
printf 'mmc1\0' > "$r/$ctrl/of_node/name"
ln -s ../../../fe340000.mmc "$r/$host/device"
echo MMC > "$r/$card/type"
echo M8G1GC > "$r/$card/name"
echo 1501004d384731474303dc0db061506f > "$r/$card/cid"
echo d00f00320f5903fffffffdff8a404000 > "$r/$card/csd"
echo 0x00000080 > "$r/$card/ocr"
echo 0x000015 > "$r/$card/manfid"
echo 05/2013 > "$r/$card/date"
echo 0x8 > "$r/$card/rev"
echo 122142720 > "$r/$card/block/mmcblk1/size"
printf '8192\n524288\n' | { read -r s; read -r n; echo "$s" > "$r/$card/block/mmcblk1/mmcblk1p1/start"; echo "$n" > "$r/$card/block/mmcblk1/mmcblk1p1/size"; }
echo 532480 > "$r/$card/block/mmcblk1/mmcblk1p2/start"; echo 121610240 > "$r/$card/block/mmcblk1/mmcblk1p2/size"
echo 1 > "$r/$card/block/mmcblk1/mmcblk1p1/partition"; echo 2 > "$r/$card/block/mmcblk1/mmcblk1p2/partition"
# Boot areas are disks of their own whose parent is the main disk.
for b in boot0 boot1; do echo 8192 > "$r/$card/block/mmcblk1/mmcblk1$b/size"; echo 1 > "$r/$card/block/mmcblk1/mmcblk1$b/ro"; done
ln -s ../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc1 "$r/class/mmc_host/mmc1"
ln -s ../../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc1/mmc1:0001 "$r/bus/mmc/devices/mmc1:0001"
ln -s ../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc1/mmc1:0001/block/mmcblk1 "$r/class/block/mmcblk1"
for p in mmcblk1p1 mmcblk1p2 mmcblk1boot0 mmcblk1boot1; do
    ln -s ../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc1/mmc1:0001/block/mmcblk1/$p "$r/class/block/$p"
done
ln -s ../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc1/mmc1:0001/block/mmcblk1 "$r/block/mmcblk1"
printf 'clock:\t\t200000000 Hz\nactual clock:\t200000000 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\nchip select:\t0 (don'"'"'t care)\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t9 (mmc HS200)\nsignal voltage:\t1 (1.80 V)\ndriver type:\t0 (driver type B)\n' > "$r/kernel/debug/mmc1/ios"
echo 0x40000145 > "$r/kernel/debug/mmc1/caps"
echo 0x00000020 > "$r/kernel/debug/mmc1/caps2"
echo "$ext_csd" > "$r/kernel/debug/mmc1/mmc1:0001/ext_csd"
echo 00000900 > "$r/kernel/debug/mmc1/mmc1:0001/status"

# --- an SD card behind a USB reader: sda, no MMC host -----------------------
r=usb-reader/sys
disk=devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda
mkdir -p "$r/$disk/sda1" "$r/class/block" "$r/block" "$r/class/mmc_host" "$r/bus/mmc/devices"
echo 62333952 > "$r/$disk/size"
echo 8192 > "$r/$disk/sda1/start"; echo 62325760 > "$r/$disk/sda1/size"; echo 1 > "$r/$disk/sda1/partition"
ln -s ../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda "$r/class/block/sda"
ln -s ../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1 "$r/class/block/sda1"
ln -s ../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda "$r/block/sda"
