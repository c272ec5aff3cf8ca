#!/usr/bin/env bash
# test_demartin_figs.sh: the figure studies of demartin2018 §7.2 and §7.5
# (demartin2018-cvt, demartin2018-turntable) reduced with --quick (e2e
# suite). For each study: every figure's files and the summary, every claim
# with a verdict, the verdicts the reduced runs must give, and the main
# ones recomputed here from the stored series (never pasted numbers): the
# CVT's stated energies from node 0 (C10: the data sets reached the system,
# fig4 and fig5 differ), the halves criterion of the h = 1/10 energies (C8),
# the h = pi/10 ratio (C9), the driver's oscillation against rotation
# (C10); the turntable's invariants below 1e-12 at the paper's tolerance
# (C16), their drift ordered by the Newton tolerance, and the Newton
# iterations per step (the curves' own tolerances reached the solver: fewer
# iterations at rtol 1e-6 than at 1e-12).
# Usage: test_demartin_figs.sh PATH/TO/vistudy [ID ...]
set -u
V="$1"
shift
ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=(demartin2018-cvt demartin2018-turntable)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
for id in "${ids[@]}"; do
  if ! "$V" reproduce "$id" --quick --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
    cat "$tmp/out" "$tmp/err"
    echo "FAIL: reproduce $id --quick"
    fails=$((fails + 1))
    continue
  fi
  python3 - "$tmp/r/quick" "$id" <<'PY' || fails=$((fails + 1))
import json, math, os, sys
d, sid = sys.argv[1], sys.argv[2]
j = json.load(open(f"{d}/{sid}.json"))
bad = []
for f in j["figures"]:
    for ext in ("md", "json", "csv", "dat", "gp", "svg", "png", "pdf"):
        p = f"{d}/{f['id']}.{ext}"
        if not os.path.exists(p) or not os.path.getsize(p):
            bad.append(f"{f['id']}.{ext} missing or empty")
    if not f["ok"]:
        bad.append(f"{f['id']} not ok")
across = j.get("across", {}).get("claims", [])
if j["claims_total"] != sum(f["claims_total"] for f in j["figures"]) + len(across):
    bad.append("claims total")
for f in j["figures"]:
    for c in f["claims"]:
        if not isinstance(c["holds"], bool) or not c["measured"]:
            bad.append(f"{f['id']}: a claim without verdict or measurement")

def fig(name):
    return json.load(open(f"{d}/{sid}-{name}.json"))

def series(name):
    return {s["label"]: s for s in fig(name)["series"]}

def expect(name, want):
    got = [c["holds"] for c in fig(name)["claims"]]
    if got != want:
        bad.append(f"{name}: verdicts {got}, expected {want}")

def amax(s, a=-1, b=math.inf):
    return max(max(abs(r[1]), abs(r[2])) for r in s["rows"] if a < r[0] <= b)

