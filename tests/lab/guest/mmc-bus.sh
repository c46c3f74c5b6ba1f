# Runs inside the SD lab's shared boot (tests/lab/sd-lib.sh): the bus of the
# first card, measured, and every host in the text view.
o=${o:-$SDLAB_OUT}
mmc-bus -J --measure=2 /dev/mmcblk0 > $o/bus.json; echo $? > $o/bus.rc
mmc-bus -v > $o/bus.txt
