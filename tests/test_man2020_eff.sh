#!/usr/bin/env bash
# test_man2020_eff.sh: the man2020 efficiency study (e2e suite), reduced with
# --quick (m = 2..4, h = 0.2 .. 0.025), a spec of the sweep runner
# (studies/papers/man2020_eff.c). Checks the output contract of
# results/man2020-efficiency.*: every file is written; the JSON has the
# machine, the reference, every configuration and run (the runner's row
# model) with its errors, counts and times (finite, never compared with a
# threshold); the unknowns per step the steppers report are m d + m c for
# man2020 (the paper's md + mc, §4.2) and m d + (m-1) c for the constrained
# Lobatto IIIA-IIIB (galerkin:s=m,w=m-1,quadL=lobatto,r=m: the momentum form
# of wenger2017, not the paper's 2md + (m-2)c); the q and energy errors fall
# along each sweep above the round-off floor; the three claims are in the
# claims record with their verdicts, their per-m details (with the unknowns
# by formula) in claims_detail. Data only: never the Markdown's sentences.
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
for ext in md json csv svg png pdf gp; do
  [ -s "$tmp/r/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing or empty"; fails=$((fails + 1)); }
done
grep -q "$id" "$tmp/out" || { echo "FAIL: no summary on stdout"; fails=$((fails + 1)); }
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
          "reference", "configs", "points", "groups", "claims", "claims_held",
          "claims_total", "claims_detail", "unknowns_note"):
    need(j, k, "top level")
if j.get("system") != "triple-pendulum" or j.get("T") != 10:
    bad.append("not the triple pendulum to T = 10")
d, c = j.get("d"), j.get("c")
if (d, c) != (4, 1):
    bad.append(f"d, c = {d}, {c} (the triple pendulum has 4 and 1)")
for k in ("cpu", "compiler", "build", "line"):
    need(j.get("machine", {}), k, "machine")
if not (isinstance(j.get("machine", {}).get("line"), str) and j["machine"]["line"]):
    bad.append("no machine line")
if not (isinstance(j.get("unknowns_note"), str) and j["unknowns_note"]):
    bad.append("the unknowns per step are not explained (unknowns_note)")
acc = j.get("reference", {}).get("accuracy")
if not (isinstance(acc, float) and math.isfinite(acc) and acc > 0):
    bad.append(f"reference accuracy {acc!r}")

# The curve's group is the method.
groups = j.get("groups", [])
methods = ["LGG", "LLG", "LLL", "Lobatto IIIA-IIIB"]
if groups != methods:
    bad.append(f"groups {groups}")

def method_of(x):
    g = x.get("group")
    return groups[g] if isinstance(g, int) and 0 <= g < len(groups) else None

# Unknowns per step: measured (the stepper) against the formulas.
seen = set()
for cf in j.get("configs", []):
    meth, m = method_of(cf), cf.get("m")
    seen.add(meth)
    lob = meth == "Lobatto IIIA-IIIB"
    want = m * d + (m - 1) * c if lob else m * d + m * c
    if cf.get("unknowns") != want:
        bad.append(f"{meth} m={m}: {cf.get('unknowns')} unknowns per step, expected {want}")
    spec = cf.get("method", "")
    if lob and not spec.startswith(f"galerkin:s={m},w={m - 1},quadL=lobatto,r={m},"):
        bad.append(f"Lobatto IIIA-IIIB m={m}: spec {spec}")
    if not lob and not spec.startswith(f"man2020:alg={meth},m={m}"):
        bad.append(f"{meth} m={m}: spec {spec}")
    if cf.get("kind") != "stepper":
        bad.append(f"{meth} m={m}: kind {cf.get('kind')}")
if seen != set(methods):
    bad.append(f"methods {seen}")
ms = sorted({cf.get("m") for cf in j.get("configs", [])})
if ms != [2, 3, 4]:
    bad.append(f"quick m = {ms}")

# Every run: fields, finite values, unknowns as configured.
curves = {}
cfg_unk = {(method_of(cf), cf.get("m")): cf.get("unknowns") for cf in j.get("configs", [])}
for i, p in enumerate(j.get("points", [])):
    where = f"point {i} ({p.get('config')} h={p.get('h')})"
    for k in ("config", "kind", "group", "m", "method", "h", "tol", "steps", "error_q",
              "error_p", "error_lambda", "error_energy", "g_drift", "seconds",
              "wall_seconds", "repetitions", "res_evals", "jac_evals", "newton_iters",
              "newton_per_step", "newton_max", "unknowns", "ok", "status"):
        need(p, k, where)
    if not p.get("ok"):
        bad.append(f"{where}: failed: {p.get('status')}")
        continue
    for k in ("h", "error_q", "error_p", "error_lambda", "error_energy", "g_drift", "seconds",
              "wall_seconds", "newton_per_step"):
        v = p.get(k)
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
            bad.append(f"{where}: {k} = {v!r}")
    if p.get("unknowns") != cfg_unk.get((method_of(p), p.get("m"))):
        bad.append(f"{where}: unknowns {p.get('unknowns')}")
    if not (isinstance(p.get("newton_iters"), int) and p["newton_iters"] >= p.get("steps", 0)):
        bad.append(f"{where}: {p.get('newton_iters')} Newton iterations for {p.get('steps')} steps")
    curves.setdefault((method_of(p), p["m"]), []).append(p)

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

