#!/bin/sh
# Builds the USB mass-storage fixture trees, by hand: no machine
# here has a USB card reader to capture with scripts/capture-sysfs. The layout
# is the kernel's (Documentation/ABI/stable/sysfs-bus-usb, sysfs-driver-usb-*,
# drivers/usb/storage, drivers/scsi/sd.c):
#   /sys/block/sdb -> ../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb
#   2-1/        the USB device: idVendor idProduct manufacturer product speed version
#   2-1:1.0/    its interface: bInterfaceClass 08 (mass storage), bInterfaceSubClass 06
#               (SCSI transparent), bInterfaceProtocol 50 (bulk-only) or 62 (UAS),
#               driver -> usb-storage or uas
#   6:0:0:0/    the SCSI device: vendor (8 chars) model (16 chars) rev, padded with
#               spaces as the kernel prints INQUIRY data; scsi_disk/6:0:0:0/provisioning_mode
#   block/sdb/  dev size removable queue/discard_max_bytes queue/discard_granularity
# and udev's database, /run/udev/data/b8:16, beside sys/ (E:KEY=VALUE lines,
# as systemd-udevd writes them; ID_DRIVE_FLASH_* come from udisks2's
# 80-udisks2.rules whitelist of reader models).
# USB IDs are rows of libmmc/dev/usb_reader_table.cpp (checked against usb.ids).
set -eu
cd "$(dirname "$0")"

# usb_disk TREE BUS PORT VID PID MANUFACTURER PRODUCT SPEED VERSION DRIVER PROTOCOL SCSI_VENDOR SCSI_MODEL SECTORS DISCARD_MAX PROVISIONING
usb_disk() {
    tree=$1 bus=$2 port=$3 vid=$4 pid=$5 manu=$6 prod=$7 speed=$8 version=$9; shift 9
    driver=$1 protocol=$2 svendor=$3 smodel=$4 sectors=$5 discard_max=$6 provisioning=$7
    host=6 name=sdb devno=8:16
    r=$tree/sys
    ctrl=devices/pci0000:00/0000:00:14.0
    usbdev=$ctrl/usb$bus/$bus-$port
    intf=$usbdev/$bus-$port:1.0
    scsi=$intf/host$host/target$host:0:0/$host:0:0:0
    disk=$scsi/block/$name
    rm -rf "$tree"
    mkdir -p "$r/$disk/queue" "$r/$scsi/scsi_disk/$host:0:0:0" "$r/bus/usb/drivers/$driver" \
        "$r/class/block" "$r/block" "$r/class/mmc_host" "$r/bus/mmc/devices" "$r/dev/block" "$tree/run/udev/data"
    echo "$vid" > "$r/$usbdev/idVendor"; echo "$pid" > "$r/$usbdev/idProduct"
    echo "$manu" > "$r/$usbdev/manufacturer"; echo "$prod" > "$r/$usbdev/product"
    echo "$speed" > "$r/$usbdev/speed"; echo "$version" > "$r/$usbdev/version"
    echo 00 > "$r/$usbdev/bDeviceClass"; echo "$bus" > "$r/$usbdev/busnum"; echo 2 > "$r/$usbdev/devnum"
    echo 08 > "$r/$intf/bInterfaceClass"; echo 06 > "$r/$intf/bInterfaceSubClass"
    echo "$protocol" > "$r/$intf/bInterfaceProtocol"
    ln -s ../../../../../../bus/usb/drivers/$driver "$r/$intf/driver"
    printf '%-8s\n' "$svendor" > "$r/$scsi/vendor"; printf '%-16s\n' "$smodel" > "$r/$scsi/model"
    echo 1.00 > "$r/$scsi/rev"; echo 0 > "$r/$scsi/type"
    echo "$provisioning" > "$r/$scsi/scsi_disk/$host:0:0:0/provisioning_mode"
    echo "$devno" > "$r/$disk/dev"; echo "$sectors" > "$r/$disk/size"; echo 1 > "$r/$disk/removable"; echo 0 > "$r/$disk/ro"
    echo "$discard_max" > "$r/$disk/queue/discard_max_bytes"
    if [ "$discard_max" = 0 ]; then echo 0 > "$r/$disk/queue/discard_granularity"; else echo 512 > "$r/$disk/queue/discard_granularity"; fi
    echo 512 > "$r/$disk/queue/logical_block_size"
    if [ "$sectors" != 0 ]; then
        mkdir -p "$r/$disk/${name}1"
        echo 8192 > "$r/$disk/${name}1/start"; echo $((sectors - 8192)) > "$r/$disk/${name}1/size"; echo 1 > "$r/$disk/${name}1/partition"
        echo 8:17 > "$r/$disk/${name}1/dev"
        ln -s ../../$disk/${name}1 "$r/class/block/${name}1"
        ln -s ../../$disk/${name}1 "$r/dev/block/8:17"
    fi
    ln -s ../../$disk "$r/class/block/$name"
    ln -s ../$disk "$r/block/$name"
    ln -s ../../$disk "$r/dev/block/$devno"
    : > "$tree/run/udev/data/b$devno"
}

udev() { printf '%s\n' "$@" >> "$1/run/udev/data/b8:16"; }

