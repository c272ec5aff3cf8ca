#!/usr/bin/env bash
# test_workprec.sh: the work-precision study against SUNDIALS IDA (e2e
# suite), reduced with --quick. Checks the output contract of
# results/workprec-double-pendulum.*: every file is written; the JSON has
# every point (the sweep runner's row model) with method, h or tol, error,
# time, evaluations and Newton iterations, all finite; errors fall as h decreases and as the tolerance
# tightens; `speedup` and `speedup_evals` hold "1e-6", "1e-8", "1e-10" as a
# number or null, with a reason for every null, and their details the best
# configuration of each family; the SUNDIALS build is stated (`ida`); the
# claims record is consistent. Data only: never the Markdown's sentences,
# never a timing threshold.
# Usage: test_workprec.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
id=workprec-double-pendulum
if ! "$V" reproduce "$id" --quick --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
  cat "$tmp/out" "$tmp/err"
  echo "FAIL: reproduce $id --quick"
  exit 1
fi
fails=0
for ext in md json csv svg png pdf gp; do
  [ -s "$tmp/r/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing or empty"; fails=$((fails + 1)); }
done
for ext in svg png pdf gp; do
  [ -s "$tmp/r/quick/$id-evals.$ext" ] || { echo "FAIL: $id-evals.$ext missing"; fails=$((fails + 1)); }
done
grep -q "$id" "$tmp/out" || { echo "FAIL: no summary on stdout"; fails=$((fails + 1)); }
python3 - "$tmp/r/quick/$id.json" "$tmp/r/quick/$id.csv" <<'PY' || fails=$((fails + 1))
import csv, json, math, sys

j = json.load(open(sys.argv[1]))
bad = []

def need(obj, key, where):
    if key not in obj:
        bad.append(f"{where}: no '{key}'")
        return None
    return obj[key]

for k in ("id", "system", "params", "T", "machine", "pinned_core", "reference", "ida",
          "configs", "points", "speedup", "speedup_evals", "speedup_wall",
          "speedup_detail", "speedup_evals_detail", "claims", "claims_held",
          "claims_total"):
    need(j, k, "top level")
if j.get("system") != "double-pendulum-3d" or j.get("T") != 10:
    bad.append("not the double pendulum to T = 10")
for k in ("cpu", "compiler", "build", "line"):
    need(j.get("machine", {}), k, "machine")
ref = j.get("reference", {})
acc = need(ref, "accuracy", "reference")
if not (isinstance(acc, float) and math.isfinite(acc) and acc > 0):
    bad.append(f"reference accuracy {acc!r}")

pts = j.get("points", [])
kinds = {p.get("kind") for p in pts}
if kinds != {"stepper", "ida-ggl", "ida-index1"}:
    bad.append(f"kinds {kinds}")
for p in pts:
    p["family"] = "galerkin" if p.get("kind") == "stepper" else "ida"
curves = {}
for i, p in enumerate(pts):
    where = f"point {i} ({p.get('config')})"
    for k in ("kind", "config", "method", "h", "tol", "steps", "error_q", "g_drift",
              "seconds", "wall_seconds", "res_evals", "jac_evals", "newton_iters", "ok",
              "status"):
        need(p, k, where)
    if p.get("family") == "galerkin" and not isinstance(p.get("h"), float):
        bad.append(f"{where}: Galerkin point without h")
    if p.get("family") == "ida" and not isinstance(p.get("tol"), float):
        bad.append(f"{where}: IDA point without rtol")
    if not p.get("ok"):
        continue
    for k in ("error_q", "g_drift", "seconds", "wall_seconds"):
        v = p.get(k)
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
            bad.append(f"{where}: {k} = {v!r}")
    for k in ("res_evals", "newton_iters", "steps"):
        if not (isinstance(p.get(k), int) and p[k] > 0):
            bad.append(f"{where}: {k} = {p.get(k)!r}")
    curves.setdefault(p["config"], []).append(p)

gal = [c for c, v in curves.items() if v[0]["family"] == "galerkin"]
ida = [c for c, v in curves.items() if v[0]["family"] == "ida"]
# The chord curve runs the same scheme as exact Newton's "Gauss s=4" with
# another solver: the configs say which, and at every common h the q errors
# agree to 1e-3 relative, the same curve on the plot (both solves meet
# 100 eps per step, but the double pendulum amplifies differences of that
# size over T = 10: measured 6e-5 relative at h = 1/24).
solvers = {c.get("config"): c.get("solver") for c in j.get("configs", [])}
if solvers.get("Gauss s=4 chord") != "chord" or solvers.get("Gauss s=4") != "newton":
    bad.append(f"solvers of the configs: {solvers}")
