#!/bin/sh
# check: expect 300
# check: boards (two lab boots, 6.12 and 6.1, about 5 minutes: make check-boards and make check-all run it; make check stays short)
# check: limit 1500
# mmc-tune bus against the real kernel MMC stack: the SD lab (QEMU sdhci-pci
# and its SD card, which offer legacy and HS only) booted twice, on
# bookworm-backports' 6.12 (debugfs caps writable: live trials) and on
# bookworm's 6.1 (not: the plan only). The guest script is
# tests/lab/guest/mmc-tune-bus.sh; it reads ios itself, so what the tool says
# it did is checked against what the kernel shows.
#
# What these kernels do on this host (measured in the lab, 2026-12):
# - Start: caps 0x4000000f (4_BIT_DATA, MMC_HIGHSPEED, SD_HIGHSPEED, SDIO_IRQ),
#   caps2 0x00024000, debugfs clock 50000000; ios "sd high-speed", clock 50 MHz,
#   actual clock 26 MHz. The card's power/control is "auto" (no udev),
#   autosuspend_delay_ms 3000. err_stats present on both kernels.
# - 6.12: caps, caps2, clock 0600. A write of caps changing a bit outside
#   debugfs' allowed set (NONREMOVABLE) fails with EINVAL. The recipe works:
#   SD_HIGHSPEED cleared and AGGRESSIVE_PM set, power/control auto, wait
#   runtime_status "suspended", then "on": ios "legacy", 25 MHz (actual 13).
#   Without AGGRESSIVE_PM the suspend/resume re-initialises nothing; caps
#   written back without a re-init leave ios as it is.
# - With AGGRESSIVE_PM set and power/control auto, a 3 s idle powers the card
#   off and the next I/O re-initialises it at the kernel's clock: a debugfs
#   clock write survives only with power/control "on".
# - debugfs clock (6.1 and 6.12): a write takes effect at once (25 MHz -> ios
#   25 MHz, actual 13 MHz); below f_min (100 kHz) or above f_max (60 MHz):
#   EINVAL; 0 is accepted and stops the clock; the bound is the host's, not the
#   mode's (legacy at 50 MHz is accepted).
# - mmc-tune bus plans clock steps only where the kernel log shows signal
#   errors, and stops at the fastest clean mode; QEMU's card never errs. So
#   the guest writes the block driver's own CRC line to /dev/kmsg before the
#   trials, and once more while HS is being trialled (on the tool's progress
#   line "trial 1: HS"): HS is rejected and HS at 37.5 MHz trialled. The
#   step-down is asked for by name (--mode legacy).
# - 6.1: caps and caps2 0400; a write, even of the same value, fails with
#   EACCES ("Permission denied").
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
. tests/lab/boot-lib.sh

if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
    skip "lab: qemu-system-x86_64 not installed (make deps)"
    finish; exit
fi

# boot KERNEL: one lab on KERNEL (default or backports); res is its results.
boot() {
    # shellcheck disable=SC2046
    lab_boot "SD lab ($1 kernel)" build/lab/tune-bus-results/$1 "--kernel $1 --size 4G --timeout 1200" \
        "scripts/sdlab scripts/sdlab-init $(echo build/bin/* build/tests/lab-bin/*)" \
        tests/lab/guest/mmc-tune-bus.sh || return 1
    res=$lab_run/mmc-tune-bus
}
rc() { # rc NAME FILE WANT
    got=$(cat "$res/$2.rc" 2>/dev/null)
    [ "$got" = "$3" ] && pass "$1" || { fail "$1: exit '$got', expected $3"; sed 's/^/    | /' "$res/$2.err" 2>/dev/null | head -5; }
}
same_state() { # same_state NAME A B: the recorded host states A and B are equal
    a=$(cat "$res/$2.state" 2>/dev/null) b=$(cat "$res/$3.state" 2>/dev/null)
    [ -n "$a" ] && [ "$a" = "$b" ] && pass "$1" || fail "$1: '$b', expected '$a'"
}
has() { # has NAME FILE TEXT: FILE is exactly TEXT
    got=$(cat "$res/$2" 2>/dev/null)
    [ "$got" = "$3" ] && pass "$1" || fail "$1: '$got', expected '$3'"
}
json_of() { cp "$res/$1" "$out" 2>/dev/null || : >"$out"; }
# ios_seen NAME FILE PYEXPR: PYEXPR over s, the ios states the guest sampled
# during a run, each (clock_hz, actual_hz, timing), in order.
ios_seen() {
    got=$($PY - "$res/$2" "$3" <<'EOF'
import sys
s = []
for line in open(sys.argv[1]):
    f = line.split(maxsplit=3)
    s.append((int(f[1]) if f[1] != "-" else None, int(f[2]) if f[2] != "-" else None, f[3].strip()))
print(eval(sys.argv[2]))
EOF
)
    [ "$got" = True ] && pass "$1" || { fail "$1: ios sampled: $(cut -d' ' -f2- "$res/$2" 2>/dev/null | tr '\n' ';' | cut -c1-300)"; }
}

