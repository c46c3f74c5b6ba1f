#!/usr/bin/env python3
"""The command-line conventions every mmckit tool keeps (util-linux's
tools/checkusage.sh is the model), checked from each tool's own getopt table:

- --help prints "Usage:" on stdout and exits 0; -V/--version names mmckit;
- an unknown option exits 2 with "Try 'TOOL --help'" on stderr;
- a lost stdout (/dev/full) exits 1 with "write error";
- every long option of the getopt table is in --help and in the man page,
  and so is every option of a subcommand whose front end is a part of the
  tool (tools/TOOL/SUBCOMMAND.cpp: its own table, its own --help);
- a short letter means the same long option in every tool;
- every long option of every tool (and subcommand) means what the
  registry libmmc/cli/options.tsv says, one meaning per option and one
  spelling per meaning (language.py); a planted offender proves the check
  catches each kind;
- every tool has each file and list HACKING.md's "Adding a tool" names (man
  page, bash completion, zsh's #compdef line, the package's Description, a
  tool-level test), and that section names them;
  a planted tool with none proves each is looked for;
- one voice: every tool and subcommand parses with cli::next_option, so a
  single-valued option given twice is a usage error naming it (the options
  that gather excepted), and -J before or after a bad option prints the
  error as a JSON object on stdout; --help and the man page list the same
  options; each man page's EXIT STATUS uses only the statuses
  libmmc/cli/exit-statuses.tsv gives the tool, and the code's numbers are the table's; what --help
  and the man page list of the presets and bus modes is what the parser
  takes.

Prints one "  ok"/"  FAIL" line per check and a summary line last."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import language  # noqa: E402

top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
results = {"passed": 0, "failed": 0, "skipped": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))


def skip(name, why):
    results["skipped"] += 1
    print(f"  skip {name}: {why}")


def getopt_table(source):
    """[(long name, short letter or None)] from the tool's longopts[] table."""
    text = open(source, encoding="utf-8").read()
    # A tool made of subcommands: its own options are cli/subcommand's front.
    if re.search(r"\bsubcommand_index\(", text):
        text = open(os.path.join(top, "libmmc", "cli", "subcommand.cpp"), encoding="utf-8").read()
    m = re.search(r"longopts(?:\[\])?\s*=\s*\{(.*?)\n\s*\};", text, re.S)
    # A tool taking the device-source group: its own table, then the group's.
    group = re.search(r"longopts\s*=\s*(?:mmc::)?cli::with_device_sources\(\s*\{(.*?)\n\s*\}(?:,\s*\{([^}]*)\})?\);",
                      text, re.S)
    if not m and not group:
        return None
    table = []
    for name, has_arg, val in re.findall(r'\{"([a-z0-9-]+)",\s*(\w+),\s*nullptr,\s*([^}]+?)\}', (m or group).group(1)):
        letter = re.fullmatch(r"'(.)'", val.strip())
        table.append((name, letter.group(1) if letter else None, has_arg != "no_argument"))
    if not m:
        table += [(name, None, has_arg) for name, has_arg in device_sources(group.group(2) or "")]
    return table


def device_sources(chosen):
    """The long names cli::with_device_sources adds for a DeviceSourceSet
    initialiser ("{.debugfs_root = true}"), read from libmmc/cli/."""
    cli = os.path.join(top, "libmmc", "cli")
    header = open(os.path.join(cli, "device_sources.h"), encoding="utf-8").read()
    source = open(os.path.join(cli, "device_sources.cpp"), encoding="utf-8").read()
    fields = re.search(r"struct DeviceSourceSet \{(.*?)\};", header, re.S).group(1)
    taken = {f: v == "true" for f, v in re.findall(r"bool (\w+) = (true|false);", fields)}
    taken.update({f: v == "true" for f, v in re.findall(r"\.(\w+) = (true|false)", chosen)})
    names = dict(re.findall(r'constexpr const char\* (\w+_name) = "([a-z-]+)"', header + source))
    return [(names.get(name, name), has_arg != "no_argument")
            for f, name, has_arg in re.findall(r'if \(which\.(\w+)\) table\.push_back\(\{"?([a-z_-]+)"?,\s*(\w+)', source)
            if taken[f]]


