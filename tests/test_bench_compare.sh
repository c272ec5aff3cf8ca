#!/usr/bin/env bash
# test_bench_compare.sh BENCH_COMPARE: tools/bench-compare on synthetic
# Google Benchmark JSON (no timing is measured here, so the verdicts are
# deterministic): an unchanged rerun passes, one kernel 2x slower fails and
# is named, a machine uniformly 1.7x slower passes only thanks to the
# calibration kernel, one disturbed repetition is absorbed by the minimum,
# a kernel failing in the new run fails, a missing calibration is a usage
# error.
set -uo pipefail
cmp=${1:?usage: test_bench_compare.sh PATH/TO/bench-compare}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0

# make NAME SCALE_ALL SLOW_NAME SLOW_FACTOR NOISY ERROR_NAME: a run of five
# kernels and the calibration with 3 repetitions each (times in us).
make() {
  python3 - "$dir/$1.json" "$2" "$3" "$4" "$5" "$6" <<'PY'
import json, sys
out, scale, slow, factor, noisy, err = sys.argv[1:7]
scale, factor = float(scale), float(factor)
base = {"calib/lu/48": 9.0, "lu/12/double": 0.5, "lu/48/double": 8.4,
        "step/planar-pendulum/galerkin:s=2/double/newton": 1.2,
        "step/double-pendulum-3d/galerkin:s=4/double/kinsol": 14.5,
        "solve/double-pendulum-3d/galerkin:s=4/quad/newton": 900.0}
bms = []
for name, t in base.items():
    for rep in range(3):
        v = t * scale * (factor if name == slow else 1.0) * (1 + 0.02 * rep)
        if name == noisy and rep == 1:
            v *= 3.0  # another process ran during this repetition
        b = {"name": name, "run_name": name, "run_type": "iteration",
             "repetitions": 3, "repetition_index": rep, "threads": 1,
             "iterations": 1000, "real_time": v, "cpu_time": v, "time_unit": "us"}
        if name == err:
            b = {"name": name, "run_name": name, "run_type": "iteration",
                 "error_occurred": True, "error_message": "Newton iteration did not converge"}
        bms.append(b)
    if name == err:
        continue
    m = min(b["cpu_time"] for b in bms
            if b.get("run_name") == name and b.get("run_type") == "iteration")
    bms.append({"name": name + "_min", "run_name": name, "run_type": "aggregate",
                "aggregate_name": "min", "repetitions": 3, "threads": 1,
                "real_time": m, "cpu_time": m, "time_unit": "us"})
ctx = {"vistudy_cpu": "AMD EPYC", "vistudy_version": "test", "vistudy_build_type": "release",
       "vistudy_pinned_core": "core 1", "vistudy_inject_slowdown": "1"}
json.dump({"context": ctx, "benchmarks": bms}, open(out, "w"), indent=1)
PY
}

# expect WANT_STATUS LABEL ARGS...: run bench-compare, check its exit status.
expect() {
  local want=$1 label=$2
  shift 2
  "$cmp" "$@" >"$dir/out.txt" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $label: exit $got, expected $want"
    sed 's/^/  | /' "$dir/out.txt"
    fails=$((fails + 1))
  else
    echo "ok: $label (exit $got)"
  fi
}

slow="step/planar-pendulum/galerkin:s=2/double/newton"
make base 1.0 none 1 none none
make rerun 1.0 none 1 none none
make slow2x 1.0 "$slow" 2.0 none none
make machine17 1.7 none 1 none none
make machine17slow 1.7 "$slow" 2.0 none none
make noisy 1.0 none 1 "$slow" none
make broken 1.0 none 1 none "$slow"

expect 0 "unchanged rerun passes" "$dir/base.json" "$dir/rerun.json"
expect 1 "one kernel 2x slower is flagged" "$dir/base.json" "$dir/slow2x.json"
if ! grep -q "^$slow .*SLOWER" "$dir/out.txt"; then
  echo "FAIL: the 2x slower kernel is not named SLOWER"
  fails=$((fails + 1))
fi
if grep -q "lu/12/double .*SLOWER" "$dir/out.txt"; then
  echo "FAIL: an unchanged kernel is flagged"
  fails=$((fails + 1))
fi
expect 0 "machine uniformly 1.7x slower passes (normalised)" "$dir/base.json" "$dir/machine17.json"
expect 1 "the same without normalisation fails" "$dir/base.json" "$dir/machine17.json" --no-normalise
expect 1 "2x kernel on a 1.7x slower machine is flagged" "$dir/base.json" "$dir/machine17slow.json"
expect 0 "one disturbed repetition is absorbed by the minimum" "$dir/base.json" "$dir/noisy.json"
expect 1 "the median flags a 2x kernel too" "$dir/base.json" "$dir/slow2x.json" --stat median
expect 1 "a kernel failing in the new run fails" "$dir/base.json" "$dir/broken.json"
expect 0 "a 2x kernel passes a threshold of 2.5" "$dir/base.json" "$dir/slow2x.json" --threshold 2.5
expect 1 "the subset filter keeps the flagged kernel" "$dir/base.json" "$dir/slow2x.json" --filter '^step/'
expect 0 "the subset filter can leave it out" "$dir/base.json" "$dir/slow2x.json" --filter '^lu/'
expect 1 "--flagged writes the flagged names" "$dir/base.json" "$dir/slow2x.json" --flagged "$dir/flagged.txt"
if [ "$(cat "$dir/flagged.txt" 2>/dev/null)" != "$slow" ]; then
  echo "FAIL: --flagged wrote '$(cat "$dir/flagged.txt" 2>/dev/null)'"
  fails=$((fails + 1))
fi
python3 - "$dir/base.json" "$dir/nocal.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"] = [b for b in d["benchmarks"] if not b["name"].startswith("calib/")]
json.dump(d, open(sys.argv[2], "w"))
PY
expect 2 "a run without the calibration kernel is a usage error" "$dir/base.json" "$dir/nocal.json"
expect 2 "unreadable input is a usage error" "$dir/base.json" "$dir/missing.json"

if [ "$fails" -ne 0 ]; then
  echo "bench-compare: $fails check(s) failed"
  exit 1
fi
echo "bench-compare: all checks passed"
