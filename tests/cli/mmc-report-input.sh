#!/bin/sh
# mmc-report against hostile or broken input: bundle text
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
open(sys.argv[1], "w").write(json.dumps(b).replace("\"__1e400__\"", "1e400"))
PY
}

bundle "$tmp/esc.json" "$(printf 'Evil\033]0;pwned\007card')"
run 0 $rep "$tmp/esc.json" && expect "a label's escape is shown as \\x1b" "$out" 'Evil\\x1b\]0;pwned\\x07card'
if grep -q "$(printf '\033')" "$out"; then fail "no raw ESC from a bundle reaches the terminal"; else pass "no raw ESC from a bundle reaches the terminal"; fi

# --html PATH: a regular file is replaced (its mode kept), anything else is
# written through and stays what it was.
bundle "$tmp/ok.json" "Good card"
printf 'old\n' >"$tmp/page.html"; chmod 640 "$tmp/page.html"; ln -s page.html "$tmp/link.html"
run 0 $rep --html "$tmp/link.html" "$tmp/ok.json" &&
    if [ -L "$tmp/link.html" ] && grep -q "^<!DOCTYPE html>" "$tmp/page.html"; then pass "--html through a symlink: link kept, target replaced"
    else fail "--html through a symlink: link kept, target replaced"; ls -l "$tmp" | sed 's/^/    /'; fi
mode=$(stat -c %a "$tmp/page.html")
[ "$mode" = 640 ] && pass "--html keeps a regular file's mode" || fail "--html keeps a regular file's mode: got $mode"
ls -a "$tmp" | grep -q '^\.page' && fail "no temporary file left behind" || pass "no temporary file left behind"
if [ "$(id -u)" = 0 ]; then
    mknod "$tmp/null" c 1 3
    run 0 $rep --html "$tmp/null" "$tmp/ok.json" &&
        if [ -c "$tmp/null" ]; then pass "--html to a device node writes through, the node stays"; else fail "--html to a device node writes through, the node stays"; fi
else
    skip "--html to a device node (mknod needs root)"
fi
mkfifo "$tmp/fifo"
timeout 10 cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
run 0 $rep --html "$tmp/fifo" "$tmp/ok.json"
wait $reader
if [ -p "$tmp/fifo" ] && grep -q "^<!DOCTYPE html>" "$tmp/from-fifo"; then pass "--html to a FIFO: the reader gets the page, the FIFO stays"
else fail "--html to a FIFO: the reader gets the page, the FIFO stays"; fi
ln -s "$tmp/missing/x.html" "$tmp/dangling.html"
run 1 $rep --html "$tmp/dangling.html" "$tmp/ok.json" && expect "--html to a dangling symlink is refused" "$err" "dangling.html: a symlink to nothing; not replaced"
[ -L "$tmp/dangling.html" ] && pass "the dangling symlink stays" || fail "the dangling symlink stays"

# A source link from bundle data is a link only when it is http(s).
bundle "$tmp/js.json" "Study card" 'b["kind"]="imported"; b["source"]={"title":"A study","url":"javascript:alert(1)"}'
bundle "$tmp/web.json" "Web card" 'b["kind"]="imported"; b["source"]={"title":"Web study","url":"HTTPS://example.org/x?a=1&b=2"}'
run 0 $rep --html - "$tmp/js.json" "$tmp/web.json" && {
    if grep -qi 'href="javascript' "$out"; then fail "a javascript: URL is not linked"; else pass "a javascript: URL is not linked"; fi
    expect "it is shown as text with the reason" "$out" "javascript:alert\(1\) \(not an http\(s\) link; not linked\)"
    expect "an https URL (any case) is still a link" "$out" '<a href="HTTPS://example.org/x\?a=1&amp;b=2">'
}

# Quiet nonsense in figures: each dropped with a message, never drawn.
bundle "$tmp/neg.json" "Odd card" 'b["results"]={"seq_read_mb_s":-5,"seq_write_mb_s":2e5,"rand_read_iops":{"4k":2e7}}; b["card"]["capacity_bytes"]=-1'
run 0 $rep -J "$tmp/neg.json" && {
    expect "negative MB/s is flagged" "$err" "results.seq_read_mb_s: -5 MB/s is negative; ignored"
    expect "200 GB/s is flagged" "$err" "results.seq_write_mb_s: 200000 MB/s is more than any SD/MMC card reaches"
    expect "20 million IOPS is flagged" "$err" "results.rand_read_iops.4k: 2e\\+07 IOPS is more than any SD/MMC card reaches"
    expect "a negative capacity is flagged" "$err" "card.capacity_bytes: -1 bytes is negative; ignored"
}
json_eq "the nonsense figures are not in the JSON report" "(lambda f: f(f, j))(lambda f, v: [x for w in (v.values() if isinstance(v, dict) else v) for x in f(f, w)] if isinstance(v, (dict, list)) else ([v] if isinstance(v, (int, float)) and not isinstance(v, bool) and (v < 0 or v >= 2e5) else []))" "[]"
bundle "$tmp/inf.json" "Inf card" 'b["results"]={"seq_read_mb_s":"__1e400__"}'
run 1 $rep "$tmp/inf.json" && expect "1e400 is refused with a clear message" "$err" "inf.json: a number no double can hold .*; skipped"

