#!/usr/bin/env bash
# test_betsch_systems.sh: the systems of betsch-ggl against values that do
# not come from vistudy: the reading notes' independent transcription
# (../shared/papers/notes/betsch-ggl.md §2.3). four-particle at t = 0, data
# (127): E = 2/1.7, L = (0, 0, 2), J = (2, -2, 0) exactly (from q0, v0),
# and lambda(0) = (0, 23/17) (the exact multiplier, which a second-order
# run's node 0 approaches as h^2); then the invariants of a run from other
# data (masses, stiffnesses, lengths and velocities nobody tuned): every
# momentum kept by a variational method to round-off, the energy to its order.
. "$(dirname "$0")/lib.sh" "$1"

"$V" run --quiet --system four-particle --method galerkin:s=2,w=2 --h 1e-4 --T 2e-4 \
  --out "$tmp/fp.csv" 2>"$tmp/err"
rc=$?
check '[ "$rc" = 0 ] && [ -s "$tmp/fp.csv" ]' "four-particle run failed: $(cat "$tmp/err")"
python3 - "$tmp/fp.csv" <<'PY' && ok || bad "four-particle at t = 0 differs from the notes"
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
want = {"energy": 2 / 1.7, "Lx": 0, "Ly": 0, "Lz": 2, "Jx": 2, "Jy": -2, "Jz": 0}
bad = [f"{k} = {r[k]}, want {v}" for k, v in want.items() if abs(float(r[k]) - v) > 1e-14]
# lambda at node 0 is the method's, within O(h^2) of the exact 23/17.
for k, v in (("lambda1", 0.0), ("lambda2", 23 / 17)):
    if abs(float(r[k]) - v) > 1e-6:
        bad.append(f"{k} = {r[k]}, want {v} within 1e-6")
print("\n".join(bad) or "four-particle at t = 0: as the notes")
sys.exit(1 if bad else 0)
PY

# Other data: unequal stiff springs off their rest length, other masses,
# rod lengths and a velocity orthogonal to both rods (G(q0) v0 = 0).
"$V" run --quiet --system four-particle --method galerkin:s=3,w=3 --h 0.005 --T 2 \
  --set mass=2,0.5,1.5,1 --set k13=20 --set k24=80 --set l13=1.2 --set l24=0.9 \
  --set l12=1.5 --set l34=1.5 --set q0=0,0,0,1.5,0,0,0,1,0,1.5,1,0 \
  --set v0=0,0,0.3,0,0.2,0,0,0,-0.2,0,0,0.5 --out "$tmp/fp2.csv" 2>"$tmp/err"
rc=$?
check '[ "$rc" = 0 ]' "four-particle on other data failed: $(cat "$tmp/err")"
python3 - "$tmp/fp2.csv" <<'PY' && ok || bad "four-particle on other data: an invariant drifts"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
for k in ("Lx", "Ly", "Lz", "Jx", "Jy", "Jz"):
    d = max(abs(float(r[k]) - float(rows[0][k])) for r in rows)
    if d > 1e-11:
        bad.append(f"{k} drifts by {d:.2e}")
dE = max(abs(float(r["energy"]) - float(rows[0]["energy"])) for r in rows)
if not 0 < dE < 1e-6:
    bad.append(f"energy error {dE:.2e} (s = 3 at h = 0.005: expected small, nonzero)")
g = max(float(r["g_norm"]) for r in rows)
if g > 1e-12:
    bad.append(f"rods violated by {g:.2e}")
print("\n".join(bad) or f"four-particle, other data: momenta kept, energy error {dE:.1e}")
sys.exit(1 if bad else 0)
PY

vi_test_end betsch_systems
