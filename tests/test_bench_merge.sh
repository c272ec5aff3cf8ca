#!/usr/bin/env bash
# test_bench_merge.sh BENCH_MERGE BENCH_COMPARE: tools/bench-merge on
# synthetic Google Benchmark JSON (no timing measured here): a baseline of
# two kernels, a later run on a machine uniformly 1.6x slower that also has
# a new kernel. The merge adds only the new kernel, rescaled to the
# baseline's calibration, and keeps the others to the byte; the merged
# baseline then gates the new kernel (an unchanged rerun passes, the kernel
# 2x slower fails and is named); merging again adds nothing; another CPU
# model or a run without the calibration kernel is refused (exit 2) and
# leaves the baseline untouched.
set -uo pipefail
merge=${1:?usage: test_bench_merge.sh PATH/TO/bench-merge PATH/TO/bench-compare}
cmp=${2:?usage: test_bench_merge.sh PATH/TO/bench-merge PATH/TO/bench-compare}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# make NAME SCALE KERNELS SLOW CPU: calibration + the ';'-separated
# kernels, 3 repetitions each plus the min aggregate, times in us.
make() {
  python3 - "$dir/$1.json" "$2" "$3" "$4" "$5" <<'PY'
import json, sys
out, scale, kernels, slow, cpu = sys.argv[1:6]
scale = float(scale)
t0 = {"calib/lu/48": 9.0, "lu/12/double": 0.5, "step/kepler/galerkin:s=2/double/newton": 1.2,
      "step/kepler/vprk:tableau=gauss,s=2/double/newton": 2.5}
names = ["calib/lu/48"] + [k for k in kernels.split(";") if k]
bms = []
for name in names:
    ts = [t0[name] * scale * (2.0 if name == slow else 1.0) * (1 + 0.02 * r) for r in range(3)]
    for r, v in enumerate(ts):
        bms.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 3,
                    "repetition_index": r, "threads": 1, "iterations": 1000, "real_time": v,
                    "cpu_time": v, "time_unit": "us"})
    bms.append({"name": name + "_min", "run_name": name, "run_type": "aggregate",
                "aggregate_name": "min", "repetitions": 3, "threads": 1, "real_time": min(ts),
                "cpu_time": min(ts), "time_unit": "us"})
ctx = {"vistudy_cpu": cpu, "vistudy_version": "test", "date": "2026-11-25"}
with open(out, "w") as f:
    f.write('{\n"context": ' + json.dumps(ctx) + ',\n"benchmarks": [\n')
    f.write(",\n".join(json.dumps(b) for b in bms) + "\n]\n}\n")
PY
}
old="lu/12/double;step/kepler/galerkin:s=2/double/newton"
new="step/kepler/vprk:tableau=gauss,s=2/double/newton"
make base 1.0 "$old" none "AMD EPYC"
make later 1.6 "$old;$new" none "AMD EPYC"
make rerun 1.6 "$old;$new" none "AMD EPYC"
make slow 1.6 "$old;$new" "$new" "AMD EPYC"
make other 1.6 "$old;$new" none "Intel Xeon"
make nocal 1.6 "$new" none "AMD EPYC"
python3 - "$dir/nocal.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"] = [b for b in d["benchmarks"] if not b["name"].startswith("calib/")]
json.dump(d, open(sys.argv[1], "w"))
PY
cp "$dir/base.json" "$dir/merged.json"

if "$merge" "$dir/merged.json" "$dir/later.json" >"$dir/out.txt" 2>&1; then
  echo "ok: merge (exit 0): $(cat "$dir/out.txt")"
else
  fail "merge exited $?: $(cat "$dir/out.txt")"
fi
python3 - "$dir/base.json" "$dir/merged.json" "$new" <<'PY' || fails=$((fails + 1))
import json, sys
base, merged, new = (json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3])
bad = []
if merged["benchmarks"][:len(base["benchmarks"])] != base["benchmarks"]:
    bad.append("the baseline's own entries changed")
added = [b for b in merged["benchmarks"][len(base["benchmarks"]):]]
if {b["run_name"] for b in added} != {new}:
    bad.append(f"added {sorted({b['run_name'] for b in added})}, want only {new}")
# 2.5 us on the baseline's machine: 2.5 * 1.6 measured, times 9 / (9 * 1.6).
m = min(b["cpu_time"] for b in added if b["run_type"] == "iteration")
if not abs(m - 2.5) <= 1e-12:
    bad.append(f"rescaled minimum {m!r}, want 2.5")
log = merged["context"].get("vistudy_merged", [])
if len(log) != 1 or log[0]["benchmarks"] != 1 or abs(log[0]["calibration_ratio"] - 0.625) > 1e-6:
    bad.append(f"merge record {log}")
print(("FAIL: " + "; ".join(bad)) if bad else "ok: only the new kernel added, rescaled to 2.5 us; record kept")
sys.exit(1 if bad else 0)
PY
if "$cmp" "$dir/merged.json" "$dir/rerun.json" >"$dir/out.txt" 2>&1 && grep -q "compared 3 benchmarks" "$dir/out.txt"; then
  # 3: the two old kernels and the merged one (the calibration is not counted)
  echo "ok: an unchanged rerun passes against the merged baseline, the new kernel compared"
else
  fail "unchanged rerun against the merged baseline: $(cat "$dir/out.txt")"
fi
"$cmp" "$dir/merged.json" "$dir/slow.json" >"$dir/out.txt" 2>&1
st=$?
if [ "$st" -eq 1 ] && grep -q "^$new .*SLOWER" "$dir/out.txt"; then
  echo "ok: the merged kernel 2x slower is flagged (exit 1)"
else
  fail "the merged kernel 2x slower: exit $st: $(cat "$dir/out.txt")"
fi
cp "$dir/merged.json" "$dir/merged1.json"
"$merge" "$dir/merged.json" "$dir/later.json" >"$dir/out.txt" 2>&1
if grep -q "^bench-merge: 0 benchmarks added" "$dir/out.txt" && cmp -s "$dir/merged.json" "$dir/merged1.json"; then
  echo "ok: merging again adds nothing and leaves the file as it was"
else
  fail "second merge: $(cat "$dir/out.txt")"
fi
for c in "other|measured on 'Intel Xeon'|another CPU model" \
         "nocal|no usable time of the calibration kernel|a run without the calibration kernel"; do
  IFS='|' read -r f why label <<<"$c"
  [ -f "$dir/$f.json" ] || fail "$dir/$f.json was not made"
  "$merge" "$dir/merged.json" "$dir/$f.json" >"$dir/out.txt" 2>&1
  st=$?
  if [ "$st" -eq 2 ] && cmp -s "$dir/merged.json" "$dir/merged1.json" && grep -qF "$why" "$dir/out.txt"; then
    echo "ok: $label refused (exit 2, baseline untouched): $(head -1 "$dir/out.txt")"
  else
    fail "$label: exit $st: $(cat "$dir/out.txt")"
  fi
done
if [ "$fails" -ne 0 ]; then
  echo "bench-merge: $fails check(s) failed"
  exit 1
fi
echo "bench-merge: all checks passed"
