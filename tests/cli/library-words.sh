#!/bin/sh
# Library code names no command-line flags, and the modules keep their floors.
#
# 1. Flags. A string literal in libmmc/ that holds "--word" names a flag: the
#    words of a remedy belong to cli/remedy.cpp, which the tools' errors use
#    (cli::Remedy), and data (JSON warnings, notes, skip reasons, advice)
#    names what it means. Not scanned: cli/ (the CLI layer words the flags),
#    probe/*_view.cpp and format/*_view.cpp (views), qualify/ (mmc-qualify's
#    pipeline, whose plan names the equivalent commands), and for now
#    tune/bus_* and tune/queue_* (mmc-tune bus and queue, being written);
#    mmc-probe's command code is in tools/. The eMMC settings of tune/ are
#    scanned: the library words them by tune::Setting and the front end
#    (tools/mmc-tune/emmc.cpp) names each by its option. Comments are not
#    scanned. Allowed where the
#    "--word" is not ours: CSS custom properties in report/html.cpp, the
#    options simserve/host_device.cpp passes to nbdkit, nbdfuse and losetup,
#    and format/make_run.cpp and make_plan.cpp to losetup and mkfs.fat, and
#    flashbench's --blocksize that probe/flashbench_text.cpp reads from a
#    pasted command line.
#
# 2. Floors (direct #include lines, what the code needs today):
#    - regs/ includes only regs/ (decoders are pure), and from cli/ only
#      cli/size.h, the one byte formatter (a size reads the same decoded as
#      measured);
#    - cli/ includes only cli/ (any module may use it without a cycle);
#    - bus/ includes only bus/ and regs/ (ios, caps and the doctor are pure
#      over regs), so dev/'s card model may hold bus facts; from cli/ only the
#      one byte and figure formatter (cli/size.h, pure), as regs/ does;
#    - dev/ includes only dev/, regs/ and bus/, and from cli/ only the typed
#      error and its remedy by meaning (cli/errors.h, cli/remedy.h: the
#      resolver's refusals are cli::Errors and name no flag): nothing above
#      it (no other cli/ header, erase/, bench/, probe/, report/, qualify/,
#      views/, sim/);
#    - health/ includes only health/, regs/, cli/ and dev/ (for the plain
#      types dev/ fills: CMD56 blocks, the host's write facts); it does no I/O;
#    - erase/ includes nothing from bench/; bench/ includes from erase/ only
#      erase/erase.h, in bench/precondition.cpp (the erase precondition erases
#      with mmc-erase's engine). Safety comes to both from dev/block_safety,
#      never from each other: bench/ never includes erase/device.h or another
#      erase/ header, erase/ never includes bench/.
#
# 3. One device resolver: naming a device and deciding whether it
#    may be used is dev/resolver.cpp's, and so is the one /sys/dev/block/
#    MAJ:MIN lookup. Found elsewhere in libmmc/ (code, not comments):
#    "dev" / "block" (or a "dev/block" literal), S_ISBLK (is a typed path a
#    block device?), a "/dev/" prefix taken off a name, and a
#    "class" / "block" lookup by name. Allowed where they serve a name the
#    resolver gave: dev/block_safety.cpp (mount and swap sources name devices
#    by /dev path; the safety of a resolved name), dev/contents.cpp (what is
#    on a resolved disk), dev/uevent.cpp (the kernel's DEVNAME), and
#    bench/target.cpp's S_ISBLK when it opens the resolved path.
#
# 4. Typed vocabulary: a result the library makes and reads itself
#    (a suite, an engine, a chunk's kind, a verdict's deciding figure, ...) is
#    an enum, and only its to_string writes the word. So a comparison with a
#    string literal (x == "word", "word" != x) in libmmc/ code is allowed only
#    in the files listed in `parses_input` below, which read outside input
#    (option values, sysfs and debugfs text, device trees, JSON and card
#    files read back, SQL), each with why. A new file that compares a result
#    as a word is reported. Not caught: a new
#    comparison in a listed file (the list is by file, not by line). A listed
#    file that is gone or compares no word any more is reported too.
#
# 5. Typed register facts: code outside libmmc/regs/ reads a
#    register through the typed facts of regs/register_facts.h and
#    regs/card_facts.h (csd_facts(...)->erase_class, ext_csd_facts(...)->
#    trim_mult, ...), never by a field's or a decoded value's name, which a
#    misspelling turns into a silent 0. Found in libmmc/ (but regs/) and
#    tools/: a call of regs' by-name readers (field_value, field_raw,
#    derived_int, derived_positive), a DecodedRegister::field lookup
#    (x.field(...), x->field(...)), and a DecodedRegister::find, told from
#    a string's, a map's or a JSON object's find by what it gives: a pointer
#    (const auto* d = r.find(...), r.find(...)->value), where those give a
#    position or an iterator.
#
# 6. One reader of sysfs: sysfs and debugfs are read in dev/,
#    through SysRoots, so a fixture tree stands in for all of it and each
#    attribute has one parse; the resolver puts what the tools need on
#    dev::Device and dev::Card (queue limits, provisioning mode, preferred
#    erase size). Found in libmmc/ (but dev/) and tools/: a read_attr call,
#    and a string literal that is a /sys path ("/sys", "/sys/block/..."),
#    which ignores the roots. A message that names a sysfs file in prose
#    ("echo 0 > /sys/block/...") is not a path.
#
# 7. One device-source option group: --no-ioctl, --sysfs-root
#    and --debugfs-root are declared in libmmc/cli/device_sources.cpp, and
#    the one debugfs rule (an explicit --debugfs-root wins; else a fixture
#    tree's ROOT/kernel/debug; else the live default) is in
#    cli/device_sources.h. Found in libmmc/ and tools/: a {"sysfs-root", ...}
#    (or the others') option entry, a "--sysfs-root" (or the others') flag
#    spelled alone, as a child tool's argument (cli::DeviceSources::arguments
#    gives those), a "kernel" / "debug" join, and a string literal that is a
#    debugfs path (dev/sysfs.h's live default allowed).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work" "$out" "$err"' EXIT