def run(cmd, stdout=subprocess.PIPE):
    return subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, errors="replace", timeout=30)


letters = {}  # letter -> {long name: [tools]}
helps = {}  # "tool" or "tool subcommand" -> its --help
parsers = []  # (tool, [subcommand words], getopt table, source file)
tools = sorted(f[:-4] for f in os.listdir(os.path.join(top, "tools")) if f.endswith(".cpp"))
for tool in tools:
    exe = os.path.join(top, "build", "bin", tool)
    table = getopt_table(os.path.join(top, "tools", tool + ".cpp"))
    check(f"{tool}: has a getopt table", table is not None, "no longopts[] found")
    if table is None:
        continue
    helped = run([exe, "--help"])
    check(f"{tool} --help: Usage on stdout, exit 0",
          helped.returncode == 0 and helped.stdout.startswith("Usage:") and helped.stderr == "",
          f"exit {helped.returncode}")
    helps[tool] = helped.stdout
    # A tool with subcommands lists them under "Subcommands:"; each has its own --help.
    sub = re.search(r"^Subcommands:\n((?: \S.*\n)+)", helped.stdout, re.M)
    subcommands = re.findall(r"^ (\S+)", sub.group(1), re.M) if sub else []
    for name in subcommands:
        helps[f"{tool} {name}"] = run([exe, name, "--help"]).stdout
    version = run([exe, "-V"])
    check(f"{tool} -V: names mmckit", version.returncode == 0 and f"{tool} from mmckit" in version.stdout,
          version.stdout.strip())
    bad = run([exe, "--no-such-option"])
    check(f"{tool} --no-such-option: exit 2 with a hint",
          bad.returncode == 2 and f"Try '{tool} --help'" in bad.stderr, f"exit {bad.returncode}: {bad.stderr.strip()}")
    with open("/dev/full", "w") as full:
        lost = run([exe, "--help"], stdout=full)
    check(f"{tool} --help >/dev/full: exit 1, write error",
          lost.returncode == 1 and "write error" in lost.stderr, f"exit {lost.returncode}: {lost.stderr.strip()}")
    man_page = os.path.join(top, "man", tool + ".1")
    man = open(man_page, encoding="utf-8").read().replace("\\-", "-") if os.path.exists(man_page) else ""
    # The tool's own table against its --help; a subcommand's table (its
    # front end in tools/TOOL/SUBCOMMAND.cpp) against the subcommand's.
    tables = [(tool, table, helped.stdout)]
    parts = os.path.join(top, "tools", tool)
    if os.path.isdir(parts):
        for name in subcommands:
            source = os.path.join(parts, name + ".cpp")
            if not os.path.exists(source):
                continue
            part_table = getopt_table(source)
            check(f"{tool} {name}: has a getopt table", part_table is not None, "no longopts[] found")
            tables.append((f"{tool} {name}", part_table or [], helps[f"{tool} {name}"]))
        check(f"{tool}: every part in tools/{tool}/ is a subcommand its --help lists",
              all(f[:-4] in subcommands for f in os.listdir(parts) if f.endswith(".cpp")),
              f"subcommands listed: {subcommands}")
    front = os.path.join(top, "tools", tool + ".cpp")
    if re.search(r"\bsubcommand_index\(", open(front, encoding="utf-8").read()):
        front = os.path.join(top, "libmmc", "cli", "subcommand.cpp")
    parsers.append((tool, [], table, front))
    for who, options, _ in tables[1:]:
        parsers.append((tool, who.split()[1:], options, os.path.join(parts, who.split()[1] + ".cpp")))
    for who, options, help_text in tables:
        for name, letter, _ in options:
            check(f"{who} --{name}: in --help", f"--{name}" in help_text)
            check(f"{who} --{name}: in the man page", re.search(rf"--{re.escape(name)}\b", man) is not None)
            if letter:
                letters.setdefault(letter, {}).setdefault(name, []).append(who)

