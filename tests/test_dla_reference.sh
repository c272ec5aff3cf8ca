#!/usr/bin/env bash
# test_dla_reference.sh: the family dla (McLachlan & Perlmutter 2006,
# (4.18), and its midpoint variant; core/methods/dla_tmpl.c) node by node
# against an independent implementation, tests/dla_reference.py (numpy,
# written from the scheme's equations with its own systems and a different
# solve: the leapfrog step reduced to the multipliers alone, the midpoint
# step in the velocities, Newton with difference Jacobians), on the
# nonholonomic particle, the CVT (both energy regimes) and the chaotic
# system (the paper's ensemble member and held-out sizes, members and
# masses), in double and in quad precision, with the built-in Newton and
# with KINSOL (e2e suite).
#
# Tolerance, per node k = 0..N (the reference is double, so a quad run is
# compared at the floor of double too), for every component x of q, p and
# the node's multipliers mu (those of the index-1 form at (q_k, p_k), a
# smooth function of the node):
#     |x_vistudy - x_ref| <= TOL_FACTOR * eps * (1 + |x_ref|) * sqrt(k + 1),
# eps = 2^-52, TOL_FACTOR = 100 (the solvers stop at rtol = 100 eps); the
# measured worst cases are printed per case. A wrong coefficient or point
# shows up as a power of h, far above.
# What dla refuses (a Lie-group system; holonomic and nonholonomic
# constraints together) is checked to be refused with exit status 2 and a
# reason naming the system.
# Usage: test_dla_reference.sh PATH/TO/vistudy
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh" "$1"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
P1=(--set k=1.7 --set m=0.8 --set q0=0.6,-0.9,0.3 --set v0=0.5,0.4,-0.45)
P2=(--set k=0.35 --set m=2.3 --set q0=-1.2,0.25,0.7 --set v0=-0.8,1.1,-0.2)
# The CVT off the paper's data: another epsilon, masses and a start with
# y0 != 0 (v_z = -sin(0.4) 0.6 written to 17 digits; both sides then
# start on the constraint to round-off).
C1=(--set eps=0.3 --set m=1.4 --set J=0.7 --set q0=0.7,0.4,-0.3
    --set v0=0.6,1.3,-0.2336510053851903)
CH=(--set data=high)
X1=(--set m_c=2 --set J=7 --set j=3 --set m=1.3)
X2=(--set m_c=4 --set J=9 --set j=6)
# system | data set | point | h | N | precision | solver (newton when absent;
# KINSOL is double only)
cases=(
  "nonholonomic-particle|0|leapfrog|0.1|20|double"
  "nonholonomic-particle|P1|leapfrog|0.05|40|quad"
  "nonholonomic-particle|P2|leapfrog|0.2|15|double"
  "nonholonomic-particle|0|midpoint|0.1|20|double"
  "nonholonomic-particle|P1|midpoint|0.15|20|quad"
  "cvt|0|leapfrog|0.1|30|double"
  "cvt|CH|leapfrog|0.1|30|double"
  "cvt|C1|leapfrog|0.2|20|quad"
  "cvt|CH|midpoint|0.05|30|double"
  "cvt|C1|midpoint|0.1|20|double"
  "chaotic-nh|0|leapfrog|0.05|40|double"
  "chaotic-nh|X1|leapfrog|0.1|20|quad"
  "chaotic-nh|X2|leapfrog|0.1|30|double"
  "chaotic-nh|X1|midpoint|0.1|20|double"
  "chaotic-nh|X2|midpoint|0.05|20|quad"
  "nonholonomic-particle|P2|leapfrog|0.1|20|double|kinsol"
  "cvt|C1|midpoint|0.1|20|double|kinsol"
  "chaotic-nh|X1|leapfrog|0.1|20|double|kinsol"
)
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r sys ds point h N prec solver <<<"$c"
  solver=${solver:-newton}
  i=$((i + 1))
  case $ds in
    0) set_args=() ;;
    P1) set_args=("${P1[@]}") ;;
    P2) set_args=("${P2[@]}") ;;
    C1) set_args=("${C1[@]}") ;;
    CH) set_args=("${CH[@]}") ;;
    X1) set_args=("${X1[@]}") ;;
    X2) set_args=("${X2[@]}") ;;
  esac
  T=$("$PY" -c "print(repr($h * $N))")
  if ! "$PY" "$here/dla_reference.py" "$sys" --point "$point" --h "$h" --N "$N" \
      "${set_args[@]}" >"$tmp/ref$i.csv" 2>"$tmp/ref$i.err"; then
    echo "FAIL case $i ($c): the reference failed: $(cat "$tmp/ref$i.err")"
    fails=$((fails + 1))
    continue
  fi
  if ! "$V" run --system "$sys" "${set_args[@]}" --method "dla:point=$point" --h "$h" \
      --T "$T" --precision "$prec" --solver "$solver" --quiet --out "$tmp/c$i.csv" 2>"$tmp/c$i.err"; then
    echo "FAIL case $i ($c): vistudy run failed: $(cat "$tmp/c$i.err")"
    fails=$((fails + 1))
    continue
  fi
  if ! "$PY" - "$tmp/c$i.csv" "$tmp/ref$i.csv" "case $i ($c)" <<'PY'; then
import csv, math, sys
TOL, EPS = 100.0, 2.0 ** -52
cf, rf, label = sys.argv[1], sys.argv[2], sys.argv[3]
with open(cf) as f:
    rows = list(csv.reader(f))
head, crows = rows[0], [[float(x) for x in r] for r in rows[1:]]
with open(rf) as f:
    rall = [r for r in csv.reader(f) if r]
rhead, rrows = rall[0], [[float(x) for x in r] for r in rall[1:]]
cols = rhead[1:]
idx = [head.index(c) for c in cols]
if len(crows) != len(rrows):
    print("FAIL %s: %d nodes, reference %d" % (label, len(crows), len(rrows)))
    sys.exit(1)
worst = {"q": 0.0, "p": 0.0, "m": 0.0}
bad = 0
for k, (c, r) in enumerate(zip(crows, rrows)):
    if abs(c[0] - r[0]) > 1e-12:
        print("FAIL %s: node %d at t = %r, reference t = %r" % (label, k, c[0], r[0]))
        sys.exit(1)
    for name, ci, rj in zip(cols, idx, range(1, len(rhead))):
        d = abs(c[ci] - r[rj])
        unit = EPS * (1 + abs(r[rj])) * math.sqrt(k + 1)
        worst[name[0]] = max(worst[name[0]], d / unit)
        if not d <= TOL * unit:
            bad += 1
            if bad <= 3:
                print("FAIL %s: node %d %s = %r, reference %r (difference %.3g)"
                      % (label, k, name, c[ci], r[rj], d))
print("%s: q within %.2f, p within %.2f, mu within %.2f of their units"
      % (label, worst["q"], worst["p"], worst["m"]))
sys.exit(1 if bad else 0)
PY
    fails=$((fails + 1))
  fi
done
# What dla refuses, with the reason naming the system.
for c in "knife-edge-incline|dla|holonomic" "vertical-disc|dla|mechanical form" \
    "turntable|dla:point=midpoint|mechanical form"; do
  IFS='|' read -r sys spec why <<<"$c"
  expect 2 "$sys.*$why|$why.*$sys" -- \
    "$V" run --system "$sys" --method "$spec" --h 0.1 --T 1 --quiet --out -
done
echo "dla_reference: ${#cases[@]} cases, $fails failed"
[ "$fails" -eq 0 ]
