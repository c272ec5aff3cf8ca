#!/usr/bin/env bash
# test_demartin_chaotic.sh: demartin2018-chaotic (Fig. 6, the ensemble
# statistic mu(E,k) of demartin2018 (33), and C13, nhprk s = 2 against the
# DLA integrator) reduced with --quick (e2e suite): 4 members (J = 3),
# h = 0.1 and 0.05, T = 20, for nhprk s = 2, 3 and dla. Checks the files,
# that the cell store was removed once the results were written, that mu at
# t = T is (33) of the members' stored energy changes, that each
# ensemble's CPU time is the mean of its members', and the measured
# orders: the exponent of mu in h, recomputed here from the CSV's mu (least
# squares of log mu on log h at every t, the median per window of t), must
# be what the orders predict, mu ~ (h^order)^2: 4 for nhprk s = 2 and for
# dla (both of order 2), 8 for s = 3, within 0.3 (the order tolerance of
# the reading notes §4.2) in every window. Every claim's verdict is
# recomputed from the CSV by the study's stated rules and compared with the
# study's, C13 included: the ratio mu(s=2)/mu(dla) at the same h and at
# equal CPU time (log mu of s = 2 on log CPU time, least squares over h,
# at the mean CPU time of a dla member) against the CSV's columns, their
# window medians against the JSON, "alike" within the factor the JSON
# states. Resume: a run whose plot fails (gnuplot off the PATH) keeps its
# stored members; one member is spoiled (a change missing), one is of the
# earlier cell layout (no CPU time) and another forged but valid (every
# change zero): the rerun must measure the spoiled ones again, with a note
# naming each, and reuse the forged one (its zeros in the results), so
# that a store that is ignored fails too. A store of the earlier
# configuration (two methods, cells without CPU time) is not used: a note
# says so and every member is measured again.
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
for ext in ("json", "md", "csv", "gp", "svg", "png", "pdf"):
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
# The methods: tag of the CSV columns, the spec of the ensembles, the
# exponent of mu in h the order predicts.
meths = {"s2": ("nhprk:s=2", 4), "s3": ("nhprk:s=3", 8), "dla": ("dla", 4)}
if [m.split(",")[0] for m in cfg["methods"]] != ["nhprk:s=2", "nhprk:s=3", "dla:point=leapfrog"]:
    bad.append(f"methods {cfg['methods']}")
if len(j["members"]) != len(meths) * len(hs) * cfg["members"]:
    bad.append(f"{len(j['members'])} members stored")
for m in j["members"]:
    if abs(m["E0"] - 3.06) > 1e-12:
        bad.append(f"member {m['method']} h={m['h']} j={m['j']}: E0 {m['E0']}")
    if not m["cpu_seconds"] > 0:
        bad.append(f"member {m['method']} h={m['h']} j={m['j']}: CPU time {m['cpu_seconds']}")
rows = list(csv.DictReader(open(f"{d}/{sid}.csv")))
if len(rows) != T or [int(r["t"]) for r in rows] != list(range(1, T + 1)):
    bad.append("the CSV's grid is not t = 1..T")
mu = {(g, h): [float(r[f"mu_{g}_h{h:g}"]) for r in rows] for g in meths for h in hs}
spec_tag = {spec: g for g, (spec, _) in meths.items()}


def of(member, spec):
    short = member["method"].split(",")[0]
    return short == spec or short.startswith(spec + ":")


# (33) at t = T and the mean CPU time from the members' stored values.
cpu = {}
for e in j["ensembles"]:
    g = spec_tag[e["method"]]
    ms = [m for m in j["members"] if m["h"] == e["h"] and of(m, e["method"])]
    dE = [m["dE_T"] for m in ms]
    want = sum(x * x for x in dE) / len(dE) if dE else float("nan")
    if len(dE) != 4 or not abs(e["mu_T"] - want) <= 1e-12 * want or \
            not abs(mu[(g, e["h"])][-1] - want) <= 1e-12 * want:
        bad.append(f"{e['method']} h={e['h']}: mu(T) {e['mu_T']} is not (33) of the members, {want}")
    c = sum(m["cpu_seconds"] for m in ms) / len(ms) if ms else float("nan")
    if not abs(e["cpu_seconds_per_member"] - c) <= 1e-12 * c:
        bad.append(f"{e['method']} h={e['h']}: CPU time {e['cpu_seconds_per_member']}, members' mean {c}")
    cpu[(g, e["h"])] = e["cpu_seconds_per_member"]


