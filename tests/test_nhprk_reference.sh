#!/usr/bin/env bash
# test_nhprk_reference.sh: the family nhprk (demartin2018 (14), App. D) node
# by node against an independent implementation, tests/nhprk_reference.py
# (numpy/scipy, written from the paper and the reading notes by someone who
# did not read the C sources; copied from ../shared-nhprk/), on the
# nonholonomic particle with the defaults and with held-out parameters and
# initial data, s = 2..5, both multiplier starts (lambda0=exact|zero), in
# double and in quad precision (e2e suite).
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
# The systems nhprk refuses for now (knife-edge-incline: holonomic and
# nonholonomic constraints stacked; vertical-disc, turntable: the
# Lie-group version) are checked to be refused with exit status 2 and a
# reason naming the system.
# Usage: test_nhprk_reference.sh PATH/TO/vistudy
set -u
V="$1"
here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
H1=(--set k=1.7 --set m=0.8 --set q0=0.6,-0.9,0.3 --set v0=0.5,0.4,-0.45)
H2=(--set k=0.35 --set m=2.3 --set q0=-1.2,0.25,0.7 --set v0=-0.8,1.1,-0.2)
# data set | s | h | N | lambda0 | precision
cases=(
  "0|2|0.1|20|exact|double"
  "1|2|0.05|30|exact|double"
  "2|2|0.2|15|exact|quad"
  "1|3|0.1|20|exact|double"
  "2|3|0.15|20|exact|double"
  "1|3|0.1|10|zero|double"
  "0|4|0.1|20|exact|quad"
  "2|4|0.25|12|exact|double"
  "1|5|0.2|10|exact|double"
)
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r ds s h N l0 prec <<<"$c"
  i=$((i + 1))
  case $ds in
    0) set_args=() ;;
    1) set_args=("${H1[@]}") ;;
    2) set_args=("${H2[@]}") ;;
  esac
  T=$("$PY" -c "print(repr($h * $N))")
  if ! "$PY" "$here/nhprk_reference.py" nonholonomic-particle --s "$s" --h "$h" --N "$N" \
      --lambda0 "$l0" "${set_args[@]}" >"$tmp/ref$i.csv" 2>"$tmp/ref$i.err"; then
    echo "FAIL case $i ($c): the reference failed: $(cat "$tmp/ref$i.err")"
    fails=$((fails + 1))
    continue
  fi
  if ! "$V" run --system nonholonomic-particle "${set_args[@]}" \
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
    rrows = [[float(x) for x in r] for r in csv.reader(f) if r and r[0] != "t"]
cols = ["q1", "q2", "q3", "p1", "p2", "p3", "mu1"]
idx = [head.index(c) for c in cols]
if len(crows) != len(rrows):
    print("FAIL %s: %d nodes, reference %d" % (label, len(crows), len(rrows)))
    sys.exit(1)
pmax = max(abs(r[j]) for r in rrows for j in range(4, 7))
worst_qp = worst_mu = 0.0
bad = 0
for k, (c, r) in enumerate(zip(crows, rrows)):
    if abs(c[0] - r[0]) > 1e-12:
        print("FAIL %s: node %d at t = %r, reference t = %r" % (label, k, c[0], r[0]))
        sys.exit(1)
    for name, ci, rj in zip(cols, idx, range(1, 8)):
        d = abs(c[ci] - r[rj])
        if name == "mu1":
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
# What nhprk refuses for now, with the reason naming the system.
for sys in knife-edge-incline vertical-disc turntable; do
  "$V" run --system "$sys" --method nhprk:s=3 --h 0.1 --T 1 --quiet --out - \
    >/dev/null 2>"$tmp/refuse.err"
  rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q "$sys" "$tmp/refuse.err"; then
    echo "FAIL nhprk on $sys: exit $rc (want 2, refused naming the system): $(cat "$tmp/refuse.err")"
    fails=$((fails + 1))
  fi
done
grep -q "Lie-group system" <("$V" run --system vertical-disc --method nhprk --h 0.1 --T 1 \
  --quiet --out - 2>&1) || {
  echo "FAIL nhprk on vertical-disc: the refusal does not say the Lie-group version is missing"
  fails=$((fails + 1))
}
echo "nhprk_reference: ${#cases[@]} cases, $fails failed"
[ "$fails" -eq 0 ]
