#!/usr/bin/env bash
# test_figures.sh: the wenger2017 figure studies on their reduced grids
# (--quick; e2e suite). Checks the output contract (json, csv, md, dat, gp,
# svg, png, pdf), the numbers (finite, errors decreasing along each sweep) and
# the claims that do not depend on timing: the energy error of fig2 is
# bounded and smaller for the order-8 combination at a ten times larger
# step; fig3's z angular momentum drops to quad round-off in quad precision
# (it is conserved exactly by the scheme). Run times are never asserted.
# Usage: test_figures.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
fails=0
for id in wenger2017-fig2 wenger2017-fig3 wenger2017-fig4 wenger2017-fig5; do
  if ! "$V" reproduce "$id" --quick --results "$tmp" >"$tmp/out" 2>&1; then
    cat "$tmp/out"; echo "FAIL: reproduce $id"; fails=$((fails + 1)); continue
  fi
  grep -q "claims of the text hold" "$tmp/out" || { echo "FAIL: $id: no claims summary"; fails=$((fails + 1)); }
  for ext in json csv md dat gp svg png pdf; do
    [ -s "$tmp/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing or empty"; fails=$((fails + 1)); }
  done
  head -c 8 "$tmp/quick/$id.png" | grep -q PNG || { echo "FAIL: $id.png is not a PNG"; fails=$((fails + 1)); }
  grep -q "<svg" "$tmp/quick/$id.svg" || { echo "FAIL: $id.svg is not an SVG"; fails=$((fails + 1)); }
  head -c 5 "$tmp/quick/$id.pdf" | grep -q "%PDF-" || { echo "FAIL: $id.pdf is not a PDF"; fails=$((fails + 1)); }
  ls -A "$tmp/quick" | grep -q "\.tmp\." && { echo "FAIL: temporary files left"; fails=$((fails + 1)); }
  python3 - "$tmp/quick/$id.json" <<'PY' || fails=$((fails + 1))
import json, math, sys
j = json.load(open(sys.argv[1]))
bad = []
for key in ("id", "system", "T", "precision", "choices", "machine", "series", "claims",
            "claims_held", "claims_total"):
    if key not in j:
        bad.append(f"missing {key}")
for m in ("cpu", "cores", "os", "compiler", "build", "version"):
    if m not in j.get("machine", {}):
        bad.append(f"machine lacks {m}")
for s in j["series"]:
    cols = s["columns"]
    if not s["rows"]:
        bad.append(f"{s['label']}: no rows")
    for r in s["rows"]:
        if len(r) != len(cols) or not all(math.isfinite(x) for x in r):
            bad.append(f"{s['label']}: bad row {r}")
            break
    if "err_q" in cols and len(s["rows"]) >= 3:
        e = [r[cols.index("err_q")] for r in s["rows"]]
        if not e[-1] < 1e-2 * e[0]:
            bad.append(f"{s['label']}: e_q does not decrease along the sweep: {e[0]:.2e} -> {e[-1]:.2e}")
claims = {c["claim"]: c for c in j["claims"]}
if j["id"] in ("wenger2017-fig2", "wenger2017-fig3"):
    for c in j["claims"]:
        if not c["holds"]:
            bad.append(f"claim does not hold: {c['claim']}: {c['measured']}")
if j["id"] == "wenger2017-fig3":
    for s in j["series"]:
        if not s.get("quad_check_error", 1) < 1e-25:
            bad.append(f"{s['label']}: quad Jz error {s.get('quad_check_error')}")
for b in bad:
    print(f"FAIL: {j['id']}: {b}")
print(f"{j['id']}: {len(j['series'])} series, {j['claims_held']}/{j['claims_total']} claims hold")
sys.exit(1 if bad else 0)
PY
done
# Usage error: an unknown study exits 2 and names the valid ones.
"$V" reproduce wenger2017-fig9 --results "$tmp" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown study must exit 2"; fails=$((fails + 1)); }
echo "test_figures: $fails failure(s)"
[ "$fails" -eq 0 ]