# --- bookworm-backports' 6.12: caps writable, live trials ------------------
if boot backports; then
    expect "backports kernel is 6.12" "$res/kernel" '^6\.12\.'
    # The kernel's facts, by the guest script's own hand.
    has "6.12: caps written back unchanged" caps-same.rc 0
    has "6.12: a caps bit outside debugfs' set refused" caps-bad.rc 1
    expect "6.12: ... with EINVAL" "$res/caps-bad.err" "Invalid argument"
    has "6.12: SD_HIGHSPEED off + AGGRESSIVE_PM + runtime PM cycle: legacy at 25 MHz (13 actual)" facts-legacy.ios "25000000 13000000 legacy"
    has "6.12: start caps + re-init: back to HS at 50 MHz (26 actual)" facts-back.ios "50000000 26000000 sd high-speed"
    has "debugfs clock step: ios 25 MHz, actual 13" facts-clock.ios "25000000 13000000 sd high-speed"
    has "debugfs clock below f_min refused" clock-low.rc 1
    same_state "6.12: the hand-made changes all put back" start facts-end
    # The plan: nothing written.
    rc "plan: exit 0" plan 0
    json_of plan.json
    json_eq "plan: live trials on 6.12, start HS at 50 MHz" "j['live_trials'], j['start']['mode'], j['start']['clock_hz']" "True HS 50000000"
    json_eq "plan: HS then legacy, fastest first" "[p['mode'] for p in j['plan']]" "['HS', 'legacy']"
    json_eq "plan: nothing trialled, nothing restored" "j['trials'], j['restored']" "[] None"
    same_state "plan: the host as it was" start plan-after
    # The clock step: HS fails (a CRC line in the kernel log during its
    # trial), HS at 37.5 MHz is trialled, confirmed by ios, and chosen.
    rc "--apply: exit 0" apply 0
    json_of apply.json
    has "the kernel log holds the CRC line the guest wrote before the trials" injected.count 1
    json_eq "--apply: the planner reads it as a signal error, and plans HS at 37.5 and 25 MHz" \
        "any('error -84' in l for l in j['signal_errors']), [p['clock_hz'] for p in j['plan'] if p['mode'] == 'HS']" \
        "True [None, 37500000, 25000000]"
    has "--apply: CRC lines written once the tool was in 'trial 1: HS'" apply.injected yes
    json_eq "--apply: HS at the kernel's clock rejected for the core's CRC line (mmc0: error -84 whilst initialising)" \
        "(lambda t: (t['mode'], t['clock_asked_hz'], t['verdict'], any('mmc0: error -84 whilst' in l for l in t['log_lines'])))(j['trials'][0])" \
        "('HS', None, 'rejected', True)"
    # The block driver names the disk, not the host: the trial must map
    # mmcblk0 to mmc0 although the line saying so is older than the trial.
    json_eq "--apply: ... and its log lines hold the block driver's CRC line too (mmcblk0: error -84 transferring data)" \
        "any('sector 4096' in l for l in j['trials'][0]['log_lines'])" "True"
    json_eq "--apply: then HS at 37.5 MHz: ios confirms the clock, data equal, clean" \
        "(lambda t: (t['mode'], t['clock_asked_hz'], t['clock_hz'], t['ios_confirmed'], t['data_ok'], t['verdict']))(j['trials'][1])" \
        "('HS', 37500000, 37500000, True, True, 'clean')"
    json_eq "--apply: chosen HS at 37.5 MHz, the host put back: ios HS at 50 MHz" \
        "j['chosen']['mode'], j['chosen']['clock_hz'], j['restored']['done'], j['restored']['ios_mode'], j['restored']['ios_clock_hz']" \
        "HS 37500000 True HS 50000000"
    ios_seen "--apply: the guest's own ios reads saw HS at 37.5 MHz" apply.ios "any(c == 37500000 and t == 'sd high-speed' for c, a, t in s)"
    ios_seen "--apply: ... and HS at 50 MHz last" apply.ios "s[-1] == (50000000, 26000000, 'sd high-speed')"
    same_state "--apply: caps, caps2, clock, power/control, autosuspend delay and ios as at the start" start apply-after
    # The step-down: HS -> legacy.
    rc "--mode legacy: exit 0" legacy 0
    json_of legacy.json
    json_eq "--mode legacy: one trial, legacy at 25 MHz, confirmed by ios, data equal, clean" \
        "[(t['mode'], t['clock_hz'], t['ios_confirmed'], t['data_ok'], t['verdict']) for t in j['trials']]" \
        "[('legacy', 25000000, True, True, 'clean')]"
    json_eq "--mode legacy: chosen legacy, the host put back: ios HS at 50 MHz" \
        "j['chosen']['mode'], j['restored']['done'], j['restored']['ios_mode'], j['restored']['ios_clock_hz']" "legacy True HS 50000000"
    ios_seen "--mode legacy: the guest's own ios reads saw legacy at 25 MHz (13 actual)" legacy.ios "(25000000, 13000000, 'legacy') in s"
    ios_seen "--mode legacy: ... and HS at 50 MHz last" legacy.ios "s[-1] == (50000000, 26000000, 'sd high-speed')"
    same_state "--mode legacy: the host as at the start" start legacy-after
    has "--mode legacy (text): exit 0" apply-text.rc 0
    expect "--mode legacy (text): says the host is back, with the ios that proves it" "$res/apply.txt" "^Put back as it was: ios shows HS at 50 MHz"
    same_state "--mode legacy (text): the host as it was" start apply-text-after
    # --keep, then --undo.
    rc "--keep: exit 0" keep 0
    json_of keep.json
    json_eq "--keep: chosen HS at 50 MHz, kept (not put back)" \
        "(j['chosen']['mode'], j['chosen']['clock_hz'], j['restored'] is None or j['restored'].get('kept'))" "('HS', 50000000, True)"
    expect "--keep: started from HS at 25 MHz (stepped down by hand)" "$res/keep-before.state" "ios=25000000,13000000,sd,high-speed"
    expect "--keep: ios at 50 MHz afterwards (the kept choice)" "$res/keep-after.state" "ios=50000000,26000000,sd,high-speed"
    expect "--keep: a state file for --undo" "$res/keep-run.ls" "^tune-bus-mmc0\.json$"
    rc "--undo: exit 0" undo 0
    same_state "--undo: the state before --keep back (25 MHz, power/control on)" keep-before undo-after
    has "--undo: the state file removed" undo-run.ls ""
    rc "--undo again: exit 1 (nothing to undo)" undo2 1
    expect "--undo again: says there is nothing to undo" "$res/undo2.err" "mmc-tune: .*nothing to undo"
    # Ctrl-C mid-trial.
    has "Ctrl-C: the tool was mid-trial when signalled" int.running yes
    ios_seen "Ctrl-C: signalled while ios showed the trial's legacy at 25 MHz" int-at-signal.ios "s[0] == (25000000, 13000000, 'legacy')"
    has "Ctrl-C: exit 130" int.rc 130
    same_state "Ctrl-C: caps, caps2, clock, power/control and ios as before" int-before int-after
    ios_seen "Ctrl-C: ios sampled ends at HS 50 MHz" int.ios "s[-1] == (50000000, 26000000, 'sd high-speed')"
    json_of int.json
    json_eq "Ctrl-C: JSON says interrupted and restored" "j.get('interrupted'), j['restored']['done']" "True True"
    # No error counted by the host through all of it.
    if cmp -s "$res/start.err_stats" "$res/end.err_stats"; then pass "6.12: err_stats unchanged (no CRC, timeout or tuning error)"
    else fail "6.12: err_stats moved: $(diff "$res/start.err_stats" "$res/end.err_stats" | grep '^>' | head -3)"; fi
