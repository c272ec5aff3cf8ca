#!/usr/bin/env bash
# test_betsch_ho.sh: the sweep of parts betsch-ggl-higher-order (e2e suite),
# reduced with --quick. Checks the output contract of results/ID.*: every
# file is written; the JSON has both parts (system, T, reference, configs)
# and every point with its part; and every claim's verdict is recomputed
# from the data it rests on (the points and the analysis block), never
# from pasted numbers and never against a timing threshold:
#   where each wins  the ratio is paper_seconds / galerkin_seconds; the
#                    Galerkin time lies between the times of two runs of
#                    the named curve whose q errors bracket the level; a
#                    level the paper's schemes do not reach is reached by
#                    none of their runs, and their time is their most
#                    expensive run's; the verdict is ratio > 1 (determined);
#   EM round-off     every EM run's energy error <= 10 eps N;
#   equal cost       EM's cheapest run is the one named; the verdict is
#                    Galerkin's energy error there above EM's;
#   long runs        EM's energy and momenta (over max(1, |I(0)|)) <= 10
#                    eps N; EM's energy and momentum errors below Galerkin's
#                    (the comparison); Galerkin's momenta <= 100 eps N and
#                    its energy within 10x of the sweep's at the same step.
# Usage: test_betsch_ho.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
id=betsch-ggl-higher-order
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
python3 - "$tmp/r/quick/$id.json" "$tmp/r/quick/$id.csv" <<'PY' || fails=$((fails + 1))
import csv, json, math, sys

EPS = 2.220446049250313e-16
j = json.load(open(sys.argv[1]))
bad = []

def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b))

for k in ("id", "parts", "machine", "pinned_core", "points", "analysis", "claims",
          "claims_held", "claims_total"):
    if k not in j:
        bad.append(f"top level: no '{k}'")
parts = j.get("parts", [])
names = [p.get("part") for p in parts]
if names != ["four-particle", "gyro-top"]:
    bad.append(f"parts {names}")
for p in parts:
    for k in ("system", "params", "T", "reference", "configs"):
        if k not in p:
            bad.append(f"part {p.get('part')}: no '{k}'")
    acc = p.get("reference", {}).get("accuracy")
    if not (isinstance(acc, float) and math.isfinite(acc) and acc > 0):
        bad.append(f"part {p.get('part')}: reference accuracy {acc!r}")

pts = j.get("points", [])
for i, p in enumerate(pts):
    if p.get("part") not in names:
        bad.append(f"point {i}: part {p.get('part')!r}")
    if p.get("ok"):
        for k in ("error_q", "error_energy", "seconds", "h", "steps"):
            v = p.get(k)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                bad.append(f"point {i} ({p.get('config')}): {k} = {v!r}")

claims = j.get("claims", [])
if j.get("claims_total") != len(claims) or \
        j.get("claims_held") != sum(1 for c in claims if c.get("holds")):
    bad.append("claims record inconsistent")
for c in claims:
    if not (c.get("claim") and c.get("measured") and isinstance(c.get("holds"), bool)):
        bad.append(f"claim without text, measurement or verdict: {c}")
seen = set()

def verdict(idx, expect, what):
    if not isinstance(idx, int) or not 0 <= idx < len(claims):
        bad.append(f"{what}: no claim ({idx!r})")
        return
    seen.add(idx)
    if claims[idx].get("holds") != expect:
        bad.append(f"{what}: verdict {claims[idx].get('holds')}, the data say {expect}")

an = j.get("analysis", [])
if [a.get("part") for a in an] != names:
    bad.append(f"analysis parts {[a.get('part') for a in an]}")