# code_scan RULE ROOT: what RULE finds in the code (not the comments) of the
# .cpp and .h files under ROOT (a libmmc tree), as "path:line: ...".
#   flags:   every string literal that names a flag outside the places
#            allowed in part 1 above;
#   lookups: every device lookup outside the one resolver and the places
#            allowed in part 3 above.
code_scan() {
    "$PY" - "$1" "$2" <<'EOF'
import os, re, sys
rule, root = sys.argv[1], sys.argv[2]
literal = re.compile(r'"(?:[^"\\\n]|\\.)*"')

# flags
# tune/bus_* and tune/queue_*: mmc-tune bus and queue, being written on
# their own branches; the eMMC settings beside them name no option.
skip_dirs = ("cli/", "qualify/")
skip_file = re.compile(r"^(probe|format)/[a-z_]+_view\.cpp$|^tune/(bus|queue)_[a-z_]+\.(cpp|h)$")
allowed_flags = {
    "report/html.cpp": {"--read", "--write", "--ink", "--muted", "--line", "--bg", "--soft"},
    "simserve/host_device.cpp": {"--foreground", "--exit-with-parent", "--unix", "--pidfile", "--connections",
                                 "--direct-io", "--find", "--show", "--detach"},
    "probe/flashbench_text.cpp": {"--blocksize"},
    # losetup's, mkfs.fat's and fsck.f2fs's own options, on the command lines mmc-format runs
    "format/make_run.cpp": {"--find", "--show", "--offset", "--sizelimit", "--read-only", "--detach", "--dry-run"},
    "format/make_plan.cpp": {"--offset"},
}
flag = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")

def flags(rel, n, line):
    if rel.startswith(skip_dirs) or skip_file.match(rel):
        return
    for lit in literal.findall(line):
        bad = [f for f in flag.findall(lit) if f not in allowed_flags.get(rel, ())]
        if bad:
            print(f"{rel}:{n}: {' '.join(bad)} in {lit[:100]}")

# lookups
kinds = {
    "a /sys/dev/block lookup": re.compile(r'"dev"\s*/\s*"block"|"[^"\n]*dev/block[^"\n]*"'),
    "a block-device test": re.compile(r"\bS_ISBLK\b"),
    "a /dev/ prefix taken off a name": re.compile(r'"/dev/"'),
    "a sysfs block lookup by name": re.compile(r'"class"\s*/\s*"block"|"[^"\n]*class/block[^"\n]*"'),
}
allowed_lookups = {
    "dev/resolver.cpp": set(kinds),
    "dev/block_safety.cpp": {"a block-device test", "a /dev/ prefix taken off a name", "a sysfs block lookup by name"},
    "dev/contents.cpp": {"a sysfs block lookup by name"},
    "dev/uevent.cpp": {"a /dev/ prefix taken off a name"},
    "dev/partition_node.cpp": {"a block-device test"},  # waiting for udev's partition node
    "bench/target.cpp": {"a block-device test"},
    "format/disk_file.cpp": {"a block-device test"},  # an image file, or the device the resolver gave
}

def lookups(rel, n, line):
    for what, pattern in kinds.items():
        if pattern.search(line) and what not in allowed_lookups.get(rel, ()):
            print(f"{rel}:{n}: {what}")

# bytes: a literal that puts a unit after a formatted figure ("{} MiB",
# "{:.1f} GiB") formats a byte count itself; cli/size.cpp is the one place.
byte_unit = re.compile(r"\}\s?[KMGTPE]iB\b")

def bytes_(rel, n, line):
    if rel == "cli/size.cpp":
        return
    for lit in literal.findall(line):
        if byte_unit.search(lit):
            print(f"{rel}:{n}: a byte count formatted in {lit[:60]}")

# words: a comparison with a string literal outside the files allowed in
# part 4 above. Literals are blanked first, so "a == \"b\"" in a message is
# not a comparison.
parses_input = {
    "sim/params.cpp": "mmc-sim's card parameters (options and card files)",
    "simserve/card_file.cpp": "card files' JSON keys and names",
    "simserve/host_device.cpp": "sysfs text",
    "cli/size.cpp": "size units in option values",
    "cli/duration.h": "time units in option values",
    "cli/confirm.cpp": "the answer typed at the prompt",
    "cli/input.cpp": "the path - (standard input)",
    "dev/block_safety.cpp": "sysfs attributes and mount points",
    "dev/block_safety.h": "the roots given (live or a fixture tree)",
    "dev/sysfs.h": "the roots given (live or a fixture tree)",
    "dev/bus_evidence.cpp": "device-tree node names",
    "dev/card.cpp": "sysfs type, read once into dev::CardType",
    "dev/contents.cpp": "libblkid's usage words",
    "dev/resolver.cpp": "sysfs path components",
    "dev/system.cpp": "/proc/cpuinfo keys",
    "dev/uevent.cpp": "uevent SUBSYSTEM words",
    "dev/usb_storage.cpp": "sysfs and /sys/kernel/debug/usb/devices text",
    "regs/register.cpp": "register and family names in options and input",
    "regs/ext_csd_order.cpp": "the --byte-order option",
    "bus/ios.cpp": "debugfs ios text",
    "bus/kernel_log.cpp": "kernel log text (host, disk and driver names at a line's start)",
    "bus/device_tree.cpp": "device-tree text (paths, status, properties)",
    "bus/kernel_cmdline.cpp": "kernel command line words (/proc/cmdline)",
    "bench/job.cpp": "the --rw option (parse_rw)",
    "bench/precondition.cpp": "the --precondition option",
    "bench/context.cpp": "sysfs cache_type",
    "bench/session.cpp": "uevent ACTION",
    "report/bundle_json.cpp": "bundles' JSON read back",
    "report/make_bundle.cpp": "the tools' JSON read back",
    "report/tune_parts.cpp": "mmc-tune's JSON read back (its subcommand, a trial's verdict)",
    "report/load.cpp": "file names (.json)",
    "report/sql_sqlite.cpp": "SQLite's journal_mode answer",
    "probe/flashbench_text.cpp": "pasted flashbench output",
    "format/fdisk_text.cpp": "pasted fdisk -l output",
    "format/make_plan.cpp": "the --fs-layout option (layout_from_name)",
    "probe/geometry_view.cpp": "the path - (standard input)",
    "views/uevent_journal.cpp": "uevent ACTION and DISK_RO words",
    "dev/uevent_card.cpp": "uevent ACTION and SUBSYSTEM words, debugfs err_stats text",
    "tune/config_file.cpp": "mmc-tune --save files' JSON read back",
    "tune/settings.cpp": "mmc-tune emmc's option values (on|off, auto|off|manual, ...)",
    "tune/bus_state.cpp": "mmc-tune bus's state file read back (its kind, power_control on|auto)",
    "dev/host_debugfs.cpp": "sysfs power/control and runtime_status words",
    "views/bus_pasted.cpp": "the path - (standard input)",
    "health/nagios_range.cpp": "the Monitoring Plugins range syntax in -w/--critical",
}
compare = re.compile(r'(?:==|!=)\s*"|"\s*(?:==|!=)')

listed_seen = set()  # listed files that do compare words (for stale_words)

def words(rel, n, line):
    blanked = literal.sub(lambda m: '"' + "_" * (len(m.group(0)) - 2) + '"', line)
    if not compare.search(blanked):
        return
    if rel in parses_input:
        listed_seen.add(rel)
    elif rule == "words":
        print(f"{rel}:{n}: a result compared as a word: {line.strip()[:80]}")

# fields: a register read by a field's or a decoded value's name outside regs/.
by_name_reader = re.compile(r"(?<![\w.>])(?:regs::)?(field_value|field_raw|derived_int|derived_positive)\s*\(")
field_member = re.compile(r"(?:\.|->)\s*field\s*\(")
pointer_find = re.compile(r"(?:\*\s*\w+\s*=|\bauto\s*\*)[^;]*?(?:\.|->)\s*find\s*\(|(?:\.|->)\s*find\s*\([^()]*\)\s*->")

def fields(rel, n, line):
    if rel.startswith("regs/"):
        return
    code = literal.sub(lambda m: '"' + "_" * (len(m.group(0)) - 2) + '"', line)
    if m := by_name_reader.search(code):
        print(f"{rel}:{n}: a register read by name ({m.group(1)})")
    if field_member.search(code):
        print(f"{rel}:{n}: a register field looked up by name")
    if pointer_find.search(code):
        print(f"{rel}:{n}: a decoded value looked up by name")

# sysfs: a sysfs read outside dev/.
attr_read = re.compile(r"(?<![\w.>])(?:dev::)?read_attr\s*\(")
sys_path = re.compile(r'"/sys(?:/[^"\n]*)?"')

def sysfs(rel, n, line):
    if rel.startswith("dev/"):
        return
    if attr_read.search(literal.sub('""', line)):
        print(f"{rel}:{n}: a sysfs attribute read outside dev/")
    for lit in literal.findall(line):
        if sys_path.fullmatch(lit):
            print(f"{rel}:{n}: a /sys path literal outside dev/: {lit[:60]}")

# sources: the device-source options or the debugfs rule outside their module.
source_option = re.compile(r'\{\s*"(no-ioctl|sysfs-root|debugfs-root)"\s*,')
source_flag = re.compile(r'"--(no-ioctl|sysfs-root|debugfs-root)"')
debugfs_join = re.compile(r'"kernel"\s*/\s*"debug"')
debugfs_path = re.compile(r'"[^"\s]*kernel/debug[^"\s]*"')
sources_module = ("cli/device_sources.h", "cli/device_sources.cpp")

def sources(rel, n, line):
    if rel in sources_module:
        return
    if m := source_option.search(line):
        print(f"{rel}:{n}: a --{m.group(1)} option declared outside cli/device_sources")
    if debugfs_join.search(line):
        print(f"{rel}:{n}: debugfs placed under a sysfs root outside cli/device_sources")
    for lit in literal.findall(line):
        if m := source_flag.fullmatch(lit):
            print(f"{rel}:{n}: a --{m.group(1)} flag spelled outside cli/device_sources")
    # dev/sysfs.h holds the live default; a message naming a debugfs file
    # in prose (with spaces) is not a path.
    for lit in literal.findall(line):
        if debugfs_path.fullmatch(lit) and not (rel == "dev/sysfs.h" and lit == '"/sys/kernel/debug"'):
            print(f"{rel}:{n}: a debugfs path literal outside cli/device_sources: {lit[:60]}")

check = {"flags": flags, "lookups": lookups, "bytes": bytes_, "words": words, "stale_words": words,
         "fields": fields, "sysfs": sysfs, "sources": sources}[rule]
for dirpath, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith((".cpp", ".h")):
            continue
        rel = os.path.relpath(os.path.join(dirpath, name), root)
        in_block = False
        for n, line in enumerate(open(os.path.join(dirpath, name), encoding="utf-8", errors="replace"), 1):
            code = line.strip()
            if in_block:
                if "*/" in code:
                    in_block = False
                continue
            if code.startswith("/*"):
                in_block = "*/" not in code
                continue
            if code.startswith("//") or code.startswith("#include"):
                continue
            # A comment after the code: cut at a // that is outside literals.
            blanked = literal.sub(lambda m: "_" * len(m.group(0)), line)
            if "//" in blanked:
                line = line[:blanked.index("//")]
            check(rel, n, line)
# stale_words: a file listed in part 4 that is gone or compares no word any more.
if rule == "stale_words":
    for rel in sorted(set(parses_input) - listed_seen):
        print(f"{rel}: listed in part 4 but compares no word with a literal")
EOF
}
flag_literals() { code_scan flags "$1"; }
byte_formats() { code_scan bytes "$1"; }
device_lookups() { code_scan lookups "$1"; }
word_comparisons() { code_scan words "$1"; }
stale_word_entries() { code_scan stale_words "$1"; }
# sysfs_reads TOP: sysfs reads outside dev/ in TOP/libmmc and TOP/tools.
sysfs_reads() { code_scan sysfs "$1/libmmc" && code_scan sysfs "$1/tools"; }
# source_options TOP: device-source options and debugfs rules outside cli/device_sources in TOP/libmmc and TOP/tools.
source_options() { code_scan sources "$1/libmmc" && code_scan sources "$1/tools"; }
# register_names TOP: string-named register lookups in TOP/libmmc (but regs/) and TOP/tools.
register_names() { code_scan fields "$1/libmmc" && code_scan fields "$1/tools"; }

