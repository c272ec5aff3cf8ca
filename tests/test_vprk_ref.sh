#!/usr/bin/env bash
# test_vprk_ref.sh: the family vprk (tyranowski2014) node by node against an
# independent implementation (tests/vprk_ref.py: mpmath at 50 digits, its own
# tableaux built from the collocation nodes, its own alpha, H and grad H),
# in double and quad precision, for every tableau (Gauss s = 1, 2, 3; Radau
# IIA s = 2, 3; Lobatto IIIA-IIIB s = 2, 3, 4), the three degenerate systems,
# on the defaults and on held-out parameters and initial data (e2e suite).
#
# Tolerance, per node k = 0..N and per component x of q and p:
#     |x_vistudy - x_ref| <= TOL_FACTOR * eps * (1 + |x_ref|) * sqrt(k + 1)
# with eps the unit round-off of the C run (2^-52 double, 2^-112 quad). The
# differences of a correct implementation are a few eps (the data, h and the
# tableau are rounded once, each Newton solve stops at rtol = 100 eps, the
# error grows slowly over 10-40 steps). Measured on all the cases below: at
# most 4.5 eps (1 + |x|) sqrt(k + 1) in double and in quad; TOL_FACTOR = 100
# leaves room for the solver's stopping rule (rtol = 100 eps) and nothing
# more: a wrong coefficient, derivative or parameter shows up as a power of
# h, orders of magnitude above it (a relative error of 1e-12 in mu is caught).
# Lobatto IIIA-IIIB s = 2 must leave q where it is (alpha(Q1) = alpha(Q2)):
# |q_k - q_0| <= TOL_FACTOR * eps * (1 + |q_0|) at every node.
# Anchor: lotka-volterra defaults, h = 0.01, 10 steps, Gauss s = 3: the max
# over the nodes of |q - q_exact| (exact flow by mpmath's odefun) is about
# 2.344e-11 (an earlier independent prototype; 2.3525e-11 here): within 1 %,
# for the reference (its selftest) and for both C runs.
# Usage: test_vprk_ref.sh PATH/TO/vistudy
set -u
V="$1"
here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
LVH1="a1=0.8,a2=1.3,b1=-1.7,b2=-0.9,q0=1.4,0.6"
LVH2="a1=2.3,a2=0.45,b1=-0.6,b2=-1.9,H0=-1.1,q0=0.35,3.2"
KH="mu=1.3,q0=0.9,0.1,-0.2,1.0"
PVH1="G1=3,G2=-1.2,q0=0.4,-0.3,-0.5,0.7"
PVH2="G1=-0.7,G2=2.5,H0=0.2,q0=-0.3,0.8,0.6,0.1"
# system | --set (empty: defaults) | tableau | s | h | N
cases=(
  "lotka-volterra||gauss|3|0.01|10"
  "lotka-volterra|$LVH1|gauss|1|0.05|30"
  "lotka-volterra|$LVH2|radau-iia|3|0.02|25"
  "lotka-volterra|$LVH1|lobatto-iiia-iiib|4|0.05|20"
  "lotka-volterra|$LVH2|lobatto-iiia-iiib|2|0.05|10"
  "kepler||gauss|2|0.1|30"
  "kepler|$KH|gauss|1|0.05|40"
  "kepler|$KH|radau-iia|2|0.05|40"
  "kepler|$KH|lobatto-iiia-iiib|3|0.1|30"
  "kepler||lobatto-iiia-iiib|2|0.1|10"
  "lotka-volterra|$LVH2|gauss|2|0.02|25"
  "point-vortices||radau-iia|3|0.1|20"
  "point-vortices||lobatto-iiia-iiib|3|0.1|20"
  "point-vortices|$PVH1|gauss|3|0.1|30"
  "point-vortices|$PVH2|radau-iia|2|0.1|30"
  "point-vortices|$PVH1|lobatto-iiia-iiib|4|0.1|20"
  "point-vortices|$PVH2|lobatto-iiia-iiib|2|0.1|10"
)
jobs_max=$(nproc 2>/dev/null || echo 2)
"$PY" "$here/vprk_ref.py" selftest >"$tmp/self.log" 2>&1 &
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r sys set tab s h N <<<"$c"
  args=()
  [ -n "$set" ] && args=(--set "$set")
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  ( "$PY" "$here/vprk_ref.py" "$sys" "${args[@]}" --method "$tab" --s "$s" --h "$h" --N "$N" \
      --digits 40 --out "$tmp/ref$i.csv" 2>"$tmp/ref$i.err" || echo fail >"$tmp/ref$i.fail" ) &
  T=$(awk -v h="$h" -v n="$N" 'BEGIN { printf "%.12g", h * n }')
  for prec in double quad; do
    "$V" run --system "$sys" "${args[@]}" --method "vprk:tableau=$tab,s=$s" --h "$h" --T "$T" \
      --precision "$prec" --quiet --out "$tmp/c$i.$prec.csv" 2>"$tmp/c$i.$prec.err" \
      || echo fail >"$tmp/c$i.$prec.fail"
  done
  printf '%s\n' "$c" >>"$tmp/cases"
  i=$((i + 1))
