#!/bin/sh
# check: boards (a cross tree and an ARM guest or qemu-user: make check-boards)
# check: expect 340
# The persistent form of a bus setting on a Raspberry Pi, booted: the Pi lab
# (QEMU's raspi3b, Debian's arm64 kernel and bcm2837-rpi-3-b.dtb, the card on
# the BCM2835 sdhost) started with an overlay applied to its device tree
# (scripts/rpilab --dtbo, as the firmware applies config.txt's dtoverlay=),
# and mmc-bus - the doctor - reading the change in the guest.
#
# QEMU's raspi3b runs no VideoCore firmware: it loads the kernel and the dtb
# itself, so config.txt is never read and a `dtparam=` line cannot be booted
# as such. What a dtparam does is set a property through the Raspberry Pi
# kernel's own dtb (its __overrides__: sd_overclock = <&sdhost>,
# "brcm,overclock-50:0"); Debian's mainline dtb declares no __overrides__,
# so the lab boots the overlay that sets the same property instead. Two
# boots:
# - max-frequency = <25000000> on the SD host (a step down, the dt-overlay
#   form): the kernel obeys it (mmc_of_parse caps f_max) and the doctor must
#   see the clock and the device tree as the limit.
# - brcm,overclock-50 = <62> (what `dtparam=sd_overclock=62` sets on a Pi):
#   mainline's sdhost driver (drivers/mmc/host/bcm2835.c) does not read it,
#   only the Raspberry Pi kernel's does; the clock stays at 50 MHz, and the
#   doctor must not report a clock the kernel is not running (its rule for
#   brcm,overclock-50 holds only when the clock that runs is the property's).
# - the overlay `mmc-tune bus --emit --untested` writes for the Pi 3's slot
#   when a pasted kernel log shows CRC errors at high speed: a lower clock
#   (max-frequency, the plan's first step down, on the node's path since
#   Debian's dtb has no __symbols__), compiled with dtc -@ and booted; the
#   kernel must run it and the doctor read it.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/rpi-lib.sh
reason=$(rpi_lab_skip_reason)
[ -z "$reason" ] || { skip "$reason"; finish; exit; }
command -v dtc >/dev/null 2>&1 && command -v fdtoverlay >/dev/null 2>&1 ||
    { skip "dtc and fdtoverlay not installed (device-tree-compiler: make deps)"; finish; exit; }
if ! scripts/make-locked arm64 -s -j2 cross-arm64 >build/lab-rpi-build.log 2>&1; then
    fail "cross build (make cross-arm64) failed"; tail -n 15 build/lab-rpi-build.log | sed 's/^/    | /'
    finish; exit 1
fi

ovdir=build/lab/rpi-overlays
mkdir -p $ovdir
# overlay NAME PROPERTY-LINE: the compiled overlay setting PROPERTY-LINE on
# the Pi's SD host, named by path (Debian's dtb has no __symbols__).
overlay() {
    printf '/dts-v1/;\n/plugin/;\n\n&{/soc/mmc@7e202000} {\n\t%s\n};\n' "$2" >$ovdir/$1.dtso
    dtc -@ -q -I dts -O dtb -o $ovdir/$1.dtbo $ovdir/$1.dtso
}
# boot NAME: the Pi lab with overlay NAME; res is its results.
boot() {
    # shellcheck disable=SC2046
    lab_boot "Pi lab ($1)" build/lab/rpi-overlay-results/$1 "--board rpi3 --dtbo $ovdir/$1.dtbo --size 1G --timeout 600" \
        "$ovdir/$1.dtbo scripts/sdlab scripts/rpilab scripts/rpilab-init scripts/lab-lib.sh $(echo build/arm64/bin/*)" \
        tests/lab/guest/rpi-bus-overlay.sh || return 1
    res=$lab_run/rpi-bus-overlay
}
h="j['hosts'][0]"

# --- a step down: max-frequency 25 MHz -----------------------------------------
overlay max-frequency-25mhz "max-frequency = <25000000>;"
if boot max-frequency-25mhz; then
    [ "$(cat "$res/dt-max-frequency")" = 25000000 ] && pass "the live tree carries max-frequency 25000000" ||
        fail "live max-frequency: '$(cat "$res/dt-max-frequency" 2>/dev/null)'"
    grep -q "^clock:.*25000000 Hz" "$res/ios" && grep -q "timing spec:.*(sd high-speed)" "$res/ios" &&
        pass "the kernel obeys it: ios HS at 25 MHz" || fail "ios: $(tr '\n' ' ' <"$res/ios")"
    rpi_rc "the card reads at 25 MHz" read 0
    rpi_rc "mmc-bus -J exits 0" bus 0
    rpi_check "the doctor reads max-frequency from the live tree" bus.json "$h['device_tree']['max_frequency_hz']" "25000000"
    rpi_check "... runs HS at 25 MHz: clock ceiling 12.5 MB/s" bus.json \
        "$h['ios']['mode'], $h['ios']['clock_hz'], $h['clock_ceiling_mb_s']" "HS 25000000 12.5"
    rpi_check "... and names the board's device tree as the limit, through the clock" bus.json \
        "$h['limit'], $h['mechanism'], any('max-frequency' in d for d in $h['decided_by'])" "board clock True"
    expect "text: the cause line names the board" "$res/bus.txt" "Cause: +board \(through the clock\)"