# include_breaks ROOT: "path: #include" for every include that crosses a floor.
include_breaks() {
    "$PY" - "$1" <<'EOF'
import os, re, sys
root = sys.argv[1]
may = {  # module: the modules it may include (itself always)
    "regs": {"regs"},
    "cli": {"cli"},
    "bus": {"bus", "regs"},
    "dev": {"dev", "regs", "bus"},
    "health": {"health", "regs", "cli", "dev"},
}
# A module's headers from a floor it may not include otherwise.
may_headers = {"dev": {"cli/errors.h", "cli/remedy.h"}, "regs": {"cli/size.h"}, "bus": {"cli/size.h"}}
include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"')
for dirpath, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith((".cpp", ".h")):
            continue
        rel = os.path.relpath(os.path.join(dirpath, name), root)
        module = rel.split("/")[0]
        for line in open(os.path.join(dirpath, name), encoding="utf-8", errors="replace"):
            m = include.match(line)
            if not m:
                continue
            target, header = m.group(1), f"{m.group(1)}/{m.group(2)}"
            if module in may and target not in may[module] | {module} and header not in may_headers.get(module, ()):
                print(f"{rel}: {header} (a {module}/ file includes {target}/)")
            if module == "erase" and target == "bench":
                print(f"{rel}: {header} (erase/ includes bench/)")
            if module == "bench" and target == "erase" and (rel, header) != ("bench/precondition.cpp", "erase/erase.h"):
                print(f"{rel}: {header} (bench/ includes erase/ other than erase/erase.h in bench/precondition.cpp)")
EOF
}