ex = {p["h"]: p["error_q"] for p in curves.get("Gauss s=4", [])}
ch = {p["h"]: p["error_q"] for p in curves.get("Gauss s=4 chord", [])}
common = sorted(set(ex) & set(ch))
if len(common) < 3:
    bad.append(f"chord and exact Newton share {len(common)} step sizes")
for h in common:
    if not abs(ex[h] - ch[h]) <= 1e-3 * ex[h]:
        bad.append(f"h = {h}: q error {ch[h]} with the chord method, {ex[h]} with exact Newton")
if len(gal) < 2 or len(ida) < 1:
    bad.append(f"curves with results: galerkin {gal}, ida {ida}")
for c, v in curves.items():
    if len(v) < 3:
        bad.append(f"{c}: only {len(v)} successful runs")
        continue
    if v[0]["family"] == "galerkin":
        # Smaller h, smaller error (quick runs stay far above round-off).
        hs = [p["h"] for p in v]
        if hs != sorted(hs, reverse=True):
            bad.append(f"{c}: h not decreasing")
        for a, b in zip(v, v[1:]):
            if not b["error_q"] < a["error_q"]:
                bad.append(f"{c}: error {b['error_q']:.3g} at h = {b['h']:.4g} not below "
                           f"{a['error_q']:.3g} at h = {a['h']:.4g}")
    else:
        # Variable steps: errors fall with the tolerance overall, not strictly.
        tols = [p["tol"] for p in v]
        if tols != sorted(tols, reverse=True):
            bad.append(f"{c}: tolerance not tightening")
        if not v[-1]["error_q"] < 0.5 * v[0]["error_q"]:
            bad.append(f"{c}: error {v[-1]['error_q']:.3g} at the tightest tolerance, "
                       f"{v[0]['error_q']:.3g} at the loosest")

for key in ("speedup", "speedup_evals"):
    sp, det = j.get(key, {}), j.get(key + "_detail", {})
    for lev in ("1e-6", "1e-8", "1e-10"):
        if lev not in sp:
            bad.append(f"{key}: no '{lev}'")
            continue
        v = sp[lev]
        if v is None:
            if not (det.get(lev) or {}).get("reason"):
                bad.append(f"{key}[{lev}] is null without a reason")
        elif not (isinstance(v, float) and math.isfinite(v) and v > 0):
            bad.append(f"{key}[{lev}] = {v!r}")

# The speedup tables' data: per level, the best of each family and their costs.
for key, unit in (("speedup_detail", "seconds"), ("speedup_evals_detail", "evals")):
    det = j.get(key, {})
    for lev in ("1e-6", "1e-8", "1e-10"):
        d = det.get(lev)
        if not isinstance(d, dict):
            bad.append(f"{key}: no '{lev}'")
            continue
        for k in ("value", "best", "best_method", "ida", "galerkin_" + unit, "ida_" + unit,
                  "reason"):
            need(d, k, f"{key}[{lev}]")
        if d.get("value") is not None and not (isinstance(d.get("best"), str) and
                                               isinstance(d.get("ida"), str)):
            bad.append(f"{key}[{lev}]: a speedup without its two configurations")

# The SUNDIALS build is stated (its version and the note on its optimisation).
ida = j.get("ida", {})
for k in ("version", "tolerances", "build_note"):
    if not (isinstance(ida.get(k), str) and ida[k]):
        bad.append(f"ida: no {k}")
if not (isinstance(ida.get("h_out"), float) and ida["h_out"] > 0):
    bad.append(f"ida: h_out {ida.get('h_out')!r}")

cl = j.get("claims", [])
if j.get("claims_total") != len(cl) or j.get("claims_held") != sum(1 for c in cl if c.get("holds")):
    bad.append("claims record inconsistent")
for c in cl:
    if not (c.get("claim") and c.get("measured") and isinstance(c.get("holds"), bool)):
        bad.append(f"claim without text, measurement or verdict: {c}")

rows = list(csv.DictReader(open(sys.argv[2])))
if len(rows) != len(pts):
    bad.append(f"csv has {len(rows)} rows, json {len(pts)} points")

for b in bad:
    print("FAIL:", b)
print(f"workprec json: {len(pts)} points, {len(curves)} curves, "
      f"speedup {j.get('speedup')}, speedup_evals {j.get('speedup_evals')}; {len(bad)} problems")
sys.exit(1 if bad else 0)
PY
echo "workprec: $fails failed"
[ "$fails" = 0 ]
