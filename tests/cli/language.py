"""The toolkit's command-line language, read from its registry in
libmmc/cli/ and held against each tool's --help: one meaning per long option
across the tools, one spelling per meaning. Pure functions over text, so
that conventions.py can prove the check catches a planted offender.

The registry is three tab-separated files, a header line first, "#" lines
ignored (a cell holding a "|" needs no escape):
- options.tsv: option, argument, meaning, tools. The argument is empty for
  a flag, else the word --help shows (SIZE), its values (on|off), several
  forms joined by " or " (NAME or LIST), or an optional value ([=MODE]).
  The tools are comma separated, a subcommand as "mmc-probe verify".
- deprecated-options.tsv: old (one or more spellings, comma separated),
  new, tools: spellings accepted with a warning for one release.
- exit-statuses.tsv: status (a number or 128+N), meaning, tools.
An option not yet in line would be a row of pending-options.tsv (option,
tool, what it means there, what it is to become): reported as skipped."""
import os
import re

REGISTRY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "libmmc", "cli")
COLUMNS = {
    "options.tsv": ["option", "argument", "meaning", "tools"],
    "deprecated-options.tsv": ["old", "new", "tools"],
    "exit-statuses.tsv": ["status", "meaning", "tools"],
    "pending-options.tsv": ["option", "tool", "what", "becomes"],
}

OPTION_LINE = re.compile(
    r"^ {1,8}(?:-[A-Za-z0-9], +)?--([a-z0-9-]+)(\[=[^\]]*\])?(?: (\S+))?(?: {2,}(.*))?$")
DEPRECATED = re.compile(r"^deprecated: use (--[a-z0-9-]+)")


def help_options(text):
    """[(long name, argument or "", deprecated-to or None)] from a --help text,
    and the option lines it could not read."""
    found, unread = [], []
    for line in text.splitlines():
        if not re.match(r"^ {1,8}(-[A-Za-z0-9], +)?--[a-z]", line):
            continue
        m = OPTION_LINE.match(line)
        if not m:
            unread.append(line.strip())
            continue
        name, optional, arg, what = m.groups()
        d = DEPRECATED.match(what or "")
        found.append((name, optional or arg or "", d.group(1)[2:] if d else None))
    return found, unread


def rows(text, name):
    """The rows of one registry file's text (name says which, for its
    columns and for the errors), header checked and dropped."""
    columns = COLUMNS[name]
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.startswith("#")]
    if not lines or lines[0][1].split("\t") != columns:
        raise ValueError(f"{name}: the first line must be the header {chr(9).join(columns)!r} (tab separated)")
    found = []
    for n, line in lines[1:]:
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) != len(columns):
            raise ValueError(f"{name}:{n}: {len(cells)} cells, expected {len(columns)} ({', '.join(columns)}), tab separated")
        found.append(cells)
    return found


def read_registry(directory=REGISTRY):
    """{file name: its text} of the registry files present in directory."""
    texts = {}
    for name in COLUMNS:
        path = os.path.join(directory, name)
        if os.path.exists(path):
            texts[name] = open(path, encoding="utf-8").read()
    return texts


def _tools(cell):
    return {t.strip() for t in cell.split(",") if t.strip()}


def _arguments(cell):
    """The argument tokens a registry cell allows: "SIZE or measure" is two,
    "on|off" two, "[=MODE]" one."""
    args = set()
    for alt in (cell.split(" or ") if cell else []):
        alt = alt.strip()
        args.update([alt] if alt.startswith("[") else alt.split("|"))
    return args


def exit_statuses(texts):
    """The exit-status table: [(status, meaning, {tools})]; a status is a
    number or "128+N"."""
    return [(status, meaning, _tools(tools))
            for status, meaning, tools in rows(texts.get("exit-statuses.tsv", ""), "exit-statuses.tsv")]