# scan_planted SCANNER DIR: what SCANNER finds in DIR, into $out (its stderr shown).
scan_planted() {
    "$1" "$2" >"$out" 2>"$err"
    if [ -s "$err" ]; then sed 's/^/    stderr: /' "$err" | head -5; fi
}
# only_hits N NAME: NAME passes when $out holds exactly N findings; else they are shown.
only_hits() {
    if [ "$(wc -l <"$out")" -eq "$1" ]; then pass "$2"; else
        fail "scanner: expected $1 hits, got $(wc -l <"$out")"; sed 's/^/    | /' "$out"
    fi
}

# Each scanner finds what it looks for: planted in a copy, it is reported.
mkdir -p "$work/lib/erase" "$work/lib/dev" "$work/lib/bench" "$work/lib/cli" "$work/lib/report"
cat >"$work/lib/erase/planted.cpp" <<'EOF'
// a comment may say --any-device
#include "bench/safety.h"
void f() { throw Refused("no whole erase unit; use --zero-unaligned to zero it"); } // or --any-device
const char* url = "http://x"; // "--yes" in a comment after a literal
EOF
printf '#include "cli/printable.h"\n' >"$work/lib/dev/planted.cpp"
printf '#include "erase/device.h"\nconst char* s = "x--y, a-b";\n' >"$work/lib/bench/planted.cpp"
printf 'const char* w = "use --any-device";\n' >"$work/lib/cli/planted.cpp"
printf 'const char* css = "a{color:var(--ink)}";\n' >"$work/lib/report/html.cpp"
flag_literals "$work/lib" >"$out" 2>"$err"
[ -s "$err" ] && sed 's/^/    stderr: /' "$err" | head -5
expect "scanner: a flag in a library message is found" "$out" "^erase/planted.cpp:3: --zero-unaligned in "
[ "$(wc -l <"$out")" -eq 1 ] && pass "scanner: comments, cli/, allowed CSS and x--y are not flags" ||
    { fail "scanner: expected one hit, got $(wc -l <"$out")"; sed 's/^/    | /' "$out"; }