# Plugins live in a directory of their own under tools/ (tools/NAME/NAME.cpp,
# built apart from the tools): each has man/NAME.1, which names every key its
# config callback takes. A directory named after a tool holds that tool's
# parts (checked above), not a plugin.
tools_dir = os.path.join(top, "tools")
for name in sorted(d for d in os.listdir(tools_dir) if os.path.isdir(os.path.join(tools_dir, d)) and d not in tools):
    page = os.path.join(top, "man", name + ".1")
    check(f"tools/{name}: has man/{name}.1", os.path.exists(page))
    source = os.path.join(tools_dir, name, name + ".cpp")
    check(f"tools/{name}: its source is {name}/{name}.cpp", os.path.exists(source))
    if not os.path.exists(page) or not os.path.exists(source):
        continue
    text = open(source, encoding="utf-8").read()
    man = open(page, encoding="utf-8").read().replace("\\-", "-")
    for key in re.findall(r'k == "([a-z-]+)"', text):
        check(f"{name}: {key}= in its man page", f"{key}=" in man)

# Every file and list a tool needs (HACKING.md's "Adding a tool"), for every
# tool; a planted tool that has none of them proves each is looked for.


def section(text, title):
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def missing_pieces(tool, tree, zsh, control):
    """What tool lacks of what HACKING.md's "Adding a tool" lists, in the tree
    at tree, with these texts of zsh/_mmckit and debian/control."""
    problems = [f"no {path}" for path in (f"man/{tool}.1", f"bash-completion/{tool}")
                if not os.path.exists(os.path.join(tree, path))]
    compdef = re.search(r"^#compdef (.*)$", zsh, re.M)
    if not compdef or tool not in compdef.group(1).split():
        problems.append("not on zsh/_mmckit's #compdef line")
    description = control.split("\nDescription:", 1)[1] if "\nDescription:" in control else ""
    if not re.search(rf"(?<![\w-]){re.escape(tool)}(?![\w-])", description):
        problems.append("not named in debian/control's Description")
    if not (glob.glob(os.path.join(tree, "tests", "cli", f"{tool}.sh")) or
            glob.glob(os.path.join(tree, "tests", "cli", f"{tool}-*.sh"))):
        problems.append(f"no tests/cli/{tool}.sh (or {tool}-*.sh)")
    return problems


zsh_text = open(os.path.join(top, "zsh", "_mmckit"), encoding="utf-8").read()
control_text = open(os.path.join(top, "debian", "control"), encoding="utf-8").read()
for tool in tools:
    problems = missing_pieces(tool, top, zsh_text, control_text)
    check(f"{tool}: has every file and list of HACKING.md's \"Adding a tool\"", not problems, "; ".join(problems))
planted_missing = missing_pieces("mmc-fake", top, zsh_text, control_text)
for piece, said in [("man page", "no man/mmc-fake.1"), ("bash completion", "no bash-completion/mmc-fake"),
                    ("place in zsh/_mmckit", "not on zsh/_mmckit's #compdef line"),
                    ("mention in debian/control", "not named in debian/control's Description"),
                    ("tool-level test", "no tests/cli/mmc-fake.sh")]:
    check(f"planted: a tool without a {piece} fails", any(p.startswith(said) for p in planted_missing),
          "; ".join(planted_missing))
hacking = open(os.path.join(top, "HACKING.md"), encoding="utf-8").read()
adding = section(hacking, "Adding a tool")
for piece in ["tools/NAME.cpp", "tools/NAME/", "man/NAME.1", "bash-completion/NAME", "bash-completion/_mmckit",
              "zsh/_mmckit", 'libmmc/cli/options.tsv', "debian/control", "tests/cli/NAME.sh"]:
    check(f"HACKING.md's \"Adding a tool\" names {piece}", piece in adding)

for letter, names in sorted(letters.items()):
    check(f"-{letter} means one thing in every tool", len(names) == 1,
          "; ".join(f"--{n} in {', '.join(t)}" for n, t in sorted(names.items())))