def line(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    a = sum((u - mx) * (v - my) for u, v in zip(x, y)) / sum((u - mx) ** 2 for u in x)
    return a, my - a * mx


def slope(x, y):
    return line(x, y)[0]


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


lh = [math.log10(h) for h in hs]
windows = [(1, 10), (11, T)]
med = {}
for g, (spec, theory) in meths.items():
    p = [slope(lh, [math.log10(mu[(g, h)][t]) for h in hs]) for t in range(T)]
    for t in range(T):
        if abs(p[t] - float(rows[t][f"p_{g}"])) > 1e-9:
            bad.append(f"{spec} t={t + 1}: p {rows[t][f'p_{g}']} in the CSV, {p[t]} recomputed")
            break
    med[g] = [median(p[a - 1:b]) for a, b in windows]
    for (a, b), m in zip(windows, med[g]):
        if abs(m - theory) > 0.3:
            bad.append(f"{spec}: exponent of mu in h {m:.3f} on t in [{a}, {b}], theory {theory}")
    print(f"{spec}: exponent of mu in h per window {[round(m, 3) for m in med[g]]}, theory {theory}")

# C13: the ratios at the same h and at equal cost, from the CSV's mu and
# the ensembles' CPU times, against the CSV's columns and the JSON.
r13 = {h: [mu[("s2", h)][t] / mu[("dla", h)][t] for t in range(T)] for h in hs}
r13c = {h: [] for h in hs}
lc = [math.log10(cpu[("s2", h)]) for h in hs]
for t in range(T):
    a, b = line(lc, [math.log10(mu[("s2", h)][t]) for h in hs])
    for h in hs:
        r13c[h].append(10 ** (b + a * math.log10(cpu[("dla", h)])) / mu[("dla", h)][t])
for h in hs:
    for name, r in ((f"r13_h{h:g}", r13[h]), (f"r13c_h{h:g}", r13c[h])):
        for t in range(T):
            if not abs(float(rows[t][name]) - r[t]) <= 1e-9 * r[t]:
                bad.append(f"{name} t={t + 1}: {rows[t][name]} in the CSV, {r[t]} recomputed")
                break
like_factor = cfg["like_factor"]
c13 = j["c13"]
like = {}
for key, r in (("same_h", r13), ("equal_cost", r13c)):
    meds = {h: [median(r[h][a - 1:b]) for a, b in windows] for h in hs}
    for ph in c13["per_h"]:
        for w, m in zip(ph["windows"], meds[ph["h"]]):
            if not abs(w[key]["median"] - m) <= 1e-9 * m:
                bad.append(f"C13 {key} h={ph['h']} t in [{w['t_lo']}, {w['t_hi']}]: "
                           f"median {w[key]['median']}, recomputed {m}")
    like[key] = all(1 / like_factor <= m <= like_factor for h in hs for m in meds[h])
    print(f"C13 {key}: window medians of mu(s=2)/mu(dla) "
          f"{ {h: [round(m, 3) for m in meds[h]] for h in hs} }, alike {like[key]}")
if (c13["like_same_h"], c13["like_equal_cost"]) != (like["same_h"], like["equal_cost"]):
    bad.append(f"C13 verdicts in the JSON {c13['like_same_h']}, {c13['like_equal_cost']}; "
               f"recomputed {like['same_h']}, {like['equal_cost']}")

# The verdicts by the study's rules (tolerances from its JSON).
tol = cfg["collapse_tolerance"]
collapse = lambda g, q: all(abs(m - q) <= tol for m in med[g])
tenth = max(T // 10, 1)
grows_of = lambda k: sum(mu[k][-tenth:]) >= cfg["growth_ratio"] * sum(mu[k][:tenth])
nhprk = [k for k in mu if k[0] != "dla"]
grows = all(grows_of(k) for k in nhprk)
t_lo = max(T // 100, 1)
lt = [math.log10(t) for t in range(t_lo, T + 1)]
walk = all(abs(slope(lt, [math.log10(v) for v in mu[k][t_lo - 1:]]) - 1)
           <= cfg["random_walk_tolerance"] for k in nhprk)
dla_grows = all(grows_of(("dla", h)) for h in hs)
want = [grows, walk, collapse("s2", 4), collapse("s3", 10), collapse("s3", 8),
        collapse("dla", 4), like["same_h"], like["equal_cost"], dla_grows]
got = [c["holds"] for c in j["claims"]]
if got != want:
    bad.append(f"verdicts {got}, recomputed {want}")
if not collapse("s3", 8) or collapse("s3", 10):
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
cp "$tmp/s/quick/$id.partial.json" "$tmp/kept.json"
python3 - "$tmp/s/quick/$id.partial.json" <<'PY' || exit 1
import json, sys
p = sys.argv[1]
d = json.load(open(p))
c = d["cells"]
if len(c) != 24:
    sys.exit(f"FAIL: {len(c)} members kept, expected 24")
c["nhprk:s=3 h=0.05 j=2"]["dE"].pop()
del c["dla h=0.1 j=3"]["cpu_seconds"]
c["nhprk:s=2 h=0.1 j=1"]["dE"] = [0.0] * len(c["nhprk:s=2 h=0.1 j=1"]["dE"])
json.dump(d, open(p, "w"))
PY
if ! "$V" reproduce "$id" --quick --results "$tmp/s" >"$tmp/out3" 2>"$tmp/err3"; then
  cat "$tmp/out3" "$tmp/err3"
  echo "FAIL: the resumed run"
  exit 1
fi
python3 - "$tmp/r/quick/$id.json" "$tmp/s/quick/$id.json" "$tmp/err3" <<'PY' || exit 1
import json, sys
fresh, resumed, err = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
bad = []
for k in ("nhprk:s=3 h=0.05 j=2", "dla h=0.1 j=3"):
    if f"stored member {k} in" not in err:
        bad.append(f"no note naming the invalid member {k}: " + err)
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

# A store of the earlier configuration: nhprk s = 2, 3 only, cells without
# a CPU time, the configuration line of that layout. It is not used.
mkdir -p "$tmp/o/quick"
python3 - "$tmp/kept.json" "$tmp/o/quick/$id.partial.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
d["config"] = ("chaotic-nh m_c=3; J = 3; T = 20; grid t = 1..T; h = 0.1,0.05; "
               "methods nhprk:s=2, nhprk:s=3; double; quick")
d["cells"] = {k: {"method": v["method"], "E0": v["E0"], "dE": [0.0] * len(v["dE"])}
              for k, v in d["cells"].items() if k.startswith("nhprk")}
json.dump(d, open(sys.argv[2], "w"))
PY
if ! "$V" reproduce "$id" --quick --results "$tmp/o" >"$tmp/out4" 2>"$tmp/err4"; then
  cat "$tmp/out4" "$tmp/err4"
  echo "FAIL: the run over a store of the earlier configuration"
  exit 1
fi
python3 - "$tmp/r/quick/$id.json" "$tmp/o/quick/$id.json" "$tmp/err4" <<'PY'
import json, sys
fresh, run, err = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
bad = []
if "not resuming from" not in err or "another configuration" not in err:
    bad.append("no note that the earlier store was not used: " + err)
key = lambda m: (m["method"].split(",")[0], m["h"], m["j"])
f = {key(m): m for m in fresh["members"]}
if len(run["members"]) != len(f):
    bad.append(f"{len(run['members'])} members, {len(f)} fresh")
for m in run["members"]:
    if m["max_abs_dE"] == 0 or m["dE_T"] != f[key(m)]["dE_T"]:
        bad.append(f"member {key(m)}: taken from the earlier store")
        break
for b in bad:
    print("FAIL:", b)
print(f"earlier store: {len(bad)} failures")
sys.exit(1 if bad else 0)
PY