include_breaks "$work/lib" >"$out" 2>"$err"
expect "scanner: dev/ including cli/ is found" "$out" "^dev/planted.cpp: cli/printable.h"
expect "scanner: erase/ including bench/ is found" "$out" "^erase/planted.cpp: bench/safety.h"
expect "scanner: bench/ including erase/device.h is found" "$out" "^bench/planted.cpp: erase/device.h"
include_breaks "$top/libmmc" | grep -q "^dev/resolver" && fail "scanner: dev/'s cli/errors.h is reported" ||
    pass "scanner: dev/ may include cli/errors.h"

# A second resolver planted beside the one: each of its lookups is found;
# the resolver's own, uevent's DEVNAME and comments are not.
mkdir -p "$work/dev/dev" "$work/dev/probe"
cat >"$work/dev/probe/planted.cpp" <<'EOF'
// a comment may say /sys/dev/block and S_ISBLK
std::string name_of(const std::string& path, dev_t d, const SysRoots& roots) {
    const auto sys = fs::canonical(roots.sysfs / "dev" / "block" / fmt::format("{}:{}", major(d), minor(d)));
    if (path.rfind("/dev/", 0) == 0) return path.substr(5);
    struct stat st {}; if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) return "x";
    return fs::exists(roots.sysfs / "class" / "block" / path) ? path : "/sys/dev/block/" + path;
}
EOF
printf 'const fs::path p = roots.sysfs / "dev" / "block" / devno; // the one\n' >"$work/dev/dev/resolver.cpp"
printf 'if (devname.starts_with("/dev/")) devname.remove_prefix(5);\n' >"$work/dev/dev/uevent.cpp"
scan_planted device_lookups "$work/dev"
expect "scanner: a second /sys/dev/block lookup is found" "$out" "^probe/planted.cpp:3: a /sys/dev/block lookup"
expect "scanner: a /dev/ prefix taken off a name is found" "$out" "^probe/planted.cpp:4: a /dev/ prefix taken off a name"
expect "scanner: a second S_ISBLK test is found" "$out" "^probe/planted.cpp:5: a block-device test"
expect "scanner: a class/block lookup by name is found" "$out" "^probe/planted.cpp:6: a sysfs block lookup by name"
expect "scanner: a dev/block literal is found" "$out" "^probe/planted.cpp:6: a /sys/dev/block lookup"
only_hits 5 "scanner: the resolver's own, uevent's DEVNAME and comments are not second lookups"

# A second byte formatter planted: its units after a figure are found; the
# one in cli/size.cpp, a size in prose and comments are not.
mkdir -p "$work/bytes/views" "$work/bytes/cli"
cat >"$work/bytes/views/planted.cpp" <<'EOF'
// a comment may say {} MiB
std::string a(uint64_t b) { return fmt::format("{:.1f} GiB", b / 1073741824.0); }
std::string c(uint64_t b) { return fmt::format("{}MiB free", b >> 20) + "AU 4 MiB"; }
EOF
printf 'std::string f(double v) { return fmt::format("{:g} KiB", v); }\n' >"$work/bytes/cli/size.cpp"
scan_planted byte_formats "$work/bytes"
expect "scanner: a GiB after a figure is found" "$out" "^views/planted.cpp:2: a byte count formatted in "
expect "scanner: a MiB right after a figure is found" "$out" "^views/planted.cpp:3: a byte count formatted in "
only_hits 2 "scanner: cli/size.cpp, prose sizes and comments are not second formatters"

# A result compared as a word planted: found; the same in a file that parses
# outside input, a literal that holds "== \"x\"", and comments are not.
mkdir -p "$work/words/bench" "$work/words/sim"
cat >"$work/words/bench/planted.cpp" <<'EOF'
// a comment may say if (suite == "state")
bool f(const Report& r) { return r.suite == "state"; }
bool g(const Report& r) { return "custom" != r.suite || r.count == 2; } // or == "x"
const char* m = "expected a == \"b\"";
EOF
printf 'bool on(const std::string& v) { return v == "yes"; }\n' >"$work/words/sim/params.cpp"
scan_planted word_comparisons "$work/words"
expect "scanner: x == \"word\" is found" "$out" "^bench/planted.cpp:2: a result compared as a word"
expect "scanner: \"word\" != x is found" "$out" "^bench/planted.cpp:3: a result compared as a word"
only_hits 2 "scanner: a parser of outside input, a literal and comments are not results compared as words"

# The library itself.
# finds_nothing NAME HINT SCANNER DIR: SCANNER ran on DIR and found nothing.
finds_nothing() {
    "$3" "$4" >"$out" 2>"$err"
    if [ -s "$err" ]; then
        fail "$1: the scan failed"; sed 's/^/    stderr: /' "$err" | head -5
    elif [ -s "$out" ]; then
        fail "$1 ($2)"; sed 's/^/    | /' "$out"
    else
        pass "$1"
    fi
}
finds_nothing "library messages name no command-line flag" "use a cli::Remedy, or name what it means" flag_literals "$top/libmmc"
# The scan saw the library: the remedies' own words are in cli/, which it skips.
grep -q -- '"use --any-device to erase it anyway"' "$top/libmmc/cli/remedy.cpp" &&
    pass "the remedies are worded in cli/remedy.cpp" || fail "cli/remedy.cpp words no --any-device remedy"