# The claims record: four claims (accuracy, unknowns, time per step, time to
# an error), each with its text, measurement and verdict.
claims = j.get("claims", [])
if len(claims) != 4:
    bad.append(f"{len(claims)} claims")
for cl in claims:
    for k in ("claim", "measured", "holds"):
        need(cl, k, f"claim '{cl.get('claim')}'")
    if not (isinstance(cl.get("claim"), str) and cl["claim"] and
            isinstance(cl.get("measured"), str) and cl["measured"]):
        bad.append(f"claim {cl!r}: empty text or measurement")
    if not isinstance(cl.get("holds"), bool):
        bad.append(f"claim '{cl.get('claim')}': holds = {cl.get('holds')!r}")
if j.get("claims_total") != len(claims) or \
        j.get("claims_held") != sum(1 for cl in claims if cl.get("holds") is True):
    bad.append(f"claims_held {j.get('claims_held')} / claims_total {j.get('claims_total')}")

# The per-m details of the claims, with their verdicts.
detail = j.get("claims_detail", [])
if len(detail) != 3:
    bad.append(f"{len(detail)} claims in claims_detail")
verdict_keys = [("verdict_q", "verdict_energy"), ("verdict_time", "verdict_unknowns"),
                ("verdict_q", "verdict_energy")]
for k, (cl, keys) in enumerate(zip(detail, verdict_keys)):
    for key in ("claim", "rule", "holds", "per_m") + keys:
        need(cl, key, f"claims_detail '{cl.get('claim')}'")
    for key in keys:
        if not (isinstance(cl.get(key), str) and cl[key]):
            bad.append(f"claims_detail '{cl.get('claim')}': empty {key}")
    # Detail 2 (cost per step) is two claims of the record: unknowns, time.
    rec = ([claims[0].get("holds")] if k == 0 else
           [claims[1].get("holds") and claims[2].get("holds")] if k == 1 else
           [claims[3].get("holds")]) if len(claims) == 4 else [None]
    if cl.get("holds") != rec[0]:
        bad.append(f"claims_detail '{cl.get('claim')}': holds differs from the claims record")
    for r in cl.get("per_m", []):
        if r.get("verdict") not in ("holds", "does not hold", "mostly holds",
                                    "mostly does not hold", "mixed", "tie (within 10%)", "n/a"):
            bad.append(f"claims_detail '{cl.get('claim')}': verdict {r.get('verdict')!r}")
if len(detail) >= 1:
    for r in detail[0].get("per_m", []):
        for key in ("m", "measure", "compared_h", "lgg_better", "ratio_geomean", "ratio_h0.05"):
            need(r, key, "claim 1 per_m")
if len(detail) >= 2:
    if not str(detail[1].get("verdict_unknowns", "")).startswith("does not hold"):
        bad.append("claim 2: the unknowns verdict must say it does not hold")
    if claims and len(claims) >= 2 and claims[1].get("holds") is not False:
        bad.append("claim 2: cannot hold with one unknown more per step")
    # The paper's counts (formulas in d and c) and the measured ones.
    pm = detail[1].get("per_m", [])
    if sorted(r.get("m") for r in pm) != ms:
        bad.append(f"claim 2: per_m for m = {[r.get('m') for r in pm]}")
    for r in pm:
        m = r.get("m")
        # The formulas the study states: m d + m c for man2020, m d + (m-1) c
        # for the momentum form of the Lobatto IIIA-IIIB it runs.
        if (r.get("formula_lgg"), r.get("formula_lobatto")) != (m * d + m * c,
                                                               m * d + (m - 1) * c):
            bad.append(f"claim 2 m={m}: formulas {r.get('formula_lgg')}, "
                       f"{r.get('formula_lobatto')}")
        if (r.get("paper_lgg"), r.get("paper_prk")) != (m * d + m * c, 2 * m * d + (m - 2) * c):
            bad.append(f"claim 2 m={m}: paper counts {r.get('paper_lgg')}, {r.get('paper_prk')}")
        if (r.get("unknowns_lgg"), r.get("unknowns_lobatto")) != \
                (cfg_unk.get(("LGG", m)), cfg_unk.get(("Lobatto IIIA-IIIB", m))):
            bad.append(f"claim 2 m={m}: unknowns {r.get('unknowns_lgg')}, "
                       f"{r.get('unknowns_lobatto')} differ from the configs")
if len(detail) >= 3:
    need(detail[2], "best_over_m", "claims_detail 3")

rows = list(csv.DictReader(open(sys.argv[2])))
if len(rows) != len(j.get("points", [])):
    bad.append(f"CSV has {len(rows)} rows, JSON {len(j.get('points', []))} points")
for k in ("config", "group", "m", "method", "h", "unknowns", "error_q", "error_energy",
          "seconds", "newton_per_step", "status"):
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
