#!/usr/bin/env bash
# test_demartin_chaotic.sh: demartin2018-chaotic (Fig. 6, the ensemble
# statistic mu(E,k) of demartin2018 (33)) reduced with --quick (e2e suite):
# 4 members (J = 3), h = 0.1 and 0.05, T = 20. Checks the files, that the
# cell store was removed once the results were written, that mu at t = T
# is (33) of the members' stored energy changes, and the measured orders:
# the exponent of mu in h, recomputed here from the CSV's mu (least squares
# of log mu on log h at every t, the median per window of t), must be what
# the orders predict, mu ~ (h^{2s-2})^2: 4 for s = 2 and 8 for s = 3,
# within 0.3 (the order tolerance of the reading notes §4.2) in every
# window. Every claim's verdict is recomputed from the CSV by the study's
# stated rules and compared with the study's. Resume: a run whose plot
# fails (gnuplot off the PATH) keeps its stored members; one member is
# spoiled (a change missing) and another forged but valid (every change
# zero): the rerun must measure the spoiled one again, with a note naming
# it, and reuse the forged one (its zeros in the results), so that a store
# that is ignored fails too.
# Usage: test_demartin_chaotic.sh PATH/TO/vistudy
set -u
V="$1"
id=demartin2018-chaotic
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$V" reproduce "$id" --quick --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
  cat "$tmp/out" "$tmp/err"
  echo "FAIL: reproduce $id --quick"
  exit 1
fi
python3 - "$tmp/r/quick" "$id" <<'PY'
import csv, json, math, os, sys
d, sid = sys.argv[1], sys.argv[2]
bad = []
for ext in ("json", "md", "csv", "gp", "svg", "png"):
    p = f"{d}/{sid}.{ext}"
    if not os.path.exists(p) or not os.path.getsize(p):
        bad.append(f"{sid}.{ext} missing or empty")
if os.path.exists(f"{d}/{sid}.partial.json"):
    bad.append("the cell store was not removed after the results were written")
j = json.load(open(f"{d}/{sid}.json"))
cfg = j["config"]
hs = cfg["h"]
T = cfg["T"]
if not (j["quick"] and cfg["J"] == 3 and cfg["members"] == 4 and T == 20 and hs == [0.1, 0.05]
        and cfg["m_c"] == 3 and cfg["system"] == "chaotic-nh"):
    bad.append(f"quick configuration {cfg}")
if len(j["members"]) != 2 * len(hs) * cfg["members"]:
    bad.append(f"{len(j['members'])} members stored")
for m in j["members"]:
    if abs(m["E0"] - 3.06) > 1e-12:
        bad.append(f"member {m['method']} h={m['h']} j={m['j']}: E0 {m['E0']}")
rows = list(csv.DictReader(open(f"{d}/{sid}.csv")))
if len(rows) != T or [int(r["t"]) for r in rows] != list(range(1, T + 1)):
    bad.append("the CSV's grid is not t = 1..T")
mu = {(s, h): [float(r[f"mu_s{s}_h{h:g}"]) for r in rows] for s in (2, 3) for h in hs}

# (33) at t = T from the members' stored changes.
for e in j["ensembles"]:
    dE = [m["dE_T"] for m in j["members"]
          if m["h"] == e["h"] and m["method"].startswith(f"nhprk:s={e['s']},")]
    want = sum(x * x for x in dE) / len(dE) if dE else float("nan")
    if len(dE) != 4 or not abs(e["mu_T"] - want) <= 1e-12 * want or \
            not abs(mu[(e["s"], e["h"])][-1] - want) <= 1e-12 * want:
        bad.append(f"s={e['s']} h={e['h']}: mu(T) {e['mu_T']} is not (33) of the members, {want}")