finds_nothing "one byte formatter (cli/size.cpp)" "use cli::format_bytes or cli::format_bytes_exact" byte_formats "$top/libmmc"
grep -q '^std::string format_bytes_exact(' "$top/libmmc/cli/size.cpp" &&
    pass "the byte formatter is in cli/size.cpp" || fail "cli/size.cpp has no format_bytes_exact: update this suite's rule"
finds_nothing "every module keeps its floor (regs, cli, bus, dev, health; erase and bench)" "see the rule at the top" include_breaks "$top/libmmc"
finds_nothing "one device resolver and one /sys/dev/block lookup (dev/resolver.cpp)" \
    "use dev::resolve_device or dev::block_syspath" device_lookups "$top/libmmc"
# The scan saw the resolver: its lookup and resolve_device are where the rule says.
grep -q '"dev" / "block"' "$top/libmmc/dev/resolver.cpp" && grep -q '^Device resolve_device(' "$top/libmmc/dev/resolver.cpp" &&
    pass "the resolver and its /sys/dev/block lookup are in dev/resolver.cpp" ||
    fail "dev/resolver.cpp has no resolve_device or /sys/dev/block lookup: update this suite's rule"
finds_nothing "results are compared as enums, not words (outside the parsers of outside input)" \
    "make the result an enum with one to_string, or add a parser of outside input to the list in part 4" word_comparisons "$top/libmmc"
# The scan saw the parsers: each file the lists name still compares words
# (a typed one leaves the list), and a planted list entry with none is found.
finds_nothing "part 4's lists name only files that compare words" "take the file off the list" stale_word_entries "$top/libmmc"
stale_word_entries "$work/words" | grep -q "^bench/job.cpp: listed in part 4 but compares no word" &&
    pass "scanner: a listed file that compares no word is found" || fail "scanner: a stale list entry is not found"
grep -q '^#include "erase/erase.h"' "$top/libmmc/bench/precondition.cpp" &&
    pass "the include rule saw bench's one erase include" || fail "bench/precondition.cpp no longer includes erase/erase.h: update this suite's rule"

# --- Typed register facts (part 5 above) ------------------------------------
# Planted: each by-name read is found; regs/'s own, a string's or a JSON
# object's find, a typed fact, and comments are not.
mkdir -p "$work/names/libmmc/erase" "$work/names/libmmc/regs" "$work/names/tools"
cat >"$work/names/libmmc/erase/planted.cpp" <<'EOF'
// a comment may say field(csd, "ccc") or regs::field_value(r, "x")
uint64_t ccc(const regs::DecodedRegister* r) { return regs::field_value(r, "ccc").value_or(0); }
const regs::Field* mid = cid->field("mid");
const auto* errors = status.find("errors");
const bool locked = regs::status_facts(status).card_is_locked; // typed: not a hit
if (text.find("mmc") != std::string::npos) return; // a string's find
if (auto it = doc.find("format"); it != doc.end()) return; // a JSON object's find
const auto end = text.find("*/", i + 2);
std::string au = ssr->find(key)->text;
EOF
printf 'int64_t t = derived_int(csd, "taac_ns").value_or(0);\n' >"$work/names/tools/mmc-planted.cpp"
printf 'const uint64_t rev = field_raw(r, "ext_csd_rev");\nconst auto* f = r.field(name);\n' >"$work/names/libmmc/regs/ext_csd.cpp"
scan_planted register_names "$work/names"
expect "scanner: a by-name read through regs::field_value is found" "$out" "^erase/planted.cpp:2: a register read by name \(field_value\)"
expect "scanner: a DecodedRegister::field lookup is found" "$out" "^erase/planted.cpp:3: a register field looked up by name"
expect "scanner: a decoded value found by name is found" "$out" "^erase/planted.cpp:4: a decoded value looked up by name"
expect "scanner: a by-name read in a tool is found" "$out" "^mmc-planted.cpp:1: a register read by name \(derived_int\)"
expect "scanner: a decoded value dereferenced from a find is found" "$out" "^erase/planted.cpp:9: a decoded value looked up by name"
only_hits 5 "scanner: regs/ itself, a string's and a JSON object's find, typed facts and comments are not by-name reads"

finds_nothing "registers are read through typed facts outside libmmc/regs/" \
    "add a typed member to regs/register_facts.h (or regs/card_facts.h) and read that" register_names "$top"
# The scan saw the readers: regs/ still has them, and the typed facts the callers use.
grep -q 'field_value(' "$top/libmmc/regs/card_facts.cpp" && grep -q '^ExtCsdFacts ext_csd_facts(' "$top/libmmc/regs/register_facts.cpp" &&
    grep -q 'regs::ext_csd_facts(' "$top/libmmc/erase/device.cpp" &&
    pass "the by-name readers are in regs/, the typed facts in regs/register_facts.cpp, and erase reads them" ||
    fail "regs/ has no by-name reader or typed EXT_CSD facts, or erase reads neither: update this suite's rule"
# --- end of: typed register facts --------------------------------------------