fi

# --- dtparam=sd_overclock=62's property: read, not obeyed by mainline ---------
overlay overclock-62 "brcm,overclock-50 = <62>;"
if boot overclock-62; then
    [ "$(cat "$res/dt-brcm,overclock-50")" = 62 ] && pass "the live tree carries brcm,overclock-50 = 62" ||
        fail "live brcm,overclock-50: '$(cat "$res/dt-brcm,overclock-50" 2>/dev/null)'"
    grep -q "^clock:.*50000000 Hz" "$res/ios" && pass "mainline's sdhost driver ignores it: ios still 50 MHz" ||
        fail "ios: $(tr '\n' ' ' <"$res/ios")"
    rpi_rc "mmc-bus -J exits 0" bus 0
    rpi_check "the doctor reports the clock the kernel runs (HS, 50 MHz), not the overclock" bus.json \
        "$h['ios']['mode'], $h['ios']['clock_hz'], $h['mode_ceiling_mb_s']" "HS 50000000 25.0"
    rpi_check "... and does not blame brcm,overclock-50 for a clock it does not set" bus.json \
        "any('brcm,overclock-50' in d for d in $h['decided_by'])" "False"
fi
# --- the tuner's own overlay: a lower clock after CRC errors --------------------
# The evidence a Pi 3 user would paste: the slot's ios at high speed, the
# board's SD node, and a kernel log with CRC errors (error -84) on mmc0.
printf 'clock:\t\t50000000 Hz\nactual clock:\t50000000 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n' >$ovdir/emitted.ios
printf '[    2.1] mmc0: host does not support reading read-only switch, assuming write-enable\n[    2.2] mmc0: new high speed SDHC card at address aaaa\n[    2.3] mmcblk0: mmc0:aaaa QEMU! 1.00 GiB\n[   40.1] mmcblk0: error -84 transferring data, sector 2048, nr 8, cmd response 0x900, card status 0xb00\n[   40.2] mmcblk0: error -84 transferring data, sector 4096, nr 8, cmd response 0x900, card status 0xb00\n' >$ovdir/emitted.dmesg
# The board's tree is the lab's own dtb (Debian's, no __symbols__: the
# overlay targets the node by path), in source form as a user pastes it.
pi_dtb=$(ls build/lab/rpi/kernel/*/usr/lib/linux-image-*/broadcom/bcm2837-rpi-3-b.dtb 2>/dev/null | head -n 1)
[ -n "$pi_dtb" ] && dtc -q -I dtb -O dts -o $ovdir/board.dts "$pi_dtb" || fail "the lab's bcm2837-rpi-3-b.dtb: '$pi_dtb'"
if build/bin/mmc-tune bus -n -J --ios $ovdir/emitted.ios --dt $ovdir/board.dts --dt-node mmc@7e202000 --caps 0xc0000027 --kernel 6.1 \
    --family sd --dmesg $ovdir/emitted.dmesg --emit $ovdir/emitted-lower-clock.dtso --untested >$ovdir/emitted.json 2>$ovdir/emitted.err; then
    pass "mmc-tune bus --emit --untested writes the persistent form"
else fail "mmc-tune bus --emit: $(head -3 $ovdir/emitted.err)"; fi
grep -q 'max-frequency = <37500000>;' $ovdir/emitted-lower-clock.dtso 2>/dev/null &&
    pass "the emitted overlay lowers max-frequency to 37.5 MHz (HS x 0.75)" ||
    fail "emitted overlay: $(tr '\n' ' ' <$ovdir/emitted-lower-clock.dtso 2>/dev/null)"
if dtc -@ -q -I dts -O dtb -o $ovdir/emitted-lower-clock.dtbo $ovdir/emitted-lower-clock.dtso 2>$ovdir/emitted.dtc; then
    pass "dtc -@ compiles it"
    if boot emitted-lower-clock; then
        [ "$(cat "$res/dt-max-frequency")" = 37500000 ] && pass "the live tree carries the emitted max-frequency 37500000" ||
            fail "live max-frequency: '$(cat "$res/dt-max-frequency" 2>/dev/null)'"
        grep -q "^clock:.*37500000 Hz" "$res/ios" && pass "the kernel obeys it: ios at 37.5 MHz" || fail "ios: $(tr '\n' ' ' <"$res/ios")"
        rpi_rc "the card reads at 37.5 MHz" read 0
        rpi_check "the doctor reads the lowered clock from the live tree and from ios" bus.json \
            "$h['device_tree']['max_frequency_hz'], $h['ios']['clock_hz']" "37500000 37500000"
    fi
else fail "dtc -@ refuses the emitted overlay: $(head -3 $ovdir/emitted.dtc)"; fi
finish
