#!/usr/bin/env bash
# test_man2020_figs.sh: the man2020 figure studies (Figs. 3, 8, 9, 11) on
# their reduced runs (--quick; e2e suite). Checks the output contract (json,
# csv, md, dat, gp, svg, png, pdf, machine info, finite rows) and numbers that a
# real defect would move: Fig. 3's global Hamiltonian error (47) of LGG
# falls by more than 100x per added point (order 2m - 2 at h = 0.1) and
# every error double cannot resolve was rerun in quad; Fig. 8's energy
# errors are bounded and fall with m; Fig. 9's angular momentum (60) error
# is at round-off in double and far lower in quad (the scheme conserves it
# exactly); Fig. 11's antisymmetry quantities (61) stay at round-off in both
# precisions. Every claim of the text must hold. Run times are never
# asserted.
# Usage: test_man2020_figs.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
fails=0
for id in man2020-fig3 man2020-fig8 man2020-fig9 man2020-fig11; do
  if ! "$V" reproduce "$id" --quick --results "$tmp" >"$tmp/out" 2>&1; then
    cat "$tmp/out"; echo "FAIL: reproduce $id"; fails=$((fails + 1)); continue
  fi
  grep -q "claims of the text hold" "$tmp/out" || { echo "FAIL: $id: no claims summary"; fails=$((fails + 1)); }
  for ext in json csv md dat gp svg png pdf; do
    [ -s "$tmp/quick/$id.$ext" ] || { echo "FAIL: $id.$ext missing or empty"; fails=$((fails + 1)); }
  done
  head -c 8 "$tmp/quick/$id.png" | grep -q PNG || { echo "FAIL: $id.png is not a PNG"; fails=$((fails + 1)); }
  grep -q "<svg" "$tmp/quick/$id.svg" || { echo "FAIL: $id.svg is not an SVG"; fails=$((fails + 1)); }
  head -c 5 "$tmp/quick/$id.pdf" | grep -q "%PDF-" || { echo "FAIL: $id.pdf is not a PDF"; fails=$((fails + 1)); }
  ls -A "$tmp/quick" | grep -q "\.tmp\." && { echo "FAIL: temporary files left"; fails=$((fails + 1)); }
  python3 - "$tmp/quick/$id.json" "$tmp/quick/$id.md" <<'PY' || fails=$((fails + 1))
import json, math, sys
j = json.load(open(sys.argv[1]))
md = open(sys.argv[2]).read()
bad = []
for key in ("id", "system", "T", "precision", "choices", "machine", "series", "claims",
            "claims_held", "claims_total"):
    if key not in j:
        bad.append(f"missing {key}")
for m in ("cpu", "cores", "os", "compiler", "build", "version"):
    if m not in j.get("machine", {}):
        bad.append(f"machine lacks {m}")
if not j["quick"]:
    bad.append("not marked as a quick run")
for s in j["series"]:
    cols = s["columns"]
    if not s["rows"]:
        bad.append(f"{s['label']}: no rows")
    for r in s["rows"]:
        if len(r) != len(cols) or not all(math.isfinite(x) for x in r):
            bad.append(f"{s['label']}: bad row {r}")
            break
if j["claims_total"] < 1:
    bad.append("no claims")
for c in j["claims"]:
    if not c["holds"]:
        bad.append(f"claim does not hold: {c['claim']}: {c['measured']}")
    if not any(ch.isdigit() for ch in c["measured"]):
        bad.append(f"claim without a measured value: {c['claim']}")
if "Claims of the paper's text" not in md:
    bad.append("md lacks the claims section")
series = {s["label"]: s for s in j["series"]}

def col(s, name):
    return [r[s["columns"].index(name)] for r in s["rows"]]

if j["id"] == "man2020-fig3":
    if set(series) != {"LLL", "LGL", "LLG", "LGG"}:
        bad.append(f"series {sorted(series)}")
    for label, s in series.items():
        ms, e, quad = col(s, "m"), col(s, "err"), col(s, "quad")
        if ms != list(range(2, 2 + len(ms))) or len(ms) < 4:
            bad.append(f"{label}: m = {ms}")
        for a, b in zip(e, e[1:]):
            if label == "LGG" and not b < 1e-2 * a:
                bad.append(f"LGG: e does not fall 100x per point: {a:.3e} -> {b:.3e}")
        for m, x, q in zip(ms, e, quad):
            # The precision rule: an error double cannot resolve is rerun in quad.
            if x < 1e-11 and q != 1:
                bad.append(f"{label} m={m}: e = {x:.2e} in double")
            if not 0 < x < 1e-2:
                bad.append(f"{label} m={m}: e = {x:.2e}")
    if not any(q == 1 for s in series.values() for q in col(s, "quad")):
        bad.append("no run in quad: the quick grid must reach the quad rule")
if j["id"] == "man2020-fig8":
    if len(series) != 10:
        bad.append(f"{len(series)} series, want LGG and LLL for m = 2..6")
    for alg in ("LGG", "LLL"):
        e = [series[f"{alg}, m={m}"]["extra"][1] for m in range(2, 7)]
        for a, b in zip(e, e[1:]):
            if not b < 0.1 * a:
                bad.append(f"{alg}: energy error does not fall with m: {a:.2e} -> {b:.2e}")
        if not e[0] < 0.5:
            bad.append(f"{alg} m=2: energy error {e[0]:.2e}")
if j["id"] == "man2020-fig9":
    s = j["series"][0]
    d, q = s["extra"][1], s.get("quad_check_error", 1)
    if not d < 1e-13:
        bad.append(f"Jz error in double {d:.2e} not below 1e-13")
    if not q < 1e-25:
        bad.append(f"Jz error in quad {q:.2e} not below 1e-25")
    if not q < 1e-12 * max(d, 1e-17):
        bad.append(f"quad Jz error {q:.2e} not far below double {d:.2e}")
if j["id"] == "man2020-fig11":
    if sorted(s.get("quantity", "") for s in j["series"]) != ["antisym_x", "antisym_y"]:
        bad.append("series are not antisym_x and antisym_y")
    for s in j["series"]:
        d, q = s["extra"][1], s.get("quad_check_error", 1)
        if not d < 1e-12:
            bad.append(f"{s['label']}: deviation in double {d:.2e}")
        if not q < 1e-25:
            bad.append(f"{s['label']}: deviation in quad {q:.2e}")
for b in bad:
    print(f"FAIL: {j['id']}: {b}")
print(f"{j['id']}: {len(j['series'])} series, {j['claims_held']}/{j['claims_total']} claims hold")
sys.exit(1 if bad else 0)
PY
done
# The studies are registered: listed, and an unknown one exits 2.
"$V" reproduce --list | grep -q "^man2020-fig11 " || { echo "FAIL: man2020-fig11 not listed"; fails=$((fails + 1)); }
"$V" reproduce man2020-fig12 --results "$tmp" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown study must exit 2"; fails=$((fails + 1)); }
echo "test_man2020_figs: $fails failure(s)"
[ "$fails" -eq 0 ]
