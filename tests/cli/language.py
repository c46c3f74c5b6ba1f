"""The command-line language of README.md ("One command-line language"), read
from the README and held against each tool's --help: one meaning per long
option across the tools, one spelling per meaning. Pure functions over text,
so that conventions.py can prove the check catches a planted offender."""
import re

HEADING = "## One command-line language"

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


def _cells(row):
    """A markdown table row's cells; "\\|" is a pipe inside a cell."""
    row = row.strip().strip("|").replace("\\|", "\x00")
    return [c.strip().replace("\x00", "|") for c in row.split("|")]


def _code(cell):
    return [c.strip() for c in re.findall(r"`([^`]*)`", cell)]


def _tables(section):
    """The section's tables, each a list of rows of cells, header dropped."""
    tables, current = [], None
    for line in section.splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            current.append(_cells(line))
        else:
            current = None
    return [t[2:] for t in tables if t[0][0] != "status"]  # header and --- rule; not the exit statuses


def exit_statuses(readme):
    """The section's exit-status table: [(status, meaning, {tools})]; a
    status is a number or "128+N"."""
    start = readme.find(HEADING)
    end = readme.find("\n## ", start + len(HEADING))
    rows, inside = [], False
    for line in readme[start:end if end > 0 else len(readme)].splitlines():
        if line.startswith("| status |"):
            inside = True
        elif inside and line.startswith("|") and not line.startswith("| ---"):
            status, meaning, tools = _cells(line)
            rows.append((status, meaning, {t.strip() for t in tools.split(",")}))
        elif not line.startswith("|"):
            inside = False
    return rows


class Language:
    def __init__(self, readme):
        start = readme.find(HEADING)
        if start < 0:
            raise ValueError(f"README has no '{HEADING}' section")
        end = readme.find("\n## ", start + len(HEADING))
        tables = _tables(readme[start:end if end > 0 else len(readme)])
        if len(tables) not in (2, 3):
            raise ValueError(f"expected the options and deprecated tables (and not yet in line), found {len(tables)}")
        tables.append([])  # no third table: every option in line
        self.rows = []        # (option, {arguments}, meaning, {tools})
        for option, arg, meaning, tools in tables[0]:
            args = set()
            for alt in (arg.strip("`").split(" or ") if arg else []):
                args.update(alt.strip("`").split("|") if not alt.startswith("[") else [alt.strip("`")])
            self.rows.append((_code(option)[0].lstrip("-"), args, meaning, {t.strip() for t in tools.split(",")}))
        self.deprecated = {}  # (old, tool) -> new
        for old, new, tools in tables[1]:
            for o in _code(old):
                for t in tools.split(","):
                    self.deprecated[(o.lstrip("-"), t.strip())] = _code(new)[0].lstrip("-")
        self.pending = {}     # (option, tool) -> why
        for option, tool, what, becomes in tables[2]:
            self.pending[(_code(option)[0].lstrip("-"), tool.strip())] = f"{what}; to become {becomes}"


def _tokens(arg):
    if not arg:
        return set()
    return {arg} if arg.startswith("[") else set(arg.split("|"))


def problems(helps, language):
    """Check every tool's --help against the language. Returns (problems,
    skipped, listing): what breaks it, what the README says is not yet in
    line (with why), and one line per long option with its meaning."""
    found, skipped = [], []
    rows = {}
    meanings = {}
    for option, args, meaning, tools in language.rows:
        if option in rows:
            found.append(f"--{option} has two rows in the README: one option, two meanings")
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
                    found.append(f"{tool} --{name}: deprecated for --{new}, but not so in the README's deprecated table")
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
                found.append(f"{tool} --{name}: not in the README's table: write down what it means")
                continue
            args, meaning, tools = rows[name]
            if tool not in tools:
                found.append(f"{tool} --{name}: the README's row for --{name} ('{meaning}') does not list {tool}: "
                             "the same meaning there, or a second one?")
            if not _tokens(arg) <= args:
                found.append(f"{tool} --{name} {arg}: the README's --{name} takes {' or '.join(sorted(args)) or 'no argument'}"
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
            found.append(f"--{option}: the README lists {tool}, whose --help has no --{option}")
        listing.append(f"--{option} ({meaning}): {', '.join(sorted(have))}")
    return found, skipped, listing