fi

# --- bookworm's 6.1: caps read-only, the plan only -----------------------------
if boot default; then
    expect "default kernel is 6.1" "$res/kernel" '^6\.1\.'
    kver=$(cat "$res/kernel")
    has "6.1: a caps write refused (even unchanged)" caps-same.rc 1
    expect "6.1: ... with EACCES" "$res/caps-same.err" "Permission denied"
    has "6.1: debugfs clock is writable (25 MHz, actual 13)" facts-clock.ios "25000000 13000000 sd high-speed"
    same_state "6.1: the hand-made clock step put back" start facts-end
    rc "6.1: plan exit 0" plan 0
    json_of plan.json
    json_eq "6.1: plan says live trials are not possible, and why" "j['live_trials'], j['live_trials_reason']" \
        "False this kernel ($kver) cannot trial modes live; 6.4 or later can"
    has "6.1: --apply exits 1 (no trial was possible)" apply.rc 1
    expect "6.1: ... and says why on stderr" "$res/apply.progress" "no trials: this kernel \($kver\) cannot trial modes live"
    json_of apply.json
    json_eq "6.1: --apply says the same, trials nothing, restores nothing" "j['live_trials'], j['live_trials_reason'], j['trials'], j['restored']" \
        "False this kernel ($kver) cannot trial modes live; 6.4 or later can [] None"
    # QEMU's host runs its fastest mode already: nothing to make persistent.
    json_eq "6.1: --apply still gives the plan (HS in use first), and no persistent form for the mode in use" \
        "j['plan'][0]['mode'], j['plan'][0]['in_use'], j['persistent']" "HS True []"
    expect "6.1: --apply (text) says it" "$res/apply.txt" "this kernel \($kver\) cannot trial modes live; 6\.4 or later can"
    ios_seen "6.1: ios never changed during --apply" apply.ios "len(s) == 1"
    same_state "6.1: nothing written by --apply (-J)" start apply-after
    same_state "6.1: nothing written by --apply (text)" start apply-text-after
fi
finish