if sid == "demartin2018-cvt":
    stated = {"fig4": (0.8, 1.0, 1.8, "data=low"), "fig5": (3.0, 1.0, 4.0, "data=high")}
    for name, (Ed, Ep, ET, data) in stated.items():
        expect(name, [True] * 6)
        fj = fig(name)
        if fj.get("set") != [data]:
            bad.append(f"{name}: set {fj.get('set')}")
        s = series(name)
        # C10: node 0 of each energy (extra[0] = I0) at the stated value.
        for lab, want in (("E_d h=1/10", Ed), ("E_p h=1/10", Ep), ("E_T h=1/10", ET)):
            if abs(s[lab]["extra"][0] - want) > 1e-15 * max(1, want):
                bad.append(f"{name}: {lab} at t = 0 is {s[lab]['extra'][0]}, not {want}")
        # C8: the halves criterion at h = 1/10, from the rows.
        T = s["E_T h=1/10"]["rows"][-1][0]
        for e in ("E_d", "E_p", "E_T"):
            x = s[f"{e} h=1/10"]
            a, b = amax(x, -1, T / 2), amax(x, T / 2, T)
            if not b <= 2 * a or not 1e-4 < a < 0.1:
                bad.append(f"{name}: {e} halves {a}, {b}")
        # C9: h = pi/10 at least 10 times worse in E_T.
        r = amax(s["E_T h=pi/10"]) / amax(s["E_T h=1/10"])
        if not r >= 10:
            bad.append(f"{name}: pi/10 ratio {r}")
        # C10: the driver: y(0) = 0, so the change is y itself; p_y from
        # its change plus its value at node 0.
        y = s["y h=1/10"]["rows"]
        p0 = s["p_y h=1/10"]["extra"][0]
        pmin = min(r[1] for r in s["p_y h=1/10"]["rows"]) + p0
        pmax = max(r[2] for r in s["p_y h=1/10"]["rows"]) + p0
        ylo, yhi = min(r[1] for r in y), max(r[2] for r in y)
        if name == "fig4" and not (-math.pi < ylo < 0 < yhi < math.pi and pmin < 0 < pmax):
            bad.append(f"fig4: the driver does not oscillate: y in [{ylo}, {yhi}], p_y in [{pmin}, {pmax}]")
        if name == "fig5" and not (pmin > 0 and y[-1][2] > 2 * math.pi):
            bad.append(f"fig5: the driver does not rotate: p_y min {pmin}, y(T) {y[-1][2]}")
    # Beyond the paper: eps = 0 and 1, two claims each, with their settings.
    for e in ("0", "1"):
        for r in ("low", "high"):
            fj = fig(f"eps{e}-{r}")
            if len(fj["claims"]) != 2 or fj.get("set") != [f"data={r}", f"eps={e}"]:
                bad.append(f"eps{e}-{r}: claims or settings")
elif sid == "demartin2018-turntable":
    tols = ["rtol 1e-6", "rtol 1e-8", "rtol 1e-10", "rtol 1e-12", "rtol 100 eps"]
    for name in ("omega_zeta", "C1", "C2"):
        expect(name, [True, True])
        s = series(name)
        N = round(fig(name)["T"] / 0.1)
        B = 10 * 2.220446049250313e-16 * N * max(1, abs(s["s=3 rtol 1e-12"]["extra"][0]))
        dr = [amax(s[f"s=3 {t}"]) for t in tols]
        if not (dr[3] <= 1e-12 and amax(s["s=2 rtol 1e-12"]) <= 1e-12):
            bad.append(f"{name}: drift at rtol 1e-12 {dr[3]}")
        if not all(b <= a + B for a, b in zip(dr, dr[1:])) or not dr[0] >= 100 * dr[-1]:
            bad.append(f"{name}: drift against the tolerance {dr}")
        # The tolerances reached the solver: the iterations per step (the
        # column newton_max, window maxima) fewer at 1e-6 than at 1e-12.
        it = {t: max(r[3] for r in s[f"s=3 {t}"]["rows"][1:]) for t in tols}
        if not it["rtol 1e-6"] < it["rtol 1e-12"]:
            bad.append(f"{name}: Newton iterations {it}")
    expect("E_mov", [True])
    e = series("E_mov")
    for lab in ("s=3 rtol 1e-12", "s=2 rtol 1e-12"):
        T = e[lab]["rows"][-1][0]
        a, b = amax(e[lab], -1, T / 2), amax(e[lab], T / 2, T)
        if not (b <= 2 * a and a > 1e-12):
            bad.append(f"E_mov {lab}: halves {a}, {b}")
    # E_mov-long at the quick span: a verdict per run; the s = 2 run holds.
    got = [c["holds"] for c in fig("E_mov-long")["claims"]]
    if len(got) != 3 or not got[2]:
        bad.append(f"E_mov-long: verdicts {got}")
    if [c["holds"] for c in across] != [True]:
        bad.append(f"across (C18): {[c['holds'] for c in across]}")
for b in bad:
    print(f"FAIL: {sid}: {b}")
sys.exit(1 if bad else 0)
PY
done
[ "$fails" -eq 0 ] && echo "test_demartin_figs: ok" || echo "test_demartin_figs: $fails failed"
exit $((fails > 0))