# --- One reader of sysfs (part 6 above) -------------------------------------
# Planted: a queue read in erase, a hard-coded /sys in bench and in a tool are
# found; dev/'s own reads, a message naming a sysfs file, a read_attr in a
# comment or a literal, and a name that only contains read_attr are not.
mkdir -p "$work/sys/libmmc/erase" "$work/sys/libmmc/bench" "$work/sys/libmmc/dev" "$work/sys/libmmc/health" "$work/sys/tools"
cat >"$work/sys/libmmc/erase/planted.cpp" <<'EOF'
// a comment may say dev::read_attr(q / "discard_max_bytes") and "/sys/block"
c.discard_max_bytes = number(dev::read_attr(d.disk_syspath / "queue" / "discard_max_bytes"));
const char* m = "read_attr(x) in a message"; int n = my_read_attr_count(); // not reads
EOF
printf 'std::ifstream gov(fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq/scaling_governor", cpu));\n' >"$work/sys/libmmc/bench/planted.cpp"
printf 'const fs::path root = "/sys";\n' >"$work/sys/tools/mmc-planted.cpp"
printf 'add(w, "echo 0 > /sys/block/mmcblkN/force_ro as root");\n' >"$work/sys/libmmc/health/planted.cpp"
printf 'fs::path sysfs = "/sys";\nconst auto v = read_attr(q / "logical_block_size");\n' >"$work/sys/libmmc/dev/sysfs.h"
scan_planted sysfs_reads "$work/sys"
expect "scanner: a queue attribute read in erase is found" "$out" "^erase/planted.cpp:2: a sysfs attribute read outside dev/"
expect "scanner: a hard-coded /sys path in bench is found" "$out" "^bench/planted.cpp:1: a /sys path literal outside dev/"
expect "scanner: a /sys root in a tool is found" "$out" "^mmc-planted.cpp:1: a /sys path literal outside dev/"
only_hits 3 "scanner: dev/'s reads, a message naming a sysfs file, comments, literals and look-alike names are not sysfs reads"

finds_nothing "sysfs is read in dev/ only, through SysRoots" \
    "add the attribute to dev::Device or dev::Card (dev/resolver.cpp, dev/card.cpp) or a dev/ reader taking SysRoots" \
    sysfs_reads "$top"
# The scan saw the reader: dev/ reads attributes, the queue among them.
grep -q '^std::optional<std::string> read_attr(' "$top/libmmc/dev/sysfs.cpp" &&
    grep -q 'read_block_queue(d.disk_syspath)' "$top/libmmc/dev/resolver.cpp" &&
    pass "dev/sysfs.cpp reads attributes and the resolver reads the block queue" ||
    fail "dev/ has no read_attr or the resolver no block queue: update this suite's rule"
# --- end of: one reader of sysfs ---------------------------------------------

# --- One spawn, one stop-signal module --------------------------------------
# Children are started only in libmmc/cli/process.cpp (default signal
# dispositions, an empty mask, waits with limits, stops passed on), and
# signal dispositions are set only in libmmc/cli/stop_signal.cpp: a second
# fork/exec/posix_spawn/system/popen, or a second sigaction/signal call, in
# libmmc/ or tools/ is a second set of rules. (The child's reset to default
# dispositions, between fork and exec, is the spawn's: process.cpp does it
# by the rt_sigaction system call.) Comments and string literals
# are not scanned; a member call (x.fork(), p->signal()) or a name in another
# namespace (dev::system()) is not the C library's.
# second_spawns TOP: "path:line: call" for each such call under TOP/libmmc and TOP/tools.
second_spawns() {
    "$PY" - "$1" <<'EOF'
import os, re, sys
top = sys.argv[1]
rules = (
    ("libmmc/cli/process.cpp", "starts a child (cli/process.h is the one place)",
     re.compile(r"(?<![\w.>:])(std::|::)?\b(fork|vfork|clone|posix_spawnp?|execl|execlp|execle|execv|execvp|execvpe|execve|fexecve|system|popen)\s*\(")),
    ("libmmc/cli/stop_signal.cpp", "sets a signal disposition (cli/stop_signal.h is the one place)",
     re.compile(r"(?<![\w.>:])(std::|::)?\b(sigaction|signal|sigset|bsd_signal)\s*\(")),
)
literal = re.compile(r'"(?:[^"\\\n]|\\.)*"' + r"|'(?:[^'\\\n]|\\.)'")
for sub in ("libmmc", "tools"):
    for dirpath, _, files in os.walk(os.path.join(top, sub)):
        for name in sorted(files):
            if not name.endswith((".cpp", ".h", ".c")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), top)
            in_block = False
            for n, line in enumerate(open(os.path.join(dirpath, name), encoding="utf-8", errors="replace"), 1):
                if in_block:
                    if "*/" not in line:
                        continue
                    line, in_block = line[line.index("*/") + 2:], False
                code = literal.sub('""', line)
                code = re.sub(r"/\*.*?\*/", " ", code)
                if "/*" in code:
                    code, in_block = code[:code.index("/*")], True
                if "//" in code:
                    code = code[:code.index("//")]
                for allowed, what, call in rules:
                    if rel == allowed:
                        continue
                    for m in call.finditer(code):
                        print(f"{rel}:{n}: {m.group(2)}() {what}")
EOF
}

