#!/usr/bin/env bash
# test_jobs.sh: `reproduce -j N` (e2e suite). The untimed cells of a table
# (wenger2017-table1, first 16 rows) and of the order validation (--quick)
# measured by 2 threads give the same JSON and CSV as one thread, field by
# field, but for the CPU time each cell reports; a -j 2 run of the
# validation stopped by SIGTERM mid-study resumes from the cells it
# stored, and the resumed result equals the uninterrupted one. Bad -j
# values are usage errors. Usage: test_jobs.sh PATH/TO/vistudy PUBLISHED_DIR
set -u
V="$1"
PUB="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# same, stored, wait_stored: the comparison of two runs and the cell store's
# count.
# shellcheck source=lib_results.sh
. "$(dirname "$0")/lib_results.sh"

run() { "$V" reproduce --published "$PUB" --no-cache --no-progress "$@"; }

for j in 1 2; do
  run wenger2017-table1 --max-cells 16 --results "$tmp/t$j" -j "$j" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "wenger2017-table1 -j $j"; }
  run order-validation --quick --fresh --results "$tmp/v$j" --jobs "$j" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "order-validation -j $j"; }
done
same "$tmp/t1/quick/wenger2017-table1" "$tmp/t2/quick/wenger2017-table1" || bad "table: -j 2 differs"
same "$tmp/v1/quick/order-validation" "$tmp/v2/quick/order-validation" || bad "validation: -j 2 differs"

# Stopped mid-study: the store keeps what finished; the rerun resumes.
# (the program itself in the background, not a shell function around it,
# so that the signal reaches it)
"$V" reproduce order-validation --published "$PUB" --no-cache --no-progress --quick --fresh \
  --results "$tmp/k" -j 2 >"$tmp/out" 2>&1 &
pid=$!
store="$tmp/k/quick/order-validation.partial.json"
wait_stored "$store" 3
kill -TERM "$pid" 2>/dev/null
wait "$pid"
if [ -f "$tmp/k/quick/order-validation.json" ]; then
  echo "note: the validation finished before it was stopped; resume not exercised" >&2
else
  kept=$(stored "$store")
  [ "$kept" -ge 3 ] || bad "the stopped run stored $kept cases"
  run order-validation --quick --results "$tmp/k" -j 2 >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "resume"; }
  grep -q "resum" "$tmp/out" || { cat "$tmp/out"; bad "the rerun did not say it resumed"; }
  same "$tmp/v1/quick/order-validation" "$tmp/k/quick/order-validation" || bad "resumed run differs"
  echo "stopped after $kept stored cases; resumed"
fi

# Bad -j: a usage error naming the range.
for arg in 0 65 x; do
  "$V" reproduce wenger2017-table1 -j "$arg" >/dev/null 2>"$tmp/err"
  st=$?
  [ "$st" = 2 ] && grep -q -- "-j" "$tmp/err" || { cat "$tmp/err"; bad "-j $arg: exit $st"; }
done

[ "$fails" = 0 ] && echo "jobs: ok" || echo "jobs: $fails failed"
exit $((fails > 0))
