#!/bin/sh
# mmc-report against hostile or broken input (issue 12, part 5): bundle text
# with terminal escapes, deeply nested JSON, oversized files, nonsense
# figures, contradictory registers, links that are not http(s), and --html
# over a symlink or a device node.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
rep=build/bin/mmc-report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# bundle FILE LABEL [EXTRA-PYTHON]: a minimal measured bundle.
bundle() {
    $PY - "$1" "$2" "${3:-}" <<'PY'
import json, sys
b = {"format": "mmckit-bundle", "format_version": 1, "kind": "measured", "created": "2026-11-03T10:15:00Z",
     "card": {"label": sys.argv[2], "product": "SL16G"}, "host": {"label": "lab"},
     "results": {"seq_read_mb_s": 20.5, "seq_write_mb_s": 10.25}, "verdicts": [], "steps": []}
exec(sys.argv[3])
json.dump(b, open(sys.argv[1], "w"))
PY
}

bundle "$tmp/esc.json" "$(printf 'Evil\033]0;pwned\007card')"
run 0 $rep "$tmp/esc.json" && expect "a label's escape is shown as \\x1b" "$out" 'Evil\\x1b\]0;pwned\\x07card'
if grep -q "$(printf '\033')" "$out"; then fail "no raw ESC from a bundle reaches the terminal"; else pass "no raw ESC from a bundle reaches the terminal"; fi

finish