mkdir -p "$work/spawn/libmmc/cli" "$work/spawn/libmmc/dev" "$work/spawn/tools/nbdkit-mmcsim-plugin"
cat >"$work/spawn/tools/mmc-planted.cpp" <<'EOF'
// fork() in a comment, /* execv( */ in another
void run() { const pid_t pid = fork(); if (pid == 0) execvp(argv[0], argv); }
const char* s = "posix_spawn(x) in a message"; auto f = dev::system(); p->signal(9); c.fork();
EOF
printf 'void g() { std::system("ls"); }\n' >"$work/spawn/libmmc/dev/planted.cpp"
printf 'void h() {\n    sigaction(SIGINT, &sa, nullptr);\n}\n' >"$work/spawn/tools/nbdkit-mmcsim-plugin/planted.cpp"
printf 'int x = posix_spawn(&pid, p, a, b, c, d);\nvoid k() { ::signal(SIGTERM, h); }\n' >"$work/spawn/libmmc/cli/process.cpp"
printf 'void i() { sigaction(SIGINT, &sa, nullptr); }\nint y = fork();\n' >"$work/spawn/libmmc/cli/stop_signal.cpp"
second_spawns "$work/spawn" >"$out" 2>"$err"
[ -s "$err" ] && sed 's/^/    stderr: /' "$err" | head -5
expect "scanner: a fork in a tool is found" "$out" "^tools/mmc-planted.cpp:2: fork\(\) starts a child"
expect "scanner: an exec in a tool is found" "$out" "^tools/mmc-planted.cpp:2: execvp\(\) starts a child"
expect "scanner: std::system in the library is found" "$out" "^libmmc/dev/planted.cpp:1: system\(\) starts a child"
expect "scanner: a SIGINT handler in the plugin is found" "$out" "^tools/nbdkit-mmcsim-plugin/planted.cpp:2: sigaction\(\) sets a signal"
expect "scanner: a signal() beside the spawn is found" "$out" "^libmmc/cli/process.cpp:2: signal\(\) sets a signal"
expect "scanner: a fork beside the stop signals is found" "$out" "^libmmc/cli/stop_signal.cpp:2: fork\(\) starts a child"
[ "$(wc -l <"$out")" -eq 6 ] && pass "scanner: comments, literals, members, other namespaces and each module's own call are not hits" ||
    { fail "scanner: expected six hits, got $(wc -l <"$out")"; sed 's/^/    | /' "$out"; }

finds_nothing "one spawn (cli/process.cpp) and one stop-signal module (cli/stop_signal.cpp)" \
    "start children with cli::Child; catch signals with cli::install_stop_signals" second_spawns "$top"
grep -q ' fork()' "$top/libmmc/cli/process.cpp" && grep -q 'sigaction(' "$top/libmmc/cli/stop_signal.cpp" &&
    pass "the spawn rule saw the one fork and the one sigaction" ||
    fail "cli/process.cpp spawns or cli/stop_signal.cpp catches signals another way: update this suite's rule"
# --- end of: one spawn, one stop-signal module -------------------------------

# --- One device-source option group (part 7 above) --------------------------
# --no-ioctl, --sysfs-root and --debugfs-root are declared, and debugfs placed
# under a fixture's sysfs root, only in libmmc/cli/device_sources.{h,cpp}: a
# tool takes the group with cli::with_device_sources and cli::DeviceSources.
# Planted: a tool's own --sysfs-root, its own "kernel" / "debug", a debugfs
# path literal and a child's --sysfs-root spelled by hand (the
# children's arguments come from cli::DeviceSources::arguments) are found;
# the module itself, dev/sysfs.h's live default, a message naming a debugfs
# file and a comment are not.
mkdir -p "$work/src/libmmc/cli" "$work/src/libmmc/dev" "$work/src/libmmc/bus" "$work/src/tools"
cat >"$work/src/tools/mmc-planted.cpp" <<'EOF'
// a comment may say {"sysfs-root", required_argument} and "kernel" / "debug"
    {"json", no_argument, nullptr, 'J'}, {"sysfs-root", required_argument, nullptr, sysfs},
case sysfs: o.roots.sysfs = optarg; o.roots.debugfs = o.roots.sysfs / "kernel" / "debug"; break;
const fs::path dbg = fs::path(root) / "kernel/debug";
EOF
printf 'args.push_back("--sysfs-root");\nd.suggestions.push_back("read /sys/kernel/debug/mmc0/ios as root");\n' >"$work/src/libmmc/bus/planted.cpp"
printf 'fs::path debugfs = "/sys/kernel/debug";\n' >"$work/src/libmmc/dev/sysfs.h"
printf '{"sysfs-root", required_argument, nullptr, opt_sysfs_root}\nr.debugfs = r.sysfs / "kernel" / "debug";\n' >"$work/src/libmmc/cli/device_sources.cpp"
scan_planted source_options "$work/src"
expect "scanner: a tool's own --sysfs-root is found" "$out" "^mmc-planted.cpp:2: a --sysfs-root option declared outside cli/device_sources"
expect "scanner: a tool's own debugfs rule is found" "$out" "^mmc-planted.cpp:3: debugfs placed under a sysfs root outside cli/device_sources"
expect "scanner: a debugfs path literal in a tool is found" "$out" "^mmc-planted.cpp:4: a debugfs path literal outside cli/device_sources"
expect "scanner: a child's --sysfs-root spelled by hand is found" "$out" "^bus/planted.cpp:1: a --sysfs-root flag spelled outside cli/device_sources"
only_hits 4 "scanner: the module, dev/'s live default, a message and comments are not offences"

finds_nothing "the device-source options and the debugfs rule live in cli/device_sources only" \
    "take the group with cli::with_device_sources and the roots with cli::DeviceSources::roots" source_options "$top"
# The scan saw the module: it declares the three options and holds the rule.
grep -q 'debugfs_root_name = "debugfs-root"' "$top/libmmc/cli/device_sources.cpp" &&
    grep -q '"kernel" / "debug"' "$top/libmmc/cli/device_sources.h" &&
    pass "cli/device_sources declares the options and holds the debugfs rule" ||
    fail "cli/device_sources declares the options or holds the rule another way: update this suite's rule"
# --- end of: one device-source option group ----------------------------------

finish
