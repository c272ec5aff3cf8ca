#!/usr/bin/env bash
# test_results_page.sh: the results page as a reader meets it (issue 27;
# e2e suite). tools/results_page.py writes the page of the committed
# results/ into a temporary directory (links relative to it), then:
#   - one row per study of `vistudy reproduce --list`, each with a verdict,
#     and as many inline figures as results/ has PNGs of the studies;
#   - headless Chromium (tools/browser_check.py) loads it: every image
#     loads, every link resolves, no console message, no exception;
#   - the committed results/index.html and results/README.md are the
#     generator's output for the committed results (stale pages fail).
# Usage: test_results_page.sh VISTUDY SOURCE_ROOT. Exit 77 (skip) without
# chromium or python3-websocket (tools/setup installs both).
. "$(dirname "$0")/lib.sh" "$1"
src="$2"

res="$src/results"
costs=()
[ -f "$res/run-costs.jsonl" ] && costs=(--costs "$res/run-costs.jsonl")
if python3 "$src/tools/results_page.py" --vistudy "$V" --results "$res" --out "$tmp/page" \
     "${costs[@]}" --summary >"$tmp/summary.txt" 2>"$tmp/err"; then
  ok
else
  bad "results_page.py failed"; cat "$tmp/err" >&2
fi
n_studies=$("$V" reproduce --list | grep -c .)
rows=$(grep -c '^<tr><td><a href="#' "$tmp/page/index.html")
[ "$rows" = "$n_studies" ] && ok || bad "$rows study rows for $n_studies studies"
grep -cE '<td class="v (ok|differs|measured)">' "$tmp/page/index.html" | grep -qx "$n_studies" &&
  ok || bad "not every study has a verdict (missing results?)"
grep -q "^results page: $tmp/page/index.html" "$tmp/summary.txt" && ok || bad "summary lacks the page path"
[ "$(grep -cE '^  [a-z0-9-]+ +(ok|differs|measured|missing) ' "$tmp/summary.txt")" = "$n_studies" ] &&
  ok || bad "the summary has not one line per study"
# Every figure a study's md embeds (its .svg) is on the page (as its .png):
# the studies' own account of their figures, not the generator's rule.
python3 - "$res" "$tmp/page/index.html" >"$tmp/figs.txt" <<'PY'
import os, re, sys
res, page = sys.argv[1], open(sys.argv[2]).read()
shown = set(re.findall(r'<img src="[^"]*?([^/"]+)\.png"', page))
embedded = set()
for f in os.listdir(res):
    if f.endswith(".md") and f != "README.md":
        embedded |= set(re.findall(r"!\[[^]]*\]\(([^)/]+)\.svg\)", open(os.path.join(res, f)).read()))
for name in sorted(embedded - shown):
    print("missing", name)
print("embedded", len(embedded), "shown", len(shown))
PY
grep -q '^missing' "$tmp/figs.txt" && bad "figures embedded in the studies' md but not on the page: $(grep '^missing' "$tmp/figs.txt" | tr '\n' ' ')" || ok
pngs=$(grep -o '<figure><a href=[^>]*><img' "$tmp/page/index.html" | wc -l)
tail -1 "$tmp/figs.txt"

# The committed page is the generator's output for the committed results.
if python3 "$src/tools/results_page.py" --vistudy "$V" --results "$res" "${costs[@]}" --check \
     2>"$tmp/err"; then ok; else
  bad "results/index.html or README.md is stale: rerun tools/run, or python3 tools/results_page.py --costs results/run-costs.jsonl"
  cat "$tmp/err" >&2
fi

# A real browser.
bc="$src/tools/browser_check.py"
if ! command -v chromium >/dev/null || ! /usr/bin/python3 -c 'import websocket' 2>/dev/null; then
  echo "results_page: $checks checks, $fails failed; browser check skipped (tools/setup installs chromium python3-websocket)"
  [ "$fails" = 0 ] && exit 77 || exit 1
fi
if "$bc" "$tmp/page/index.html" --timeout 120 >"$tmp/bc.out" 2>&1; then ok; else
  bad "the page does not pass the browser check"
fi
cat "$tmp/bc.out"
# the figures and the benchmark trend
all=$((pngs + $([ -f "$res/bench/trend.png" ] && echo 1 || echo 0)))
grep -qE "loaded in .*; $all images" "$tmp/bc.out" && ok || bad "the browser did not see $all images"

vi_test_end results_page