# One command-line language: each long option of each tool, with its meaning.
registry = language.read_registry()
lang = language.Language(registry)
found, pending, listing = language.problems(helps, lang)
for line in listing:
    check(line, True)
for problem in found:
    check("one command-line language", False, problem)
for line in pending:
    skip(line.split(":")[0], "not yet in line (pending-options.tsv): " + line.split(": ", 1)[1])

# ... and the check catches what it is for: a planted tool whose --help
# gives --family a second meaning, uses the deprecated --length and --card
# as live options, brings an option nobody wrote down, and a registry row
# that spells --size's meaning a second time.
planted_help = """Usage:
 mmc-fake [options] DEVICE

Options:
     --family TEXT       only cards whose label has TEXT
     --length SIZE       length of the region
     --card FILE         a card file
     --region-end SIZE   where the region ends
     --destructive       destroy everything
 -h, --help              display this help
"""
planted_registry = dict(registry, **{"options.tsv": registry["options.tsv"] +
                                    "--range-size\tSIZE\ta region's length, from --offset\tmmc-fake\n"})
planted, _, _ = language.problems(dict(helps, **{"mmc-fake": planted_help}), language.Language(planted_registry))
new = [p for p in planted if p not in found]
for what, pattern in [("a second meaning (--family TEXT)", r"mmc-fake --family TEXT: .*a second meaning"),
                      ("a deprecated spelling used live (--length)", r"mmc-fake --length: a deprecated spelling \(of --size\)"),
                      ("a deprecated spelling used live (--card)", r"mmc-fake --card: a deprecated spelling"),
                      ("an option nobody wrote down (--region-end)", r"mmc-fake --region-end: not in options.tsv"),
                      ("--destructive without --dry-run", r"mmc-fake: --destructive without -n/--dry-run"),
                      ("one meaning, two spellings (--range-size)", r"--size and --range-size both mean"),
                      ("a tool the registry lists that lacks the option", r"--range-size: options.tsv lists mmc-fake, whose --help has no --range-size")]:
    check(f"planted: the language check catches {what}", any(re.search(pattern, p) for p in new),
          "; ".join(new) or "nothing caught")


# A row written for the README's old table (a branch made before the
# registry moved) converts to the registry's line: the same columns, the
# backquotes and the escaped pipe undone.
step_row = next((line for line in registry["options.tsv"].splitlines() if line.startswith("--step\t")), None)
converted = language.row_from_markdown(
    "+| `--step` | `NAME:ok\\|fail:MESSAGE` | a pipeline step and how it went, for a bundle | mmc-report |")
check("language.py --row: a README row of --step is options.tsv's line", converted == step_row, repr(converted))


# One voice: every tool (and subcommand) parses through cli::next_option, so
# that a single-valued option given twice is a usage error naming it, the
# options that gather (its list in the source) are left alone, and -J
# anywhere on the line makes an error a JSON document on stdout too.
def gathering(source):
    text = open(source, encoding="utf-8").read()
    m = re.search(r"next_option\([^;]*?\{([^}]*)\}\)\)", text, re.S)
    return re.findall(r'"([a-z0-9-]+)"', m.group(1)) if m else []