class Language:
    def __init__(self, texts):
        """texts: {registry file name: its text}, as read_registry gives."""
        self.rows = []        # (option, {arguments}, meaning, {tools})
        for option, arg, meaning, tools in rows(texts.get("options.tsv", ""), "options.tsv"):
            self.rows.append((option.lstrip("-"), _arguments(arg), meaning, _tools(tools)))
        self.deprecated = {}  # (old, tool) -> new
        if "deprecated-options.tsv" in texts:
            for old, new, tools in rows(texts["deprecated-options.tsv"], "deprecated-options.tsv"):
                for o in old.split(","):
                    for t in _tools(tools):
                        self.deprecated[(o.strip().lstrip("-"), t)] = new.lstrip("-")
        self.pending = {}     # (option, tool) -> why
        if "pending-options.tsv" in texts:
            for option, tool, what, becomes in rows(texts["pending-options.tsv"], "pending-options.tsv"):
                self.pending[(option.lstrip("-"), tool)] = f"{what}; to become {becomes}"


def _tokens(arg):
    if not arg:
        return set()
    return {arg} if arg.startswith("[") else set(arg.split("|"))


def problems(helps, language):
    """Check every tool's --help against the language. Returns (problems,
    skipped, listing): what breaks it, what pending-options.tsv says is not yet in
    line (with why), and one line per long option with its meaning."""
    found, skipped = [], []
    rows = {}
    meanings = {}
    for option, args, meaning, tools in language.rows:
        if option in rows:
            found.append(f"--{option} has two rows in options.tsv: one option, two meanings")
        rows[option] = (args, meaning, tools)
        if meaning in meanings:
            found.append(f"--{meanings[meaning]} and --{option} both mean '{meaning}': one meaning, two spellings")
        meanings.setdefault(meaning, option)
    live = {}  # option -> {tool}
    for tool, text in sorted(helps.items()):
        options, unread = help_options(text)
        for line in unread:
            found.append(f"{tool}: cannot read the option line '{line}' (argument, then two spaces, then what it does)")
        names = {n for n, _, d in options if d is None}
        for name, arg, new in options:
            if new is not None:
                if language.deprecated.get((name, tool)) != new:
                    found.append(f"{tool} --{name}: deprecated for --{new}, but not so in deprecated-options.tsv")
                if new not in names:
                    found.append(f"{tool} --{name}: deprecated for --{new}, which {tool} does not have")
                continue
            if (name, tool) in language.pending:
                skipped.append(f"{tool} --{name}: {language.pending[(name, tool)]}")
                continue
            live.setdefault(name, set()).add(tool)
            # An old spelling kept for one release may already be another
            # tool's option only with its own row: the one meaning it keeps.
            if name not in rows and any(old == name for old, _ in language.deprecated):
                new = next(n for (o, _), n in language.deprecated.items() if o == name)
                found.append(f"{tool} --{name}: a deprecated spelling (of --{new}) used as a live option")
                continue
            if name not in rows:
                found.append(f"{tool} --{name}: not in options.tsv: write down what it means")
                continue
            args, meaning, tools = rows[name]
            if tool not in tools:
                found.append(f"{tool} --{name}: options.tsv's row for --{name} ('{meaning}') does not list {tool}: "
                             "the same meaning there, or a second one?")
            if not _tokens(arg) <= args:
                found.append(f"{tool} --{name} {arg}: options.tsv's --{name} takes {' or '.join(sorted(args)) or 'no argument'}"
                             f" ('{meaning}'): a second meaning")
        if "destructive" in names and "dry-run" not in names:
            if ("destructive", tool) in language.pending:
                pass  # said above, once
            else:
                found.append(f"{tool}: --destructive without -n/--dry-run")
    listing = []
    for option, (args, meaning, tools) in sorted(rows.items()):
        have = live.get(option, set())
        for tool in sorted(tools - have):
            found.append(f"--{option}: options.tsv lists {tool}, whose --help has no --{option}")
        listing.append(f"--{option} ({meaning}): {', '.join(sorted(have))}")
    return found, skipped, listing


def row_from_markdown(line):
    """A row of the markdown tables the registry once was ("| `--x` | `SIZE`
    | what | mmc-y |", "+" of a diff allowed) as a registry line."""
    line = line.strip().lstrip("+").strip().strip("|").replace("\\|", "\x00")
    return "\t".join(c.strip().replace("`", "").replace("\x00", "|") for c in line.split("|"))


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] != ["--row"]:
        sys.exit("usage: language.py --row [MARKDOWN-ROW...]  (rows from stdin without one)")
    for line in sys.argv[2:] or sys.stdin:
        if line.strip().lstrip("+").startswith("|"):
            print(row_from_markdown(line))
