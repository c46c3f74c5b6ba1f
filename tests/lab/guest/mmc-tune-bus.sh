# Runs inside the SD lab (tests/lab/mmc-tune-bus.sh boots it twice: once on
# bookworm-backports' 6.12, once on bookworm's 6.1). The host's debugfs and
# the card's runtime PM are read and changed by this script itself first (the
# kernel's facts the tool relies on), then through `mmc-tune bus`; every
# state is recorded in $o for the host's checks. Busybox sh.
o=${o:-$SDLAB_OUT}
d=/sys/kernel/debug/mmc0
card=$(ls -d /sys/bus/mmc/devices/mmc0:* | head -n1)
uname -r >$o/kernel
# pty-run's terminals (the lab's /init mounts no devpts).
[ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts; mount -t devpts -o ptmxmode=0666 devpts /dev/pts; }

# ios_state: "CLOCK ACTUAL TIMING" from debugfs ios ("50000000 26000000 sd
# high-speed"), read with the shell alone: the sampler below calls it often.
ios_state() {
    t=- c=- a=-
    while IFS= read -r l; do
        case $l in
        "timing spec:"*) t=${l##*(}; t=${t%)} ;;
        "clock:"*) set -- ${l#clock:}; c=$1 ;;
        "actual clock:"*) set -- ${l#actual clock:}; a=$1 ;;
        esac
    done <$d/ios
    echo "$c $a $t"
}
# host_state: every setting the tool may change and must put back, on one line.
host_state() {
    echo "caps=$(cat $d/caps) caps2=$(cat $d/caps2) clock=$(cat $d/clock)" \
        "control=$(cat $card/power/control) delay=$(cat $card/power/autosuspend_delay_ms)" \
        "ios=$(ios_state | tr ' ' ,)"
}
# w NAME FILE VALUE: writes VALUE to FILE; NAME.rc holds the status, NAME.err the shell's message.
w() { ( echo "$3" >"$2" ) 2>$o/$1.err; echo $? >$o/$1.rc; }
wait_status() { # wait_status WANT: runtime_status reaches WANT within 20 s
    i=0
    while [ "$(cat $card/power/runtime_status)" != "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    [ "$(cat $card/power/runtime_status)" = "$1" ]
}
# reinit: the kernel's way to re-initialise the card with the current caps
# (AGGRESSIVE_PM must be set): runtime suspend powers it off, resume inits it.
reinit() {
    echo 0 >$card/power/autosuspend_delay_ms
    echo auto >$card/power/control
    wait_status suspended || echo "reinit: never suspended" >>$o/facts.log
    echo on >$card/power/control
    wait_status active || echo "reinit: never resumed" >>$o/facts.log
    echo 3000 >$card/power/autosuspend_delay_ms
}
# sampler FILE: appends "UPTIME TIMING CLOCK ACTUAL" each time ios changes,
# every 50 ms (a sampling period, not a synchronisation) until FILE.stop
# exists, and once more then: the last line is the state after the tool
# ended (a sample taken mid re-init and the stop inside one period would
# otherwise end the file at 400 kHz).
sampler() {
    last=""
    while :; do
        stopping=no; [ -e $1.stop ] && stopping=yes
        s=$(ios_state)
        [ "$s" = "$last" ] || { read -r up _ </proc/uptime; echo "$up $s" >>$1; last=$s; }
        [ $stopping = no ] || break
        sleep 0.05
    done
}
start_sampler() { rm -f $o/$1.ios $o/$1.ios.stop; sampler $o/$1.ios & sampler_pid=$!; }
stop_sampler() { touch $o/$1.ios.stop; wait $sampler_pid; }

host_state >$o/start.state
cp $d/err_stats $o/start.err_stats

# --- 1. The kernel's own facts, by hand ------------------------------------
caps=$(cat $d/caps) caps2=$(cat $d/caps2) control=$(cat $card/power/control) clock=$(cat $d/clock)
w caps-same $d/caps $caps
w caps-bad $d/caps $(printf '0x%08x' $((caps ^ 0x100)))   # NONREMOVABLE: outside what debugfs may change
if [ "$(cat $o/caps-same.rc)" = 0 ]; then
    # HS -> legacy: SD_HIGHSPEED (bit 2) cleared, AGGRESSIVE_PM (bit 7) set, re-init.
    w legacy $d/caps $(printf '0x%08x' $(((caps & ~0x4) | 0x80)))
    reinit
    ios_state >$o/facts-legacy.ios
    # Back: the start caps with AGGRESSIVE_PM for the re-init, then the start caps.
    w back $d/caps $(printf '0x%08x' $((caps | 0x80)))
    reinit
    w back2 $d/caps $caps
    ios_state >$o/facts-back.ios
    echo $control >$card/power/control
fi
# A clock step through debugfs, with the card kept awake (an idle runtime
# suspend would re-init it at the kernel's clock), then the clock put back.
echo on >$card/power/control
w clock-step $d/clock 25000000
ios_state >$o/facts-clock.ios
w clock-low $d/clock 100000                                  # below f_min
w clock-back $d/clock $clock
echo $control >$card/power/control
host_state >$o/facts-end.state

# --- 2. mmc-tune bus: the plan -----------------------------------------------
mmc-tune bus -n -J /dev/mmcblk0 >$o/plan.json 2>$o/plan.err; echo $? >$o/plan.rc
host_state >$o/plan-after.state

# --- 3. The trials, undone at the end ----------------------------------------
# Every run gets --time 300s: under TCG one trial's read pass (8 regions of
# 4 MiB, twice) takes 15-30 s, over the default 30 s bound on a busy machine.
T="--time 300s"
# QEMU's card never errs, and the planner steps the clock down only where the
# kernel log shows signal errors; so the log gets the line a card with CRC
# errors makes the block driver print (drivers/mmc/core/block.c), as if the
# card had failed before. The tool reads it; nothing else does.
echo "<3>mmcblk0: error -84 transferring data, sector 2048, nr 8, cmd response 0x900, card status 0xb00" >/dev/kmsg
dmesg | grep -c "error -84 transferring data" >$o/injected.count
# wait_progress FILE TEXT PID: until FILE (a pty-run log) holds TEXT, PID
# has ended, or 300 s have passed.
wait_progress() {
    i=0
    until grep -q "$2" $1 2>/dev/null; do
        kill -0 $3 2>/dev/null || return 1
        [ $i -lt 3000 ] || return 1
        sleep 0.1; i=$((i + 1))
    done
}
# wait_caps_bit BIT PID: until debugfs caps has BIT set, PID has ended, or 300 s.
wait_caps_bit() {
    i=0
    until [ $(($(cat $d/caps) & $1)) -ne 0 ]; do
        kill -0 $2 2>/dev/null || return 1
        [ $i -lt 3000 ] || return 1
        sleep 0.1; i=$((i + 1))
    done
}
# 3a. The clock step: HS at the kernel's clock fails (CRC lines land in the
# kernel log during its trial), so HS at 37.5 MHz, the planner's next step,
# is trialled. The lines are written once the tool says "trial 1: HS" and
# debugfs caps carries AGGRESSIVE_PM (bit 7), which the trial sets after it
# marks the kernel log: both the core's line, which names the host, and the
# block driver's, which names the disk.
start_sampler apply
pty-run $o/apply.progress mmc-tune bus --apply --yes $T -J /dev/mmcblk0 >$o/apply.json 2>$o/apply.err </dev/null &
pid=$!
if wait_progress $o/apply.progress "trial 1: HS" $pid && wait_caps_bit 0x80 $pid; then
    echo "<3>mmc0: error -84 whilst initialising SD card" >/dev/kmsg
    echo "<3>mmcblk0: error -84 transferring data, sector 4096, nr 8, cmd response 0x900, card status 0xb00" >/dev/kmsg
    echo yes >$o/apply.injected
else
    echo no >$o/apply.injected
fi
wait $pid; echo $? >$o/apply.rc
stop_sampler apply
host_state >$o/apply-after.state
# 3b. The step-down HS -> legacy (--mode legacy: the only step trialled).
start_sampler legacy
mmc-tune bus --apply --yes --mode legacy $T -J /dev/mmcblk0 >$o/legacy.json 2>$o/legacy.err </dev/null; echo $? >$o/legacy.rc
stop_sampler legacy
host_state >$o/legacy-after.state
mmc-tune bus --apply --yes --mode legacy $T /dev/mmcblk0 >$o/apply.txt 2>&1 </dev/null; echo $? >$o/apply-text.rc
host_state >$o/apply-text-after.state

case $(uname -r) in 6.[0-3].* | [1-5].*) exit 0 ;; esac # the rest needs writable caps

