#!/usr/bin/env bash
# test_nhprk_turntable.sh: the claims of demartin2018 Fig. 8 (§7.5; reading
# notes §2.5, C16-C17) on the family nhprk's Lie-group branch: on the ball
# on a turntable with a = b = c (the paper's homogeneous case) the discrete
# flow keeps the first integrals omega_zeta, C1 and C2 to the solver's
# tolerance, and the moving energy E_mov stays bounded without drift (e2e
# suite). The four are the system's momentum maps (turntable_tmpl.c); the
# system marks none of them a Noether quantity (they are first integrals
# for a = b = c only), so the family declares nothing for VI_MOMENTA and
# this test is where the paper's claim is checked. Runs: the paper's
# method (Lobatto-3, tau = cay, h = 0.1) and s = 2, on the defaults and on
# held-out parameters and initial data, both solver backends in double and
# the built-in Newton in quad.
#
# Tolerances: a conserved map may change by round-off only,
#     max_k |I_k - I_0| <= 100 eps sqrt(N) max(1, |I_0|),
# eps of the run's precision (measured: at most 1.5e-14 over 1000 steps in
# double, below 1e-30 in quad); E_mov has no drift: its largest change over
# the second half of a run of 200 steps or more is at most twice that over
# the first half (notes §4.3's rule). A negative control: with unequal moments (a != b)
# C1 is not conserved and must change by more than 1e4 times the bound.
# Usage: test_nhprk_turntable.sh PATH/TO/vistudy
set -u
V="$1"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
RT=0.79097083314176775,-0.37722116644390258,0.4817357498730187,0.4817357498730187,0.86935677071360484,-0.11022464565011417,-0.37722116644390258,0.3192538125083465,0.86935677071360484
T1=(--set r=0.8 --set abc=0.35,0.35,0.35 --set Omega=0.6 --set "R0=$RT" --set xy0=-0.4,0.9
    --set eta0=0.3,-0.25,0.8,-0.74,-0.48)
T2=(--set r=1.2 --set abc=0.3,0.45,0.6 --set Omega=-0.8 --set "R0=$RT" --set xy0=0.5,0.2
    --set eta0=-0.2,0.4,0.6,0.64,-0.16)
# data | s | h | T | precision | solver | conserved (1) or the negative control (0)
cases=(
  "0|3|0.1|50|double|newton|1"
  "0|3|0.1|50|double|kinsol|1"
  "0|2|0.1|50|double|newton|1"
  "T1|3|0.1|50|double|newton|1"
  "T1|2|0.05|20|double|kinsol|1"
  "0|3|0.1|3|quad|newton|1"
  "T1|2|0.1|3|quad|newton|1"
  "T2|3|0.1|5|double|newton|0"
)
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r ds s h T prec solver conserved <<<"$c"
  i=$((i + 1))
  case $ds in
    0) set_args=() ;;
    T1) set_args=("${T1[@]}") ;;
    T2) set_args=("${T2[@]}") ;;
  esac
  if ! "$V" run --system turntable "${set_args[@]}" --method "nhprk:s=$s" --h "$h" --T "$T" \
      --precision "$prec" --solver "$solver" --quiet --out "$tmp/c$i.csv" 2>"$tmp/c$i.err"; then
    echo "FAIL case $i ($c): vistudy run failed: $(cat "$tmp/c$i.err")"
    fails=$((fails + 1))
    continue
  fi
  "$PY" - "$tmp/c$i.csv" "$prec" "$conserved" "case $i ($c)" <<'PY' || fails=$((fails + 1))
import csv, math, sys
from fractions import Fraction
rows = list(csv.DictReader(open(sys.argv[1])))
prec, conserved, label = sys.argv[2], sys.argv[3] == "1", sys.argv[4]
eps = 2.0 ** -52 if prec == "double" else 2.0 ** -112
N = len(rows) - 1
bad = 0
# Exact differences of the printed values (quad prints 36 digits).
val = lambda r, k: Fraction(r[k])
for k in ("omega_zeta", "C1", "C2"):
    I0 = val(rows[0], k)
    d = float(max(abs(val(r, k) - I0) for r in rows))
    bound = 100 * eps * math.sqrt(N) * max(1.0, abs(float(I0)))
    if conserved:
        ok = d <= bound
        print("%s: %s changes by %.2e (bound %.2e)" % (label, k, d, bound))
    elif k == "C1":
        ok = d > 1e4 * bound
        print("%s: %s changes by %.2e with unequal moments (want > %.2e)" % (label, k, d,
                                                                              1e4 * bound))
    else:
        continue
    if not ok:
        print("FAIL %s: %s" % (label, k))
        bad += 1
if conserved and N >= 200:
    E = [float(val(r, "E_mov") - val(rows[0], "E_mov")) for r in rows]
    half = len(E) // 2
    first = max(abs(x) for x in E[:half + 1])
    second = max(abs(x - E[half]) for x in E[half:])
    ok = second <= 2 * first
    print("%s: E_mov changes by at most %.2e over the first half, %.2e over the second"
          % (label, first, second))
    if not ok:
        print("FAIL %s: E_mov drifts" % label)
        bad += 1
sys.exit(1 if bad else 0)
PY
done
echo "nhprk_turntable: ${#cases[@]} cases, $fails failed"
[ "$fails" -eq 0 ]
