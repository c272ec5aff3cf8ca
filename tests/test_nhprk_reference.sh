#!/usr/bin/env bash
# test_nhprk_reference.sh: the family nhprk (demartin2018 (14), App. D) node
# by node against an independent implementation, tests/nhprk_reference.py
# (numpy/scipy, written from the paper and the reading notes by someone who
# did not read the C sources; copied from ../shared-nhprk/), on the
# nonholonomic particle with the defaults and with held-out parameters and
# initial data, s = 2..5, both multiplier starts (lambda0=exact|zero), and
# on its Lie-group branch (demartin2018 §6.4, App. F, the Cayley
# retraction with the second-tangent term): the vertical disc (SE(2)) and
# the turntable (SO(3) x R^2) with the paper's data (the reading notes'
# defaults) and held-out parameters and initial data (an unequal-moment
# turntable among them), s = 2..4; in double and in quad precision (e2e
# suite). The Lie systems' columns are the stored group element (x, y,
# theta; R row-major, x, y), the body momenta mu = D2 l and the
# multipliers.
#
# Tolerance, per node k = 0..N (the reference is double precision, so a
# quad run is compared at the floor of double too), for every component x
# of q and p:
#     |x_vistudy - x_ref| <= TOL_FACTOR * eps * (1 + |x_ref|) * sqrt(k + 1),
# and for the multiplier mu, whose round-off floor is eps |p| / h (it acts
# on the momenta through h, notes §1.3 "Scaling"):
#     |mu_vistudy - mu_ref| <= TOL_FACTOR * eps * (1 + |p|_max) / h * sqrt(k + 1),
# eps = 2^-52. Measured on the cases below: q, p within 0.5 eps (1 + |x|)
# sqrt(k + 1), mu within 3.2 eps (1 + |p|) / h sqrt(k + 1); TOL_FACTOR = 100
# leaves room for the solvers' stopping rules (rtol = 100 eps) and nothing
# more: a wrong coefficient or derivative shows up as a power of h.
# What nhprk refuses (knife-edge-incline: holonomic and nonholonomic
# constraints stacked; ddcay=off, the Lie-group branch's demonstration, on
# a vector-space system) is checked to be refused with exit status 2 and a
# reason naming the system.
# Usage: test_nhprk_reference.sh PATH/TO/vistudy
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh" "$1"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
H1=(--set k=1.7 --set m=0.8 --set q0=0.6,-0.9,0.3 --set v0=0.5,0.4,-0.45)
H2=(--set k=0.35 --set m=2.3 --set q0=-1.2,0.25,0.7 --set v0=-0.8,1.1,-0.2)
# Held-out data of the Lie-group systems: the disc with a stiffer and a
# softer spring; the turntable with another radius, turntable speed,
# attitude (a rotation by 0.7 about (1, 2, 2)/3), contact point and body
# velocity on the constraints, once homogeneous (a = b = c, the paper's
# case) and once with unequal moments.
D1=(--set m=1.3 --set Iz=0.7 --set k=2.1 --set q0=-0.8,0.6,1.1 --set eta0=0.45,0,-0.9)
D2=(--set m=0.6 --set Iz=2.2 --set k=0.4 --set q0=0.3,-1.1,-2.0 --set eta0=-0.7,0,0.35)
RT=0.79097083314176775,-0.37722116644390258,0.4817357498730187,0.4817357498730187,0.86935677071360484,-0.11022464565011417,-0.37722116644390258,0.3192538125083465,0.86935677071360484
T1=(--set r=0.8 --set abc=0.35,0.35,0.35 --set Omega=0.6 --set "R0=$RT" --set xy0=-0.4,0.9
    --set eta0=0.3,-0.25,0.8,-0.74,-0.48)
T2=(--set r=1.2 --set abc=0.3,0.45,0.6 --set Omega=-0.8 --set "R0=$RT" --set xy0=0.5,0.2
    --set eta0=-0.2,0.4,0.6,0.64,-0.16)