# --- 4. --keep, then --undo, from a start the trials change: the clock
#        stepped down to 25 MHz with the card held awake ----------------------
export MMCKIT_RUN_DIR=$o/run
echo on >$card/power/control
echo 25000000 >$d/clock
host_state >$o/keep-before.state
mmc-tune bus --apply --yes --keep $T -J /dev/mmcblk0 >$o/keep.json 2>$o/keep.err </dev/null; echo $? >$o/keep.rc
host_state >$o/keep-after.state
ls $o/run >$o/keep-run.ls 2>&1
mmc-tune bus --undo -J /dev/mmcblk0 >$o/undo.json 2>$o/undo.err </dev/null; echo $? >$o/undo.rc
host_state >$o/undo-after.state
ls -A $o/run >$o/undo-run.ls 2>&1
mmc-tune bus --undo /dev/mmcblk0 >$o/undo2.out 2>$o/undo2.err </dev/null; echo $? >$o/undo2.rc
echo $clock >$d/clock
echo $control >$card/power/control
unset MMCKIT_RUN_DIR

# --- 5. Ctrl-C mid-trial -------------------------------------------------------
# The handshake: the tool's progress line (on a terminal, through pty-run)
# names the legacy trial, and ios (sampled) shows legacy at 25 MHz: the host
# is in the trial's mode when SIGINT arrives. Bounded: 300 s for the
# handshake, 120 s for the exit.
host_state >$o/int-before.state
start_sampler int
pty-run $o/int.progress mmc-tune bus --apply --yes --mode legacy $T -J /dev/mmcblk0 >$o/int.json 2>$o/int.err </dev/null &
pid=$!
i=0
until grep -q "trial .*legacy" $o/int.progress 2>/dev/null && [ "$(tail -n1 $o/int.ios 2>/dev/null | cut -d' ' -f2-)" = "25000000 13000000 legacy" ]; do
    kill -0 $pid 2>/dev/null || break
    [ $i -lt 3000 ] || break
    sleep 0.1; i=$((i + 1))
done
tail -n1 $o/int.ios >$o/int-at-signal.ios
kill -0 $pid 2>/dev/null && echo yes >$o/int.running || echo no >$o/int.running
kill -INT $pid
(sleep 120; kill -KILL $pid 2>/dev/null) &
watchdog=$!
wait $pid; echo $? >$o/int.rc
kill $watchdog 2>/dev/null
stop_sampler int
host_state >$o/int-after.state
ls -A /run/mmckit >$o/int-run.ls 2>&1
cp $d/err_stats $o/end.err_stats
