#!/usr/bin/env bash
# test_demartin_wp.sh: the sweep demartin2018-workprec (dla against nhprk
# s = 2, 3; studies/papers/demartin2018_wp.c) reduced with --quick (e2e
# suite). Checks that every output file is written, that the JSON has the
# four parts and their points, and recomputes from the points (never from
# pasted numbers, never from timings) the fitted slopes in h of the q
# error at T (the q parts) and of the energy error (the energy parts):
# least squares of log e against log h over the runs with e in [1e-11,
# 1e-2]; they must equal the study's own within 1e-9 and lie within 0.3
# of 2 (dla), 2 (nhprk s=2) and 4 (nhprk s=3), and each slope claim's
# verdict must agree with them.
# Usage: test_demartin_wp.sh PATH/TO/vistudy
set -u
V="$1"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
id=demartin2018-workprec
if ! "$V" reproduce "$id" --quick --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
  cat "$tmp/out" "$tmp/err"
  echo "FAIL: reproduce $id --quick"
  exit 1
fi
fails=0
for ext in md json csv svg png pdf gp; do
  [ -s "$tmp/r/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing or empty"; fails=$((fails + 1)); }
done
grep -q "$id" "$tmp/out" || { echo "FAIL: no summary on stdout"; fails=$((fails + 1)); }
"$PY" - "$tmp/r/quick/$id.json" <<'PY' || fails=$((fails + 1))
import json, math, sys
j = json.load(open(sys.argv[1]))
bad = []
parts = [p.get("part") for p in j.get("parts", [])]
want_parts = ["chaotic-nh q", "cvt q", "chaotic-nh E", "cvt E"]
if parts != want_parts:
    bad.append("parts %s" % parts)
expected = {"dla": 2, "nhprk s=2": 2, "nhprk s=3": 4}
an = {a["part"]: a for a in j.get("analysis", [])}
claims = j.get("claims", [])

def slope(points, key):
    xs, ys = [], []
    for p in points:
        e = p.get(key)
        if p.get("ok") and e is not None and 1e-11 <= e <= 1e-2:
            xs.append(math.log(p["h"]))
            ys.append(math.log(e))
    k = len(xs)
    if k < 3:
        return None, k
    sx, sy = sum(xs), sum(ys)
    sxx = sum(x * x for x in xs)
    sxy = sum(x * y for x, y in zip(xs, ys))
    return (k * sxy - sx * sy) / (k * sxx - sx * sx), k

for part in want_parts:
    energy = part.endswith(" E")
    key = "error_energy" if energy else "error_q_T"
    what = "energy error" if energy else "q error at T"
    sl = an.get(part, {}).get("energy_slopes" if energy else "q_slopes", {})
    for cfg, order in expected.items():
        pts = [p for p in j["points"] if p["part"] == part and p["config"] == cfg]
        if not pts:
            bad.append("%s: no points of %s" % (part, cfg))
            continue
        s, k = slope(pts, key)
        mine = sl.get(cfg, {}).get("slope")
        print("%s: %s slope of the %s %s over %d runs (study: %s; want %d)"
              % (part, cfg, what, "%.3f" % s if s is not None else "-", k, mine, order))
        if s is None or mine is None or abs(s - mine) > 1e-9 * max(1.0, abs(s)):
            bad.append("%s: %s slope %s, the study's %s" % (part, cfg, s, mine))
            continue
        if abs(s - order) > 0.3:
            bad.append("%s: %s slope %.3f, want %d within 0.3" % (part, cfg, s, order))
        text = "%s: the %s of %s falls with h at its order %d" % (part, what, cfg, order)
        c = [c for c in claims if c.get("claim") == text]
        if len(c) != 1:
            bad.append("%s: no claim %r" % (part, text))
        elif bool(c[0].get("holds")) != (abs(s - order) <= 0.3):
            bad.append("%s: the claim %r has the verdict %s" % (part, text, c[0].get("holds")))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
echo "demartin_wp: $fails failed"
[ "$fails" -eq 0 ]
