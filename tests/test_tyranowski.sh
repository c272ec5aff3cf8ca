#!/usr/bin/env bash
# test_tyranowski.sh: tyranowski2014-longtime reduced with --quick (T = 2000
# instead of 5e5; e2e suite). Checks the output contract: every figure's
# files, the summary with every figure's claims and events; and the
# behaviours the reduced runs already show, measured, never timed: the
# Kepler Lobatto IIIA-IIIB runs break down (|H| > 1) early (the paper:
# "cannot be continued too far"), Gauss keeps H on the vortices at
# round-off, Radau IIA drifts monotonically on Kepler.
# Usage: test_tyranowski.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
id=tyranowski2014-longtime
if ! "$V" reproduce "$id" --quick --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
  cat "$tmp/out" "$tmp/err"
  echo "FAIL: reproduce $id --quick"
  exit 1
fi
fails=0
for f in 5.3 5.4 5.7 5.8 5.11 5.12; do
  for ext in md json csv dat gp svg png pdf; do
    [ -s "$tmp/r/quick/$id-fig$f.$ext" ] || { echo "FAIL: $id-fig$f.$ext missing"; fails=$((fails + 1)); }
  done
done
for ext in md json; do
  [ -s "$tmp/r/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing"; fails=$((fails + 1)); }
done
grep -q "claims of the text hold over 6 figures" "$tmp/out" || { echo "FAIL: no summary line"; fails=$((fails + 1)); }
python3 - "$tmp/r/quick" "$id" <<'PY' || fails=$((fails + 1))
import json, math, sys
d, sid = sys.argv[1], sys.argv[2]
j = json.load(open(f"{d}/{sid}.json"))
bad = []
if len(j["figures"]) != 6:
    bad.append(f"{len(j['figures'])} figures")
if j["claims_total"] != sum(f["claims_total"] for f in j["figures"]):
    bad.append("claims total")
def series(fig):
    s = json.load(open(f"{d}/{sid}-fig{fig}.json"))["series"]
    return {x["label"]: x for x in s}
k = series("5.4")
for lab in ("Lobatto IIIA-IIIB s=3", "Lobatto IIIA-IIIB s=4"):
    ev = k[lab].get("event")
    if not ev or not (ev["t"] < 100) or "> 1" not in ev["what"]:
        bad.append(f"kepler {lab}: no early breakdown ({ev})")
r = k["Radau IIA s=3"]
mids = [(row[1] + row[2]) / 2 for row in r["rows"]]
if r.get("event") or not all(b < a for a, b in zip(mids[::len(mids)//10], mids[len(mids)//10::len(mids)//10])):
    bad.append("kepler Radau IIA: H not decreasing")
v = series("5.7")
for lab in ("Gauss s=1", "Gauss s=2", "Gauss s=3"):
    m = max(max(abs(row[1]), abs(row[2])) for row in v[lab]["rows"])
    if not m <= 1e-10:
        bad.append(f"vortices {lab}: max |H| {m}")
    dm = max(row[3] for row in v[lab]["rows"])
    if not dm <= 1e-12:
        bad.append(f"vortices {lab}: defect {dm} (affine alpha: p = alpha(q) to round-off)")
for b in bad:
    print("FAIL:", b)
print(f"tyranowski2014-longtime quick: {j['claims_held']}/{j['claims_total']} claims; {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
echo "tyranowski: $fails failed"
[ "$fails" = 0 ]
