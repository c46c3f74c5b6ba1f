#!/usr/bin/env python3
"""The command-line conventions every mmckit tool keeps (util-linux's
tools/checkusage.sh is the model), checked from each tool's own getopt table:

- --help prints "Usage:" on stdout and exits 0; -V/--version names mmckit;
- an unknown option exits 2 with "Try 'TOOL --help'" on stderr;
- a lost stdout (/dev/full) exits 1 with "write error";
- every long option of the getopt table is in --help and in the man page;
- a short letter means the same long option in every tool.

Prints one "  ok"/"  FAIL" line per check and a summary line last."""
import glob
import os
import re
import shutil
import subprocess
import sys

top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))


def getopt_table(source):
    """[(long name, short letter or None)] from the tool's longopts[] table."""
    text = open(source, encoding="utf-8").read()
    m = re.search(r"longopts(?:\[\])?\s*=\s*\{(.*?)\n\s*\};", text, re.S)
    if not m:
        return None
    table = []
    for name, val in re.findall(r'\{"([a-z0-9-]+)",\s*\w+,\s*nullptr,\s*([^}]+?)\}', m.group(1)):
        letter = re.fullmatch(r"'(.)'", val.strip())
        table.append((name, letter.group(1) if letter else None))
    return table


def run(cmd, stdout=subprocess.PIPE):
    return subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, errors="replace", timeout=30)


letters = {}  # letter -> {long name: [tools]}
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
    man = open(os.path.join(top, "man", tool + ".1"), encoding="utf-8").read().replace("\\-", "-")
    for name, letter in table:
        check(f"{tool} --{name}: in --help", f"--{name}" in helped.stdout)
        check(f"{tool} --{name}: in the man page", re.search(rf"--{re.escape(name)}\b", man) is not None)
        if letter:
            letters.setdefault(letter, {}).setdefault(name, []).append(tool)

# Plugins live in a directory of their own under tools/ (tools/NAME/NAME.cpp,
# built apart from the tools): each has man/NAME.1, which names every key its
# config callback takes.
tools_dir = os.path.join(top, "tools")
for name in sorted(d for d in os.listdir(tools_dir) if os.path.isdir(os.path.join(tools_dir, d))):
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

for letter, names in sorted(letters.items()):
    check(f"-{letter} means one thing in every tool", len(names) == 1,
          "; ".join(f"--{n} in {', '.join(t)}" for n, t in sorted(names.items())))

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

print(f"conventions: {results['passed']} passed, {results['failed']} failed, 0 skipped")
sys.exit(1 if results["failed"] else 0)
