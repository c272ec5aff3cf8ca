#!/usr/bin/env bash
# test_betsch_orders.sh: the study betsch-ggl-orders (e2e suite), whole (it
# takes well under a second) and reduced with --max-cells. Asserts measured
# orders, never pasted numbers and never timing: the rows VI-A and EM of
# the top and EM, EM-G of the four-particle system at their published
# orders (within 0.5), the top's reference the exact solution, the paper's
# own quantities (phi3 (113), q4 (128)) at the published q orders for every
# row, EM's lambda against lambda(T - h/2) of order 2 on the top; the
# BS99 row run by the family bs99 at its published orders; every row that
# does not match listed as a mismatch.
# Usage: test_betsch_orders.sh PATH/TO/vistudy PUBLISHED_DIR
set -u
V="$1"
PUB="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
id=betsch-ggl-orders
fails=0
if ! "$V" reproduce $id --published "$PUB" --results "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
  cat "$tmp/out" "$tmp/err"; echo "FAIL: reproduce $id"; exit 1
fi
for ext in md json csv; do
  [ -s "$tmp/r/$id.$ext" ] || { echo "FAIL: $id.$ext missing"; fails=$((fails + 1)); }
done
grep -q "^$id: matched [0-9]*/7 cells$" "$tmp/out" || { cat "$tmp/out"; echo "FAIL: summary line"; fails=$((fails + 1)); }
grep -q "not run" "$tmp/out" "$tmp/r/$id.md" && { echo "FAIL: a row not run"; fails=$((fails + 1)); }
python3 - "$tmp/r/$id.json" "$tmp/out" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
bad = []
def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None
cells = {(c["system"], c["scheme"]): c for c in j["cells"]}
if len(j["cells"]) != 7:
    bad.append(f"{len(j['cells'])} rows, not 7")
if j.get("not_run", 0) != 0 or j["total"] != 7:
    bad.append(f"not_run {j.get('not_run')} total {j['total']}: every row is run")
if j["matched"] != sum(1 for c in j["cells"] if c["match"]):
    bad.append("matched is not the count of matching rows")
if cells[("gyro-top", "BS99")]["method"] != "bs99":
    bad.append(f"BS99 row: method {cells[('gyro-top', 'BS99')]['method']}")
for key in [("gyro-top", "BS99"), ("gyro-top", "VI-A"), ("gyro-top", "EM"), ("four-particle", "EM"), ("four-particle", "EM-G")]:
    c = cells[key]
    for q in ("q", "p", "lambda"):
        pub = c["published_" + q]
        if pub == "-":
            continue
        m = c["measured_" + q]
        if not (isinstance(m, float) and abs(m - pub) <= 0.5):
            bad.append(f"{key} {q}: measured {m}, published {pub}")
for c in j["cells"]:
    if c["system"] == "gyro-top" and not c["reference"].startswith("exact"):
        bad.append(f"{c['scheme']}: top reference '{c['reference']}' is not the exact solution")
    if c["system"] == "four-particle" and c["reference"].startswith("exact"):
        bad.append("four-particle has no exact solution")
    pq = num(c["paper_measure_q"])
    if pq is None or abs(pq - c["published_q"]) > 0.5:
        bad.append(f"{c['system']} {c['scheme']}: paper's q quantity order {c['paper_measure_q']}, published {c['published_q']}")
    if not c["match"] and f"mismatch: {c['system']} {c['scheme']}:" not in out:
        bad.append(f"{c['system']} {c['scheme']}: mismatch not listed")
lh = num(cells[("gyro-top", "EM")]["lambda_half_step"])
if lh is None or abs(lh - 2) > 0.5:
    bad.append(f"top EM lambda at T - h/2: order {lh}, expected 2")
for c in j["cells"]:
    print(f"{c['system']} {c['scheme']}: q {c['measured_q']} p {c['measured_p']} lambda {c['measured_lambda']} "
          f"(published {c['published_q']}, {c['published_p']}, {c['published_lambda']}); paper q {c['paper_measure_q']}")
for x in bad:
    print("FAIL:", x)
sys.exit(1 if bad else 0)
PY
# Reduced: the first two rows, in results/quick.
if "$V" reproduce $id --published "$PUB" --results "$tmp/r2" --max-cells 2 >"$tmp/out2" 2>&1; then
  python3 - "$tmp/r2/quick/$id.json" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
ok = len(j["cells"]) == 2 and j["total"] == 2 and j.get("not_run", 0) == 0
print(f"--max-cells 2: {len(j['cells'])} rows" + ("" if ok else "  FAIL"))
sys.exit(0 if ok else 1)
PY
else
  cat "$tmp/out2"; echo "FAIL: reproduce --max-cells 2"; fails=$((fails + 1))
fi
echo "betsch_orders: $fails failed"
[ "$fails" = 0 ]