# A register given twice with contradictory values.
$PY - "$tmp/twice.json" <<'PY'
import sys
open(sys.argv[1], "w").write('{"format": "mmckit-bundle", "format_version": 1, "card": {"label": "Twice"}, "host": {"label": "lab"},'
    ' "results": {"seq_read_mb_s": 20}, "registers": {"tool": "mmc-info", "registers": {'
    '"csd": {"hex": "400e00325b5900001fff7f800a400000"}, "csd": {"hex": "400e00325b5900003fff7f800a400000"}}}}')
PY
run 0 $rep "$tmp/twice.json" && expect "a bundle's register given twice is flagged" "$err" "twice.json: /registers/registers/csd: given twice; the last one is read"
cp "$tmp/twice.json" "$tmp/info-twice.json"
$PY -c "import sys; t=open(sys.argv[1]).read(); i=t.index('\"registers\": {\"tool'); open(sys.argv[1],'w').write(t[i+len('\"registers\": '):-1])" "$tmp/info-twice.json"
run 0 $rep --make-bundle --out "$tmp/b2" --info "$tmp/info-twice.json" && expect "--info with a register given twice is refused" "$err" "info-twice.json: /registers/csd given twice"

# Deeply nested JSON is refused before anything recursive touches it.
$PY -c "import sys; n=100000; open(sys.argv[1],'w').write('{\"format\":\"mmckit-bundle\",\"registers\":{\"a\":'+'['*n+']'*n+'}}')" "$tmp/deep.json"
run 1 $rep -J "$tmp/deep.json" && expect "deeply nested bundle: refused, no crash" "$err" "deep.json: JSON nested deeper than 64 levels; skipped"
run 0 $rep --make-bundle --out "$tmp/b" --info "$tmp/deep.json" && expect "deeply nested --info: a failed step, no crash" "$err" "deep.json: JSON nested deeper than 64 levels"
# The store refuses at import what its reports would skip, by name: a bundle
# nested past the cap (100000 deep crashed the import while hashing it; 100
# deep was stored, then skipped by every report), from a named file and
# from a directory scan, and a number no double holds.
$PY -c "import sys; n=100; open(sys.argv[1],'w').write('{\"format\":\"mmckit-bundle\",\"card\":{\"label\":\"Deep\"},\"registers\":{\"a\":'+'['*n+']'*n+'}}')" "$tmp/deep100.json"
mkdir "$tmp/scan" && cp "$tmp/deep.json" "$tmp/deep100.json" "$tmp/scan/"
bundle "$tmp/huge.json" Huge 'b["results"]["seq_read_mb_s"] = "__1e400__"'
for f in deep.json deep100.json huge.json; do
    run 1 $rep --db "$tmp/store.sqlite" --import "$tmp/$f" || continue
    case $f in huge.json) why="a number no double can hold" ;; *) why="JSON nested deeper than 64 levels" ;; esac
    expect "--import $f: rejected by name, no crash" "$err" "^mmc-report: $tmp/$f: rejected: $why"
done
run 1 $rep --db "$tmp/store.sqlite" --import "$tmp/scan" && expect "--import DIR: the deep bundles rejected by name, no crash" "$err" "scan/deep100.json: rejected: JSON nested deeper than 64 levels" &&
    expect "--import DIR: the deepest too" "$err" "scan/deep.json: rejected: JSON nested deeper than 64 levels"
run 1 $rep --db "$tmp/store.sqlite" && expect "the store holds none of them: no report skips one" "$err" "no bundles in SQLite database"
$PY -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM rejections').fetchone()[0])" "$tmp/store.sqlite" >"$out"
[ "$(cat "$out")" = 5 ] && pass "each refusal is recorded in the store (5)" || fail "rejections recorded: $(cat "$out")"

# Every input read is capped: /dev/zero must fail at once, not grow memory.
run 1 $rep /dev/zero && expect "a bundle larger than the cap is refused" "$err" "/dev/zero: more than 64 MiB; no bundle is that large"
run 0 $rep --make-bundle --out "$tmp/b" --bench /dev/zero && expect "--bench /dev/zero is capped" "$err" "/dev/zero: more than 64 MiB"

finish