for a in an:
    part = a.get("part")
    ok = [p for p in pts if p.get("part") == part and p.get("ok")]
    paper = [p for p in ok if p.get("group") == 0]
    gal = [p for p in ok if p.get("group") == 1]
    em = [p for p in paper if p.get("config") == "EM"]
    if not (paper and gal and em):
        bad.append(f"{part}: runs of paper {len(paper)}, galerkin {len(gal)}, EM {len(em)}")
        continue
    # Where each wins.
    for w in a.get("where_each_wins", []):
        lev, what = w.get("level"), f"{part} at {w.get('level')}"
        r, tg, tp = w.get("paper_over_galerkin"), w.get("galerkin_seconds"), \
            w.get("paper_seconds")
        if w.get("galerkin") is not None:
            runs = [p for p in gal if p["config"] == w["galerkin"]]
            br = any(x["error_q"] >= lev >= y["error_q"] and
                     min(x["seconds"], y["seconds"]) * (1 - 1e-9) <= tg <=
                     max(x["seconds"], y["seconds"]) * (1 + 1e-9)
                     for x, y in zip(runs, runs[1:]))
            below = bool(runs) and runs[0]["error_q"] <= lev and close(runs[0]["seconds"], tg)
            if not (br or (below and w.get("galerkin_upper_bound"))):
                bad.append(f"{what}: Galerkin time {tg} not from runs bracketing the level")
        if w.get("paper_not_reached"):
            if any(p["error_q"] <= lev for p in paper):
                bad.append(f"{what}: a paper run reaches the level, marked not reached")
            if not close(tp, max(p["seconds"] for p in paper)):
                bad.append(f"{what}: paper time {tp} is not their most expensive run's")
        if r is not None and not close(r, tp / tg):
            bad.append(f"{what}: ratio {r} != {tp} / {tg}")
        if w.get("claim") is not None:
            exp = r is not None and r > 1 and (bool(w.get("determined")) or
                                              bool(w.get("paper_not_reached")))
            verdict(w["claim"], exp, f"{what} (where each wins)")
        elif not j.get("quick"):
            bad.append(f"{what}: no claim in a full run")
    # EM at round-off, every run.
    e = a.get("energy", {})
    exp = all(p["error_energy"] <= 10 * EPS * p["steps"] for p in em)
    verdict(e.get("claim_em_roundoff"), exp, f"{part}: EM round-off")
    if not close(e.get("em_max_energy_error"), max(p["error_energy"] for p in em)):
        bad.append(f"{part}: EM's largest energy error")
    cheap = min(em, key=lambda p: p["seconds"])
    if not (close(e.get("em_cheapest_seconds"), cheap["seconds"]) and
            close(e.get("em_cheapest_energy_error"), cheap["error_energy"])):
        bad.append(f"{part}: EM's cheapest run")
    ge = e.get("galerkin_energy_error_at_em_cheapest")
    exp = ge is not None and ge > cheap["error_energy"]
    verdict(e.get("claim_equal_cost"), exp, f"{part}: energy at equal cost")
    # The long runs.
    lr = a.get("long_run", [])
    if len(lr) != 2 or lr[0].get("config") != "EM":
        bad.append(f"{part}: long runs {[x.get('config') for x in lr]}")
        continue
    lc = a.get("long_run_claims", [None, None])
    def scaled(x):
        # each momentum map's deviation over max(1, |I(0)|)
        m, m0 = x.get("momentum_errors", {}), x.get("momentum_initial", {})
        v = max(m[k] / max(1.0, abs(m0[k])) for k in m)
        if not close(v, x.get("momentum_error_scaled_max")):
            bad.append(f"{part}: {x.get('config')}: scaled momentum error")
        return v
    x = lr[0]
    exp = bool(x.get("ok")) and x["energy_error"] <= 10 * EPS * x["steps"] and \
        scaled(x) <= 10 * EPS * x["steps"]
    verdict(lc[0], exp, f"{part}: EM long run")
    if len(lc) != 3:
        bad.append(f"{part}: long-run claims {lc}")
        continue
    exp = bool(lr[0].get("ok")) and bool(lr[1].get("ok")) and \
        lr[0]["energy_error"] < lr[1]["energy_error"] and scaled(lr[0]) < scaled(lr[1])
    verdict(lc[1], exp, f"{part}: long runs compared")
    x = lr[1]
    es = a.get("long_run_energy_short")
    exp = bool(x.get("ok")) and es is not None and \
        scaled(x) <= 100 * EPS * x["steps"] and \
        x["energy_error"] <= 10 * max(es, 10 * EPS * x["steps"])
    verdict(lc[2], exp, f"{part}: Galerkin long run")
    for y in lr:
        if y.get("ok") and not (isinstance(y.get("seconds"), float) and y["seconds"] > 0):
            bad.append(f"{part}: long run {y.get('config')} without its time")

if seen != set(range(len(claims))):
    bad.append(f"claims not recomputed: {sorted(set(range(len(claims))) - seen)}")
rows = list(csv.DictReader(open(sys.argv[2])))
if len(rows) != len(pts) or (rows and "part" not in rows[0]):
    bad.append(f"csv: {len(rows)} rows (json {len(pts)} points), part column")

for b in bad:
    print("FAIL:", b)
print(f"betsch-ggl-higher-order json: {len(pts)} points, {len(claims)} claims "
      f"({j.get('claims_held')} hold); {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
echo "betsch_ho: $fails failed"
[ "$fails" = 0 ]