def slope(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


lh = [math.log10(h) for h in hs]
windows = [(1, 10), (11, T)]
med = {}
for s in (2, 3):
    p = [slope(lh, [math.log10(mu[(s, h)][t]) for h in hs]) for t in range(T)]
    for t in range(T):
        if abs(p[t] - float(rows[t][f"p_s{s}"])) > 1e-9:
            bad.append(f"s={s} t={t + 1}: p {rows[t][f'p_s{s}']} in the CSV, {p[t]} recomputed")
            break
    med[s] = [median(p[a - 1:b]) for a, b in windows]
    theory = 2 * (2 * s - 2)
    for (a, b), m in zip(windows, med[s]):
        if abs(m - theory) > 0.3:
            bad.append(f"s={s}: exponent of mu in h {m:.3f} on t in [{a}, {b}], theory {theory}")
    print(f"s={s}: exponent of mu in h per window {[round(m, 3) for m in med[s]]}, theory {theory}")

# The verdicts by the study's rules (tolerances from its JSON).
tol = cfg["collapse_tolerance"]
collapse = lambda s, q: all(abs(m - q) <= tol for m in med[s])
tenth = max(T // 10, 1)
grows = all(sum(mu[k][-tenth:]) >= cfg["growth_ratio"] * sum(mu[k][:tenth]) for k in mu)
t_lo = max(T // 100, 1)
lt = [math.log10(t) for t in range(t_lo, T + 1)]
walk = all(abs(slope(lt, [math.log10(v) for v in mu[k][t_lo - 1:]]) - 1)
           <= cfg["random_walk_tolerance"] for k in mu)
want = [grows, walk, collapse(2, 4), collapse(3, 10), collapse(3, 8)]
got = [c["holds"] for c in j["claims"]]
if got != want:
    bad.append(f"verdicts {got}, recomputed {want}")
if not collapse(3, 8) or collapse(3, 10):
    bad.append("s = 3: h^8 must collapse the curves and h^10 must not")
for b in bad:
    print("FAIL:", b)
print(f"{sid} quick: {len(bad)} failures")
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] || exit 1

# Resume from the members a failed run kept.
if PATH=/nonexistent "$V" reproduce "$id" --quick --results "$tmp/s" >"$tmp/out2" 2>"$tmp/err2"; then
  echo "FAIL: the run without gnuplot succeeded"
  exit 1
fi
python3 - "$tmp/s/quick/$id.partial.json" <<'PY' || exit 1
import json, sys
p = sys.argv[1]
d = json.load(open(p))
c = d["cells"]
if len(c) != 16:
    sys.exit(f"FAIL: {len(c)} members kept, expected 16")
c["nhprk:s=3 h=0.05 j=2"]["dE"].pop()
c["nhprk:s=2 h=0.1 j=1"]["dE"] = [0.0] * len(c["nhprk:s=2 h=0.1 j=1"]["dE"])
json.dump(d, open(p, "w"))
PY
if ! "$V" reproduce "$id" --quick --results "$tmp/s" >"$tmp/out3" 2>"$tmp/err3"; then
  cat "$tmp/out3" "$tmp/err3"
  echo "FAIL: the resumed run"
  exit 1
fi
python3 - "$tmp/r/quick/$id.json" "$tmp/s/quick/$id.json" "$tmp/err3" <<'PY'
import json, sys
fresh, resumed, err = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
bad = []
if "stored member nhprk:s=3 h=0.05 j=2 in" not in err or "is invalid" not in err:
    bad.append("no note naming the spoiled member: " + err)
key = lambda m: (m["method"].split(",")[0], m["h"], m["j"])
f = {key(m): m for m in fresh["members"]}
for m in resumed["members"]:
    k = key(m)
    if k == ("nhprk:s=2", 0.1, 1):
        if m["max_abs_dE"] != 0:
            bad.append("the forged member was measured again, not reused")
    elif m["dE_T"] != f[k]["dE_T"]:
        bad.append(f"member {k}: {m['dE_T']} resumed, {f[k]['dE_T']} fresh")
for b in bad:
    print("FAIL:", b)
print(f"resume: {len(bad)} failures")
sys.exit(1 if bad else 0)
PY
