#!/usr/bin/env bash
# test_bs99_reference.sh: the family bs99 (the Bobenko-Suris discrete
# Lagrange top, betsch-ggl notes §1.6, with the attitude reconstruction of
# core/methods/bs99_tmpl.c) step by step against tests/bs99_reference.py,
# an independent numpy implementation written from the notes and the
# scheme's statement without reading our C (a helper's, 2026-11-26): every
# node of 400 steps, q and p, on the paper's data and on symmetric tops
# nobody tuned, in double and in quad (against the oracle's double). Then
# its orders against the exact steady precession on other data, e3.J
# conserved, and the refusals (an asymmetric top, a system without the
# rigid-body table), each with its reason.
. "$(dirname "$0")/lib.sh" "$1"
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# run H PRECISION "name=value ..." (the top's parameters; I1 = I2 = I)
run() {
  local h=$1 prec=$2 data=$3 cset=() pset=() kv
  for kv in $data; do
    local k=${kv%%=*} v=${kv#*=}
    case $k in
    I) cset+=(--set "I1=$v" --set "I2=$v"); pset+=(--I1 "$v") ;;
    *) cset+=(--set "$k=$v"); pset+=("--$k" "$v") ;;
    esac
  done
  local T
  T=$(python3 -c "print(repr(400 * $h))")
  if ! "$V" run --quiet --system gyro-top "${cset[@]}" --method bs99 --precision "$prec" \
    --h "$h" --T "$T" --out "$tmp/c.csv" 2>"$tmp/err"; then
    bad "bs99 ($prec, $data): $(cat "$tmp/err")"
    return
  fi
  if ! "$py" "$here/bs99_reference.py" "${pset[@]}" --h "$h" --N 400 >"$tmp/p.csv" \
    2>"$tmp/err"; then
    bad "bs99_reference.py ($data): $(cat "$tmp/err")"
    return
  fi
  python3 - "$tmp/c.csv" "$tmp/p.csv" "bs99 ($prec, h = $h, ${data:-paper data})" <<'PY' && ok || bad "bs99 differs from the Python reference"
import csv, sys
c = list(csv.DictReader(open(sys.argv[1])))
p = list(csv.DictReader(open(sys.argv[2])))
bad = []
if len(c) != len(p):
    bad.append(f"{len(c)} nodes, the reference {len(p)}")
for k in [f"q{i}" for i in range(1, 13)] + [f"p{i}" for i in range(1, 13)]:
    scale = max(1.0, max(abs(float(r[k])) for r in p))
    d = max(abs(float(a[k]) - float(b[k])) for a, b in zip(c, p))
    if not d <= 1e-10 * scale:
        bad.append(f"{k}: {d:.2e}")
# e3.J of the oracle's own state against our Jz column, every node.
d = max(abs(float(a["Jz"]) - float(b["mm3"])) for a, b in zip(c, p))
if not d <= 1e-12:
    bad.append(f"Jz against the oracle's e3.J: {d:.2e}")
print(f"{sys.argv[3]}: " + ("; ".join(bad) if bad else "as the reference"))
sys.exit(1 if bad else 0)
PY
}

other1="m=1.3 I=2e-3 I3=3.1e-3 l=0.2 gravity=7 alpha0=0.7 omega_p=-4"
other2="m=0.5 I=4e-4 I3=6e-4 l=0.1 gravity=5 alpha0=1.2 omega_p=7"
for prec in double quad; do
  run 0.002 $prec ""
  run 0.001 $prec "$other1"
  run 0.0005 $prec "$other2"
done

# e3.J is conserved to round-off over a long run (the torque is
# horizontal), the energy is not (first order).
"$V" run --quiet --system gyro-top --method bs99 --h 0.002 --T 20 --every 10 \
  --out "$tmp/long.csv" 2>"$tmp/err" || bad "long run: $(cat "$tmp/err")"
python3 - "$tmp/long.csv" <<'PY' && ok || bad "bs99: Jz not conserved, or the energy conserved"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
J = [float(x["Jz"]) for x in r]
E = [float(x["energy"]) for x in r]
dJ = max(abs(j - J[0]) for j in J)
dE = max(abs(e - E[0]) for e in E)
print(f"bs99 over 10000 steps: |Jz - Jz(0)| <= {dJ:.1e}, |E - E(0)| <= {dE:.1e}")
sys.exit(0 if dJ <= 1e-14 and dE > 1e-8 else 1)
PY

# Orders against the exact steady precession on data nobody tuned: first
# in q and p (betsch-ggl §6.2, notes T2-T3), in both precisions.
for prec in double quad; do
  "$V" order --system gyro-top --method bs99 --set m=1.3 --set I1=2e-3 --set I2=2e-3 \
    --set I3=3.1e-3 --set l=0.2 --set gravity=7 --set alpha0=0.7 --set omega_p=-4 \
    --T 0.05 --h 1e-3,5e-4,2.5e-4,1.25e-4,6.25e-5 --precision $prec --no-progress --no-cache \
    --json "$tmp/o_$prec.json" >"$tmp/o.out" 2>&1 || bad "order ($prec): $(tail -3 "$tmp/o.out")"
  python3 - "$tmp/o_$prec.json" "$prec" <<'PY' && ok || bad "bs99 orders ($prec)"
import json, sys
o = json.load(open(sys.argv[1]))["orders"]
good = all(isinstance(o[k], float) and abs(o[k] - 1) < 0.15 for k in ("q", "p"))
print(f"bs99 orders ({sys.argv[2]}): q {o['q']}, p {o['p']}")
sys.exit(0 if good else 1)
PY
done

# The refusals, each naming the datum or the table (exit 2).
expect 2 "bs99 needs a Lagrange top.*gyro-top has .* about the fixed point" -- "$V" run \
  --system gyro-top --set I2=1e-3 --method bs99 --h 0.01 --T 0.1 --out "$tmp/x.csv"
expect 2 "bs99 integrates a heavy top.*planar-pendulum has none" -- "$V" run \
  --system planar-pendulum --method bs99 --h 0.01 --T 0.1 --out "$tmp/x.csv"
expect 2 "unknown key .s. for method bs99, which takes no options" -- "$V" run --system gyro-top --method bs99:s=2 --h 0.01 --T 0.1 \
  --out "$tmp/x.csv"

vi_test_end bs99_reference
