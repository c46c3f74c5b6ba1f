#!/bin/sh
# mmc-report --html on the shipped examples, opened in headless Chromium:
# the page renders to a non-trivial screenshot, its DOM holds the charts (by
# interface, by card, IOPS), the browser logs no console errors, it does not
# overflow a phone-width window and it prints. Skipped when Chromium is
# missing (scripts/install-deps installs it).
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
rep=build/bin/mmc-report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
    skip "Chromium is not installed (apt-get install chromium, or scripts/install-deps): the page was not opened"
    finish
    exit $?
fi
# chrome ARGS...: headless, offline, a fresh profile each time; stderr kept in $err.
chrome() {
    profile=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" "$@" 2>"$err"
}
# console_errors: the page's console messages and failed loads in $err.
console_errors() { grep -E 'CONSOLE|ERR_|Uncaught|Failed to load' "$err"; }

run 0 $rep --html "$tmp/report.html" examples/ && [ -s "$tmp/report.html" ] && pass "page written" || fail "page not written"
page="file://$tmp/report.html"

# The DOM: every group has its by-interface and by-card charts, the two
# studies with random I/O their IOPS chart; no script anywhere.
chrome --dump-dom "$page" >"$out"
count() { grep -o "$1" "$out" | wc -l | tr -d ' '; }
[ "$(count 'class="chart by-interface"')" -eq 5 ] && pass "DOM: 5 by-interface charts" || fail "DOM: by-interface charts: $(count 'class="chart by-interface"')"
[ "$(count 'class="chart by-card"')" -eq 5 ] && pass "DOM: 5 by-card charts" || fail "DOM: by-card charts: $(count 'class="chart by-card"')"
[ "$(count 'class="chart iops"')" -eq 2 ] && pass "DOM: 2 IOPS charts" || fail "DOM: IOPS charts: $(count 'class="chart iops"')"
[ "$(count '<rect class="s[01]"')" -gt 200 ] && pass "DOM: the charts have bars" || fail "DOM: bars: $(count '<rect class="s[01]"')"
expect "DOM: verdict badges" "$out" '<span class="badge pass">pass</span>'
expect "DOM: not-applicable badge" "$out" '<span class="badge na">not-applicable</span>'
expect "DOM: an error is shown as an error" "$out" 'error: I/O errors'
if grep -q '<script' "$out"; then fail "DOM: no script"; else pass "DOM: no script"; fi

# Console errors: none from the page. The check itself is checked on a page
# that does log one.
chrome --enable-logging=stderr --v=0 --dump-dom "$page" >/dev/null
if console_errors >/dev/null; then fail "console errors: $(console_errors | head -3)"; else pass "no console errors"; fi
printf '<!DOCTYPE html><html><body><script>console.error("planted")</script></body></html>' >"$tmp/planted.html"
chrome --enable-logging=stderr --v=0 --dump-dom "file://$tmp/planted.html" >/dev/null
if console_errors | grep -q planted; then pass "a console error would be seen"; else fail "the console check sees nothing: $(head -3 "$err")"; fi

# The screenshot: a PNG of the asked size, not blank.
chrome --screenshot="$tmp/shot.png" --window-size=1280,2000 "$page" >/dev/null
got=$(python3 -c "
import struct,sys,zlib
d=open(sys.argv[1],'rb').read()
assert d[:8]==b'\x89PNG\r\n\x1a\n', 'not a PNG'
w,h=struct.unpack('>II',d[16:24])
print(w, h, len(d) > 50000)" "$tmp/shot.png" 2>&1)
[ "$got" = "1280 2000 True" ] && pass "screenshot: 1280x2000 PNG, not trivial" || fail "screenshot: $got"

# A phone-width window: the layout fits (nothing wider than the window).
sed 's|</body>|<script>document.body.dataset.fit = document.documentElement.scrollWidth + "/" + document.documentElement.clientWidth</script></body>|' \
    "$tmp/report.html" >"$tmp/probe.html"
chrome --window-size=360,800 --dump-dom "file://$tmp/probe.html" >"$out"
fit=$(sed -n 's/.*data-fit="\([0-9]*\)\/\([0-9]*\)".*/\1 \2/p' "$out")
# shellcheck disable=SC2086 # split "scroll client" into two words
set -- $fit
if [ $# -eq 2 ] && [ "$1" -le "$2" ] && [ "$2" -lt 600 ]; then pass "phone width: no sideways overflow ($1 <= $2 px)"; else fail "phone width: scroll/client '$fit'"; fi

# Print: a PDF of several pages.
chrome --no-pdf-header-footer --print-to-pdf="$tmp/report.pdf" "$page" >/dev/null
pages=$(grep -a -o '/Count [0-9]*' "$tmp/report.pdf" 2>/dev/null | awk '$2 > n { n = $2 } END { print n + 0 }')
[ "$pages" -ge 5 ] && pass "print: a PDF of $pages pages" || fail "print: $pages pages"
finish
