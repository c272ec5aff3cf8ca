#!/usr/bin/env bash
# test_progress.sh: progress in logs (issue 22 item 4; docs/usage.md
# "Progress"). With standard error not a terminal (a pipe, as in CI),
# reproduce and order print a progress line at most every --progress-every
# seconds, with the units done of all, the time elapsed and an estimate of
# what remains, and a last line; --no-progress silences it; results stay on
# standard output.
. "$(dirname "$0")/lib.sh" "$1"

# A table through a pipe: lines "ID: k/N cells done, T elapsed, about R to
# go; now LABEL", then "ID: N/N cells done in T".
"$V" reproduce wenger2017-table1 --max-cells 40 --progress-every 0.1 --results "$tmp/r" \
  2>&1 >"$tmp/out" | cat >"$tmp/err"
check 'grep -qE "^wenger2017-table1: [0-9]+/40 cells done, [0-9.]+ s elapsed(, about [0-9.]+ s to go)?; now " "$tmp/err"' \
  "no progress line in a log: $(head -c 300 "$tmp/err")"
check 'grep -qE "^wenger2017-table1: 40/40 cells done in [0-9.]+ s$" "$tmp/err"' "no last progress line"
check '! grep -q $'"'"'\r'"'"' "$tmp/err"' "a terminal's carriage returns in a log"
check 'grep -q "matched 120/120" "$tmp/out" && ! grep -q "cells done" "$tmp/out"' \
  "progress mixed into the results on standard output"

# --no-progress: nothing on stderr.
"$V" reproduce wenger2017-table1 --max-cells 6 --fresh --no-progress --progress-every 0.1 \
  --results "$tmp/r" 2>&1 >/dev/null | cat >"$tmp/err"
check '[ ! -s "$tmp/err" ]' "--no-progress still printed: $(head -c 300 "$tmp/err")"

# --all in a log says where each study begins.
"$V" reproduce --all --skip "$("$V" reproduce --list | awk '{print $1}' | grep -v '^wenger2017-table[12]$' | paste -sd,)" \
  --max-cells 2 --results "$tmp/a" 2>&1 >/dev/null | cat >"$tmp/err"
check 'grep -q "^vistudy reproduce: study 1/2: wenger2017-table1" "$tmp/err" && grep -q "study 2/2: wenger2017-table2" "$tmp/err"' \
  "--all in a log does not name the study it starts: $(head -c 300 "$tmp/err")"

# order: each run's errors, in a log at most every S seconds.
O=(order --system planar-pendulum --method galerkin:s=2,w=2 --T 100
  --h 0.01,0.005,0.0025,0.00125 --no-cache)
"$V" "${O[@]}" --progress-every 0.1 2>&1 >/dev/null | cat >"$tmp/err"
check 'grep -qE "^order study:  h = 0\.00125 +e_q = " "$tmp/err"' \
  "order prints no run line in a log: $(head -c 300 "$tmp/err")"
"$V" "${O[@]}" --progress-every 0.1 --no-progress 2>&1 >/dev/null | cat >"$tmp/err"
check '[ ! -s "$tmp/err" ]' "order --no-progress still printed"

# A bad interval is a usage error naming the range.
"$V" reproduce wenger2017-table1 --progress-every 0 --results "$tmp/r" >/dev/null 2>"$tmp/err"
rc=$?
check '[ "$rc" = 2 ] && grep -q "0.1 to 3600" "$tmp/err"' "--progress-every 0: exit $rc"
check '[ ! -e "$tmp/r/wenger2017-table1.json" ]' "a refused command wrote results"

vi_test_end progress