for tool, words, table, source in parsers:
    who = " ".join([tool] + words)
    exe = os.path.join(top, "build", "bin", tool)
    text = open(source, encoding="utf-8").read() if os.path.exists(source) else ""
    check(f"{who}: parses with cli::next_option", "next_option(" in text and "getopt_long(" not in text,
          "getopt_long called directly: repeated options and -J errors are missed")
    gathers = gathering(source) if os.path.exists(source) else []
    for name, _, takes_value in table:
        if not takes_value:
            continue
        twice = run([exe] + words + [f"--{name}=1", f"--{name}=2"])
        said = f"--{name}: given more than once" in twice.stderr
        if name in gathers:
            check(f"{who} --{name}: gathers (given twice is no repeat)", not said, twice.stderr.strip()[:200])
        else:
            check(f"{who} --{name} twice: a usage error naming it", twice.returncode == 2 and said,
                  f"exit {twice.returncode}: {twice.stderr.strip()[:200]}")
    if not any(name == "json" for name, _, _ in table):
        continue
    for line in (["-J", "--no-such-option"], ["--no-such-option", "-J"]):
        r = run([exe] + words + line)
        try:
            doc = json.loads(r.stdout)
        except ValueError:
            doc = {}
        err = doc.get("error") if isinstance(doc.get("error"), dict) else {}
        check(f"{who} {' '.join(line)}: a JSON error object on stdout, exit 2",
              r.returncode == 2 and doc.get("tool") == tool and "version" in doc and err.get("exit_status") == 2
              and "--no-such-option" in err.get("message", ""), f"exit {r.returncode}: stdout {r.stdout.strip()[:200]!r}")

# The help and the man page list the same options: each item (.TP) of the
# man page that names an option is one the tool or a subcommand has, and
# each option --help shows has an item.
for tool in tools:
    page = os.path.join(top, "man", tool + ".1")
    if not os.path.exists(page):
        continue
    text = open(page, encoding="utf-8").read().replace("\\-", "-")
    text = text.split("\n.SH EXAMPLES")[0]
    items = set()
    for heading in re.findall(r"^\.TP\n([^\n]*)", text, re.M):
        items.update(re.findall(r"(?<![\w-])--([a-z0-9][a-z0-9-]*)", re.sub(r"\\f[BIRP]|^\.B[RI]? ", "", heading)))
    shown = set()
    for who, help_text in helps.items():
        if who.split()[0] == tool:  # a deprecated spelling has its line in --help, its words in the man page
            shown.update(name for name, _, old in language.help_options(help_text)[0] if not old)
    for name in sorted(items - shown):
        check(f"{tool}.1 --{name}: an option --help shows", False, "the man page has an item for an option no --help lists")
    for name in sorted(shown - items):
        check(f"{tool} --{name}: an item (.TP) in the man page", False, "--help shows it; the man page has no item for it")
    check(f"{tool}: --help and the man page list the same options", items == shown,
          f"{len(items ^ shown)} differ")

# One table of exit statuses (libmmc/cli/exit-statuses.tsv): each man page's
# EXIT STATUS uses only the statuses the table gives the tool, and the code's
# own numbers are the table's.
statuses = language.exit_statuses(registry)
check("exit-statuses.tsv has the exit-status table", len(statuses) >= 4, f"{len(statuses)} rows")


def allowed_statuses(who):
    allowed = set()
    for status, _, row_tools in statuses:
        if "every tool" in row_tools or who in row_tools or any(t.startswith(who + " ") for t in row_tools):
            allowed.update(range(129, 193) if status == "128+N" else [int(status)])
    return allowed


for tool in tools:
    page = os.path.join(top, "man", tool + ".1")
    if not os.path.exists(page):
        continue
    m = re.search(r"^\.SH EXIT STATUS\n(.*?)(?=^\.SH )", open(page, encoding="utf-8").read(), re.M | re.S)
    check(f"{tool}.1: has an EXIT STATUS section", m is not None)
    if not m:
        continue
    body = re.sub(r"\\f[BIRP]|\\-", lambda x: "-" if x.group(0) == "\\-" else "", m.group(1))
    used = {int(n) for n in re.findall(r"(?<![\w.+-])(\d{1,3})(?![\w.%]|\+| ?[KMG]i?B)", body)}
    extra = sorted(used - allowed_statuses(tool))
    check(f"{tool}.1: EXIT STATUS uses the table's statuses only", not extra, f"not in exit-statuses.tsv: {extra}")
    check(f"{tool}.1: EXIT STATUS points to the one table", "every mmckit tool" in body,
          "no pointer to the toolkit's table")