# system | data set | s | h | N | lambda0 | precision
cases=(
  "nonholonomic-particle|0|2|0.1|20|exact|double"
  "nonholonomic-particle|1|2|0.05|30|exact|double"
  "nonholonomic-particle|2|2|0.2|15|exact|quad"
  "nonholonomic-particle|1|3|0.1|20|exact|double"
  "nonholonomic-particle|2|3|0.15|20|exact|double"
  "nonholonomic-particle|1|3|0.1|10|zero|double"
  "nonholonomic-particle|0|4|0.1|20|exact|quad"
  "nonholonomic-particle|2|4|0.25|12|exact|double"
  "nonholonomic-particle|1|5|0.2|10|exact|double"
  "vertical-disc|0|2|0.1|20|exact|double"
  "vertical-disc|D1|2|0.05|30|exact|quad"
  "vertical-disc|D2|3|0.15|20|exact|double"
  "vertical-disc|0|3|0.1|20|exact|quad"
  "vertical-disc|D1|4|0.2|12|exact|double"
  "vertical-disc|D2|4|0.1|10|exact|quad"
  "vertical-disc|D1|3|0.1|10|zero|double"
  "turntable|0|2|0.1|20|exact|double"
  "turntable|T1|2|0.15|20|exact|quad"
  "turntable|T2|2|0.05|20|exact|double"
  "turntable|0|3|0.1|20|exact|quad"
  "turntable|T1|3|0.2|12|exact|double"
  "turntable|T2|3|0.1|10|exact|double"
  "turntable|T1|4|0.1|10|exact|double"
  "turntable|T2|4|0.2|8|exact|quad"
)
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r sys ds s h N l0 prec <<<"$c"
  i=$((i + 1))
  case $ds in
    0) set_args=() ;;
    1) set_args=("${H1[@]}") ;;
    2) set_args=("${H2[@]}") ;;
    D1) set_args=("${D1[@]}") ;;
    D2) set_args=("${D2[@]}") ;;
    T1) set_args=("${T1[@]}") ;;
    T2) set_args=("${T2[@]}") ;;
  esac
  T=$("$PY" -c "print(repr($h * $N))")
  if ! "$PY" "$here/nhprk_reference.py" "$sys" --s "$s" --h "$h" --N "$N" \
      --lambda0 "$l0" "${set_args[@]}" >"$tmp/ref$i.csv" 2>"$tmp/ref$i.err"; then
    echo "FAIL case $i ($c): the reference failed: $(cat "$tmp/ref$i.err")"
    fails=$((fails + 1))
    continue
  fi
  if ! "$V" run --system "$sys" "${set_args[@]}" \
      --method "nhprk:s=$s,lambda0=$l0" --h "$h" --T "$T" --precision "$prec" --quiet \
      --out "$tmp/c$i.csv" 2>"$tmp/c$i.err"; then
    echo "FAIL case $i ($c): vistudy run failed: $(cat "$tmp/c$i.err")"
    fails=$((fails + 1))
    continue
  fi
  if ! "$PY" - "$tmp/c$i.csv" "$tmp/ref$i.csv" "$h" "case $i ($c)" <<'PY'; then
import csv, math, sys
TOL, EPS = 100.0, 2.0 ** -52
cf, rf, h, label = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
with open(cf) as f:
    rows = list(csv.reader(f))
head, crows = rows[0], [[float(x) for x in r] for r in rows[1:]]
with open(rf) as f:
    rall = [r for r in csv.reader(f) if r]
rhead, rrows = rall[0], [[float(x) for x in r] for r in rall[1:]]
# Every column of the reference (q.., p.., mu..) by name in ours.
cols = rhead[1:]
idx = [head.index(c) for c in cols]
if len(crows) != len(rrows):
    print("FAIL %s: %d nodes, reference %d" % (label, len(crows), len(rrows)))
    sys.exit(1)
pcols = [j for j, c in enumerate(rhead) if c.startswith("p")]
pmax = max(abs(r[j]) for r in rrows for j in pcols)
worst_qp = worst_mu = 0.0
bad = 0
for k, (c, r) in enumerate(zip(crows, rrows)):
    if abs(c[0] - r[0]) > 1e-12:
        print("FAIL %s: node %d at t = %r, reference t = %r" % (label, k, c[0], r[0]))
        sys.exit(1)
    for name, ci, rj in zip(cols, idx, range(1, len(rhead))):
        d = abs(c[ci] - r[rj])
        if name.startswith("mu"):
            unit = EPS * (1 + pmax) / h * math.sqrt(k + 1)
            worst_mu = max(worst_mu, d / unit)
        else:
            unit = EPS * (1 + abs(r[rj])) * math.sqrt(k + 1)
            worst_qp = max(worst_qp, d / unit)
        if not d <= TOL * unit:
            bad += 1
            if bad <= 3:
                print("FAIL %s: node %d %s = %r, reference %r (difference %.3g)"
                      % (label, k, name, c[ci], r[rj], d))
print("%s: q, p within %.2f, mu within %.2f of their units" % (label, worst_qp, worst_mu))
sys.exit(1 if bad else 0)
PY
    fails=$((fails + 1))
  fi
done
# What nhprk refuses, with the reason naming the system.
for c in "knife-edge-incline|nhprk:s=3|holonomic" \
    "nonholonomic-particle|nhprk:s=3,ddcay=off|ddcay=off"; do
  IFS='|' read -r sys spec why <<<"$c"
  expect 2 "$sys.*$why|$why.*$sys" -- \
    "$V" run --system "$sys" --method "$spec" --h 0.1 --T 1 --quiet --out -
done
echo "nhprk_reference: ${#cases[@]} cases, $fails failed"
[ "$fails" -eq 0 ]
