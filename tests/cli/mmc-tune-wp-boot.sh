#!/bin/sh
# check: expect 10
# mmc-tune emmc's user-area write protection and boot images offline, on a
# pasted EXT_CSD of a real device (tests/data/tune/emmc51-cm4.hex: 8 MiB
# write protect groups in use, 8 MiB boot partitions): the plans (the
# groups, CMD28/CMD29, USER_WP around them, the one-time kind), the
# refusals (misaligned with the nearest values, past the end, permanent
# without --permanent, overlapping ranges, images too large, empty, not a
# file, missing, two for one partition), an image with the boot settings
# in one plan, and hostile values refused as usage errors. A pasted
# EXT_CSD is never written.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
T=build/bin/mmc-tune
cm4="ext_csd=@tests/data/tune/emmc51-cm4.hex"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
head -c 300000 /dev/urandom > "$tmp/u-boot.bin"
head -c 8388609 /dev/zero > "$tmp/big.bin"
: > "$tmp/empty.bin"
mkfifo "$tmp/fifo"

# --- plans ------------------------------------------------------------------
run 0 $T emmc -n -J --decode "$cm4" --user-wp temporary --offset 8M --size 24M &&
    json_eq "--user-wp temporary: CMD28 at groups 1-3, sector addresses, USER_WP untouched" \
        "[(s['command'], s['groups'], s['user_wp_during']) for s in j['user_wp_plan']['steps']], j['user_wp_plan']['group_bytes']" \
        "[(28, [1, 2, 3], 0)] 8388608"
json_eq "without the device every group is planned, and said so; nothing applied" \
    "any('not known' in n for n in j['user_wp_plan']['notes']), j['applied']" "True False"
run 0 $T emmc -n -J --decode "$cm4" --user-wp power-on --size 8M --user-wp none --offset 16M --size 8M &&
    json_eq "two ranges: power-on with US_PWR_WP_EN, then CMD29 for none" \
        "[(s['kind'], s['command'], s['user_wp_during'], s['groups']) for s in j['user_wp_plan']['steps']], j['user_wp_plan']['power_cycle'], j['user_wp_plan']['one_time']" \
        "[('power-on', 28, 1, [0]), ('none', 29, 0, [2])] True False"
run 0 $T emmc -n -J --decode "$cm4" --user-wp permanent --size 8M --permanent &&
    json_eq "permanent with --permanent: US_PERM_WP_EN, one-time" \
        "[s['user_wp_during'] for s in j['user_wp_plan']['steps']], j['user_wp_plan']['one_time']" "[4] True"
run 0 $T emmc -n --decode "$cm4" --user-wp permanent --size 8M --permanent &&
    expect "permanent: the plan says it can never be undone" "$out" "can never be undone"
run 0 $T emmc -n -J --decode "$cm4" --boot-image "1=$tmp/u-boot.bin" --boot-partition 1 --boot-bus 8 &&
    json_eq "an image with the boot partition and bus in one plan" \
        "[c['field'] for c in j['changes']], [(b['area'], b['bytes'], b['partition_bytes']) for b in j['boot_images']['jobs']]" \
        "['PARTITION_CONFIG', 'BOOT_BUS_CONDITIONS'] [(1, 300000, 8388608)]"
run 0 $T emmc -n --decode "$cm4" --boot-image "2=$tmp/u-boot.bin" &&
    expect "text: the image, its size and the partition's" "$out" "into boot partition 2 \(292.97 KiB \(300000 bytes\) of 8 MiB\)"

# --- refusals: exit 1, nothing written --------------------------------------
refused() { # refused NAME REGEX ARGS...
    r_name=$1 r_re=$2; shift 2
    run 1 $T emmc -n "$@" && expect "$r_name" "$out" "$r_re" &&
        expect "$r_name: nothing written" "$err" "refused; nothing was written$"
}
refused "misaligned offset: the nearest named" \
    "Refused: --user-wp temporary --offset 3M --size 8M: the offset 3 MiB is not a multiple of the write protect group \(8 MiB, EXT_CSD HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE\); the nearest are 0 bytes and 8 MiB" \
    --decode "$cm4" --user-wp temporary --offset 3M --size 8M
refused "misaligned size" "the size 12 MiB is not a multiple" --decode "$cm4" --user-wp none --size 12M
refused "past the user area" "past the user area" --decode "$cm4" --user-wp temporary --offset 64G --size 8M
refused "permanent without --permanent" "permanent protection can never be removed.*give --permanent" --decode "$cm4" --user-wp permanent --size 8M
refused "overlapping ranges" "it overlaps range 1 at 8 MiB" --decode "$cm4" --user-wp temporary --size 16M --user-wp none --offset 8M --size 8M
refused "an image larger than the partition" "larger than boot partition 1 \(8 MiB: BOOT_SIZE_MULT \[226\] x 128 KiB\)" --decode "$cm4" --boot-image "1=$tmp/big.bin"
refused "an empty image" "empty; there is nothing to write" --decode "$cm4" --boot-image "1=$tmp/empty.bin"
refused "a device as the image" "/dev/zero: not a regular file" --decode "$cm4" --boot-image 1=/dev/zero
refused "a FIFO as the image (not opened to wait on it)" "not a regular file" --decode "$cm4" --boot-image "2=$tmp/fifo"
refused "a directory as the image" "not a regular file" --decode "$cm4" --boot-image "2=$tmp"
refused "a missing image" "No such file or directory" --decode "$cm4" --boot-image "1=$tmp/none.bin"
refused "two images for one partition" "boot partition 1 is given two images" --decode "$cm4" --boot-image "1=$tmp/u-boot.bin" --boot-image "1=$tmp/u-boot.bin"
run 1 $T emmc -n -J --decode "$cm4" --boot-image "1=$tmp/empty.bin" --user-wp temporary --size 8M &&
    json_eq "a refused image stops the whole plan: no step, nothing applied" \
        "len(j['boot_images']['refusals']), j['user_wp_plan']['steps'] != [], j['applied']" "1 True False"

# --- hostile values: usage errors, exit 2 -----------------------------------
usage() { # usage NAME REGEX ARGS...
    u_name=$1 u_re=$2; shift 2
    run 2 $T emmc "$@" && expect "$u_name" "$err" "$u_re"
}
usage "an unknown kind" "--user-wp temp: expected temporary, power-on, permanent or none" --decode "$cm4" --user-wp temp --size 8M
usage "a range without a size" "--user-wp none: give the range's --size" --decode "$cm4" --user-wp none
usage "--offset before any --user-wp" "--offset belongs to a --user-wp range" --decode "$cm4" --offset 8M --user-wp none --size 8M
usage "a size that is none" "--size" --decode "$cm4" --user-wp none --size lots
usage "a boot area that is none" "--boot-image '3=x': expected 1=FILE or 2=FILE" --decode "$cm4" --boot-image 3=x
usage "a boot image without a file" "expected 1=FILE or 2=FILE" --decode "$cm4" --boot-image 1=
finish
