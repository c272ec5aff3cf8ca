#!/usr/bin/env bash
# test_man2020_eff.sh: the man2020 efficiency study (e2e suite), reduced with
# --quick (m = 2..4, h = 0.2 .. 0.025). Checks the output contract of
# results/man2020-efficiency.*: every file is written; the JSON has the
# machine, the reference, every configuration and run with its errors,
# counts and times (finite, never compared with a threshold); the unknowns
# per step the steppers report are m d + m c for man2020 (the paper's
# md + mc, §4.2) and m d + (m-1) c for the constrained Lobatto IIIA-IIIB
# (galerkin:s=m,w=m-1,quadL=lobatto,r=m: the momentum form of wenger2017,
# not the paper's 2md + (m-2)c); the q and energy errors fall along each
# sweep above the round-off floor; the three claims carry verdicts.
# Usage: test_man2020_eff.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
id=man2020-efficiency
if ! "$V" reproduce "$id" --quick --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
  cat "$tmp/out" "$tmp/err"
  echo "FAIL: reproduce $id --quick"
  exit 1
fi
fails=0
for ext in md json csv svg png gp; do
  [ -s "$tmp/r/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing or empty"; fails=$((fails + 1)); }
done
grep -q "$id" "$tmp/out" || { echo "FAIL: no summary on stdout"; fails=$((fails + 1)); }
grep -q "Machine:" "$tmp/r/quick/$id.md" || { echo "FAIL: no machine line in $id.md"; fails=$((fails + 1)); }
grep -q "m·d + (m-1)·c" "$tmp/r/quick/$id.md" ||
  { echo "FAIL: $id.md does not state the Lobatto IIIA-IIIB unknowns"; fails=$((fails + 1)); }
"$V" reproduce --list | grep -q "^$id " || { echo "FAIL: $id not listed"; fails=$((fails + 1)); }
python3 - "$tmp/r/quick/$id.json" "$tmp/r/quick/$id.csv" <<'PY' || fails=$((fails + 1))
import csv, json, math, sys

j = json.load(open(sys.argv[1]))
bad = []

def need(obj, key, where):
    if key not in obj:
        bad.append(f"{where}: no '{key}'")
        return None
    return obj[key]

for k in ("id", "system", "params", "d", "c", "T", "machine", "pinned_core", "timing",
          "reference", "configs", "points", "claims", "unknowns_note"):
    need(j, k, "top level")
if j.get("system") != "triple-pendulum" or j.get("T") != 10:
    bad.append("not the triple pendulum to T = 10")
d, c = j.get("d"), j.get("c")
if (d, c) != (4, 1):
    bad.append(f"d, c = {d}, {c} (the triple pendulum has 4 and 1)")
for k in ("cpu", "compiler", "build", "line"):
    need(j.get("machine", {}), k, "machine")
acc = j.get("reference", {}).get("accuracy")
if not (isinstance(acc, float) and math.isfinite(acc) and acc > 0):
    bad.append(f"reference accuracy {acc!r}")

# Unknowns per step: measured (the stepper) against the formulas.
methods = {"LGG", "LLG", "LLL", "Lobatto IIIA-IIIB"}
seen = set()
for cf in j.get("configs", []):
    meth, m = cf.get("method"), cf.get("m")
    seen.add(meth)
    lob = meth == "Lobatto IIIA-IIIB"
    want = m * d + (m - 1) * c if lob else m * d + m * c
    paper = 2 * m * d + (m - 2) * c if lob else m * d + m * c
    if cf.get("unknowns") != want:
        bad.append(f"{meth} m={m}: {cf.get('unknowns')} unknowns per step, expected {want}")
    if cf.get("paper_unknowns") != paper:
        bad.append(f"{meth} m={m}: paper count {cf.get('paper_unknowns')}, expected {paper}")
    spec = cf.get("spec", "")
    if lob and not spec.startswith(f"galerkin:s={m},w={m - 1},quadL=lobatto,r={m},"):
        bad.append(f"Lobatto IIIA-IIIB m={m}: spec {spec}")
    if not lob and not spec.startswith(f"man2020:alg={meth},m={m}"):
        bad.append(f"{meth} m={m}: spec {spec}")