table_of = {status: meaning for status, meaning, _ in statuses}
exits = dict((v, int(n)) for v, n in re.findall(r"(\w+) = (\d+)", re.search(
    r"enum Exit \{([^}]*)\}", open(os.path.join(top, "libmmc", "cli", "cli.h"), encoding="utf-8").read()).group(1)))
for name, status in sorted(exits.items()):
    check(f"cli::{name} = {status} is in the table", str(status) in table_of, "missing")
for source, words in (("libmmc/health/verdict.cpp", "mmc-health"), ("libmmc/probe/capacity_view.cpp", "mmc-probe capacity")):
    code = open(os.path.join(top, source), encoding="utf-8").read()
    fn = re.search(r"int exit_status\(Verdict[^)]*\)\n\{(.*?)\n\}", code, re.S).group(1)
    for verdict, status in re.findall(r"case Verdict::(\w+): return (\d+);", fn):
        if status == "0":
            continue
        row = [r for r in statuses if r[0] == status]
        check(f"{words}: {verdict} exits {status} as the table says",
              bool(row) and words in row[0][2] and verdict.replace("_", " ").split()[-1] in row[0][1].replace("_", " "),
              f"table: {row}")

# Enumerations: what --help and the man page list is what the parser takes.
presets = sorted(f[:-5] for f in os.listdir(os.path.join(top, "sim", "presets")) if f.endswith(".json"))
sim_help = re.search(r"--preset NAME +start from a preset \(([^)]*)\)", helps.get("mmc-sim", ""))
check("mmc-sim --help: lists every preset", sim_help is not None and sorted(sim_help.group(1).split(", ")) == presets,
      f"--help: {sim_help.group(1) if sim_help else None}; files: {presets}")
sim_man = open(os.path.join(top, "man", "mmc-sim.1"), encoding="utf-8").read().replace("\\-", "-")
sim_presets = re.search(r"^\.SH PRESETS\n(.*?)(?=^\.SH )", sim_man, re.M | re.S)
named = set(re.findall(r"\\fB([a-z0-9-]+)\\fR", sim_presets.group(1))) if sim_presets else set()
check("mmc-sim.1 PRESETS: names every preset", set(presets) <= named, f"missing: {sorted(set(presets) - named)}")
bad_mode = run([os.path.join(top, "build", "bin", "mmc-tune"), "bus", "--mode", "NO-SUCH-MODE", "mmc0"])
parser_modes = re.search(r"expected (.*)", bad_mode.stderr)
parser_modes = set(re.split(r", | or ", parser_modes.group(1).strip())) if parser_modes else set()
help_modes = re.search(r"--mode LIST +the bus modes to trial \(comma separated: (.*?)\)", " ".join(helps.get("mmc-tune bus", "").split()))
help_modes = set(re.split(r",\s*| or ", help_modes.group(1))) if help_modes else set()
check("mmc-tune bus --mode: --help lists what the parser takes", parser_modes and help_modes == parser_modes,
      f"--help: {sorted(help_modes)}; parser: {sorted(parser_modes)}")
tune_man = open(os.path.join(top, "man", "mmc-tune.1"), encoding="utf-8").read().replace("\\-", "-")
missing_modes = [m for m in parser_modes if m not in tune_man]
check("mmc-tune.1: names every bus mode the parser takes", parser_modes and not missing_modes, f"missing: {missing_modes}")

# Every man page formats without a groff warning (lintian reports them as
# groff-message: a line starting with "." or "'" is a request, for one).
if shutil.which("groff"):
    for page in sorted(glob.glob(os.path.join(top, "man", "*.[1-8]"))):
        run = subprocess.run(["groff", "-man", "-ww", "-z", page], capture_output=True, text=True,
                             env=dict(os.environ, LC_ALL="C"))
        check(f"{os.path.basename(page)}: groff -ww formats it without a warning", run.returncode == 0 and not run.stderr.strip(),
              run.stderr.strip()[:200])
else:
    check("groff is installed (make deps) to check the man pages", False)

print(f"conventions: {results['passed']} passed, {results['failed']} failed, {results['skipped']} skipped")
sys.exit(1 if results["failed"] else 0)