# A Genesys Logic GL827L reader with a 32 GB card, on USB 2.0 high speed
# (EHCI's bus 2 here), usb-storage bulk-only; udev tags it an SD reader.
usb_disk usb2-gl827l 2 1 05e3 0723 Generic "USB Storage" 480 " 2.00" usb-storage 50 Generic- "SD/MMC" 62333952 0 full
udev usb2-gl827l E:ID_BUS=usb E:ID_VENDOR=Generic- E:ID_MODEL=SD_MMC E:ID_USB_DRIVER=usb-storage E:ID_DRIVE_FLASH_SD=1 E:ID_DRIVE_FLASH_MS=1
# The same reader with its slot empty: the disk is there, its medium is not (size 0).
usb_disk usb2-empty 2 1 05e3 0723 Generic "USB Storage" 480 " 2.00" usb-storage 50 Generic- "SD/MMC" 0 0 full
udev usb2-empty E:ID_BUS=usb E:ID_VENDOR=Generic- E:ID_MODEL=SD_MMC E:ID_USB_DRIVER=usb-storage E:ID_DRIVE_FLASH_SD=1 E:ID_DRIVE_FLASH_MS=1
# A USB 3 reader at 5 Gbit/s (xHCI's SuperSpeed bus 4) bound to uas, whose
# firmware passes UNMAP (the kernel chose provisioning_mode unmap). No udev
# flash tags: recognised by its USB ID and its SCSI model alone.
usb_disk usb3-uas 4 1 05e3 0749 Generic "USB3.0 Card Reader" 5000 " 3.20" uas 62 Generic "STORAGE DEVICE" 124735488 4294966784 unmap
udev usb3-uas E:ID_BUS=usb E:ID_VENDOR=Generic E:ID_MODEL=STORAGE_DEVICE E:ID_USB_DRIVER=uas
# A USB flash drive (SanDisk Ultra 0781:5581): mass storage, not a reader.
usb_disk usb-stick 4 2 0781 5581 " USB" " SanDisk 3.2Gen1" 5000 " 3.20" usb-storage 50 " USB" "SanDisk 3.2Gen1" 60063744 0 full
udev usb-stick E:ID_BUS=usb E:ID_VENDOR=USB E:ID_MODEL=SanDisk_3.2Gen1 E:ID_USB_DRIVER=usb-storage

# A Realtek RTS5129 reader (0bda:0129) bound to rtsx_usb, which exposes an MMC
# host (drivers/misc/cardreader/rtsx_usb.c, drivers/mmc/host/rtsx_usb_sdmmc.c):
# the card is mmcblk0 on mmc0 and every register is read as on any MMC host.
tree=rtsx-usb r=$tree/sys
usbdev=devices/pci0000:00/0000:00:14.0/usb1/1-2
ctrl=$usbdev/1-2:1.0/rtsx_usb_sdmmc.4
host=$ctrl/mmc_host/mmc0
card=$host/mmc0:aaaa
rm -rf "$tree"
mkdir -p "$r/$card/block/mmcblk0/mmcblk0p1" "$r/$card/block/mmcblk0/queue" "$r/bus/platform/drivers/rtsx_usb_sdmmc" \
    "$r/bus/usb/drivers/rtsx_usb" "$r/class/mmc_host" "$r/class/block" "$r/bus/mmc/devices" "$r/block" "$r/kernel/debug/mmc0/mmc0:aaaa"
echo 0bda > "$r/$usbdev/idVendor"; echo 0129 > "$r/$usbdev/idProduct"; echo 480 > "$r/$usbdev/speed"
echo "Generic" > "$r/$usbdev/manufacturer"; echo "USB2.0-CRW" > "$r/$usbdev/product"
echo ff > "$r/$usbdev/1-2:1.0/bInterfaceClass"
ln -s ../../../../../../bus/usb/drivers/rtsx_usb "$r/$usbdev/1-2:1.0/driver"
ln -s ../../../../../../../bus/platform/drivers/rtsx_usb_sdmmc "$r/$ctrl/driver"
ln -s ../../../rtsx_usb_sdmmc.4 "$r/$host/device"
# The card: the registers of the sd-qemu tree's card (captured in the lab).
src=sd-qemu/sys/devices/pci0000:00/0000:00:04.0/mmc_host/mmc0/mmc0:4567
for a in cid csd scr ocr ssr name manfid oemid date hwrev fwrev serial erase_size preferred_erase_size; do
    [ -f "$src/$a" ] && cp "$src/$a" "$r/$card/$a"
done
echo SD > "$r/$card/type"; echo 0xaaaa > "$r/$card/rca"
echo 62333952 > "$r/$card/block/mmcblk0/size"; echo 179:0 > "$r/$card/block/mmcblk0/dev"; echo 0 > "$r/$card/block/mmcblk0/removable"
echo 8192 > "$r/$card/block/mmcblk0/mmcblk0p1/start"; echo 62325760 > "$r/$card/block/mmcblk0/mmcblk0p1/size"; echo 1 > "$r/$card/block/mmcblk0/mmcblk0p1/partition"
ln -s ../../devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/rtsx_usb_sdmmc.4/mmc_host/mmc0 "$r/class/mmc_host/mmc0"
ln -s ../../../devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/rtsx_usb_sdmmc.4/mmc_host/mmc0/mmc0:aaaa "$r/bus/mmc/devices/mmc0:aaaa"
ln -s ../../$card/block/mmcblk0 "$r/class/block/mmcblk0"
ln -s ../../$card/block/mmcblk0/mmcblk0p1 "$r/class/block/mmcblk0p1"
ln -s ../$card/block/mmcblk0 "$r/block/mmcblk0"
printf 'clock:\t\t50000000 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\nchip select:\t0 (don'"'"'t care)\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\ndriver type:\t0 (driver type B)\n' > "$r/kernel/debug/mmc0/ios"