if seen != methods:
    bad.append(f"methods {seen}")
ms = sorted({cf.get("m") for cf in j.get("configs", [])})
if ms != [2, 3, 4]:
    bad.append(f"quick m = {ms}")

# Every run: fields, finite values, unknowns as configured.
curves = {}
cfg_unk = {(cf["method"], cf["m"]): cf.get("unknowns") for cf in j.get("configs", [])}
for i, p in enumerate(j.get("points", [])):
    where = f"point {i} ({p.get('method')} m={p.get('m')} h={p.get('h')})"
    for k in ("method", "m", "spec", "h", "steps", "error_q", "error_p", "error_energy",
              "seconds", "wall_seconds", "seconds_per_step", "repetitions", "unknowns",
              "newton_iters", "newton_per_step", "res_evals", "jac_evals", "ok", "status"):
        need(p, k, where)
    if not p.get("ok"):
        bad.append(f"{where}: failed: {p.get('status')}")
        continue
    for k in ("error_q", "error_p", "error_energy", "seconds", "wall_seconds",
              "seconds_per_step", "newton_per_step"):
        v = p.get(k)
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
            bad.append(f"{where}: {k} = {v!r}")
    if p.get("unknowns") != cfg_unk.get((p.get("method"), p.get("m"))):
        bad.append(f"{where}: unknowns {p.get('unknowns')}")
    if not (isinstance(p.get("newton_iters"), int) and p["newton_iters"] >= p.get("steps", 0)):
        bad.append(f"{where}: {p.get('newton_iters')} Newton iterations for {p.get('steps')} steps")
    curves.setdefault((p["method"], p["m"]), []).append(p)

# Errors fall as h decreases, above the round-off floor.
for key, ps in curves.items():
    ps.sort(key=lambda p: -p["h"])
    if len(ps) < 3:
        bad.append(f"{key}: only {len(ps)} successful runs")
    for x, floor in (("error_q", 1e-11), ("error_energy", 1e-12)):
        for a, b in zip(ps, ps[1:]):
            if a[x] > floor and not b[x] < a[x]:
                bad.append(f"{key}: {x} does not fall from h = {a['h']:g} ({a[x]:.3g}) "
                           f"to h = {b['h']:g} ({b[x]:.3g})")

# The claims: three, each with its verdicts.
claims = j.get("claims", [])
if len(claims) != 3:
    bad.append(f"{len(claims)} claims")
verdict_keys = [("verdict_q", "verdict_energy"), ("verdict_time", "verdict_unknowns"),
                ("verdict_q", "verdict_energy")]
for cl, keys in zip(claims, verdict_keys):
    for k in ("claim", "rule", "per_m") + keys:
        need(cl, k, f"claim '{cl.get('claim')}'")
    for k in keys:
        if not (isinstance(cl.get(k), str) and cl[k]):
            bad.append(f"claim '{cl.get('claim')}': empty {k}")
    for r in cl.get("per_m", []):
        if r.get("verdict") not in ("holds", "does not hold", "mostly holds",
                                    "mostly does not hold", "mixed", "tie (within 10%)", "n/a"):
            bad.append(f"claim '{cl.get('claim')}': verdict {r.get('verdict')!r}")
if claims and not str(claims[1].get("verdict_unknowns", "")).startswith("does not hold"):
    bad.append("claim 2: the unknowns verdict must say it does not hold")

rows = list(csv.DictReader(open(sys.argv[2])))
if len(rows) != len(j.get("points", [])):
    bad.append(f"CSV has {len(rows)} rows, JSON {len(j.get('points', []))} points")
for k in ("method", "m", "h", "unknowns", "paper_unknowns", "error_q", "error_energy",
          "seconds_per_step", "newton_per_step"):
    if rows and k not in rows[0]:
        bad.append(f"CSV: no column {k}")

for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
if [ "$fails" -ne 0 ]; then
  cat "$tmp/out" "$tmp/err"
  echo "test_man2020_eff: $fails failure(s)"
  exit 1
fi
echo "test_man2020_eff: ok"