done
wait
if ! grep -q "selftest: ok" "$tmp/self.log"; then
  cat "$tmp/self.log"; echo "FAIL: vprk_ref.py selftest"; fails=$((fails + 1))
else
  grep anchor "$tmp/self.log"
fi
"$PY" - "$tmp" "$here" <<'PY' || fails=$((fails + 1))
import csv, os, sys
import mpmath as mp
mp.mp.dps = 50
tmp, here = sys.argv[1:3]
sys.path.insert(0, here)
import vprk_ref as R
TOL_FACTOR = 100
EPS = {"double": mp.mpf(2) ** -52, "quad": mp.mpf(2) ** -112}
cases = open(os.path.join(tmp, "cases")).read().splitlines()
bad = 0
def rows(path):
    return list(csv.DictReader(open(path)))
for i, c in enumerate(cases):
    sysname, sset, tab, s, h, N = c.split("|")
    label = f"{sysname} {sset or 'defaults'} {tab} s={s} h={h} N={N}"
    if os.path.exists(os.path.join(tmp, f"ref{i}.fail")):
        print(open(os.path.join(tmp, f"ref{i}.err")).read())
        print(f"FAIL: reference of {label}"); bad += 1; continue
    ref = rows(os.path.join(tmp, f"ref{i}.csv"))
    cols = [k for k in ref[0] if k[0] in "qp" and k[1:].isdigit()]
    n = sum(1 for k in cols if k[0] == "q")
    for prec in ("double", "quad"):
        if os.path.exists(os.path.join(tmp, f"c{i}.{prec}.fail")):
            print(open(os.path.join(tmp, f"c{i}.{prec}.err")).read())
            print(f"FAIL: vistudy on {label} ({prec})"); bad += 1; continue
        cv = rows(os.path.join(tmp, f"c{i}.{prec}.csv"))
        eps, msgs = EPS[prec], []
        if len(cv) != len(ref):
            msgs.append(f"{len(cv)} nodes, reference {len(ref)}")
        dq = dp = mp.mpf(0)
        worst, first = mp.mpf(0), None
        for k, (a, b) in enumerate(zip(cv, ref)):
            for col in cols:
                x, r = mp.mpf(a[col]), mp.mpf(b[col])
                d = abs(x - r)
                if col[0] == "q":
                    dq = max(dq, d)
                else:
                    dp = max(dp, d)
                ratio = d / (eps * (1 + abs(r)) * mp.sqrt(k + 1))
                worst = max(worst, ratio)
                if ratio > TOL_FACTOR and first is None:
                    first = (k, col, d, ratio)
        if first is not None:
            k, col, d, ratio = first
            msgs.append(f"first mismatch at node {k} (t = {ref[k]['t']}) in {col}: "
                        f"|difference| {mp.nstr(d, 3)} = {mp.nstr(ratio, 3)} eps (1+|x|) sqrt(k+1)")
        if tab == "lobatto-iiia-iiib" and s == "2":
            moved = max(abs(mp.mpf(a[f"q{m + 1}"]) - mp.mpf(cv[0][f"q{m + 1}"]))
                        / (eps * (1 + abs(mp.mpf(cv[0][f"q{m + 1}"]))))
                        for a in cv for m in range(n))
            if moved > TOL_FACTOR:
                msgs.append(f"Lobatto s=2 moves q by {mp.nstr(moved, 3)} eps")
            else:
                msgs.append(f"q unchanged ({'exactly' if moved == 0 else mp.nstr(moved, 2) + ' eps'})")
        if sysname == "lotka-volterra" and not sset and tab == "gauss" and s == "3" and h == "0.01" and N == "10":
            S = R.System("lotka-volterra", R.parse_sets("lotka-volterra", []))
            ex = R.exact_lv(S, mp.mpf(h), int(N))
            err = max(abs(mp.mpf(a[f"q{m + 1}"]) - qe[m]) for a, (_, qe) in zip(cv, ex) for m in range(2))
            ok = abs(err - mp.mpf("2.344e-11")) <= mp.mpf("0.01") * mp.mpf("2.344e-11")
            msgs.append(f"anchor max |q - q_exact| {mp.nstr(err, 5)}" + ("" if ok else " FAIL: not about 2.344e-11"))
            if not ok:
                first = first or ("anchor",)
        fail = first is not None or len(cv) != len(ref) or any("moves q" in m for m in msgs)
        bad += fail
        print(f"{'FAIL' if fail else 'ok  '} {label} {prec}: max |dq| {mp.nstr(dq, 3)}, |dp| {mp.nstr(dp, 3)}"
              f", max {mp.nstr(worst, 3)} eps (1+|x|) sqrt(k+1); " + "; ".join(msgs))
print(f"{len(cases)} cases x 2 precisions, {bad} failed")
sys.exit(1 if bad else 0)
PY
echo "vprk_ref: $fails failed"
[ "$fails" = 0 ]
