#!/usr/bin/env bash
# test_outputs.sh: the output rules of docs/usage.md "Outputs" (issue 10), each as a
# user meets it (e2e suite). Nothing outside the named output is modified:
# a device, FIFO or symlink destination is written through, never replaced;
# bad destinations are refused before any work; reduced runs never touch the
# full results; a resumed study recomputes its verdicts and validates its
# cells; runs that cannot finish are refused; interrupted runs leave no
# temporary file; kept gnuplot scripts redraw in place; the published tables
# are found from any directory; repeated or empty settings are refused.
# Usage: test_outputs.sh PATH/TO/vistudy (as root for the mknod check; it is
# skipped with a note otherwise). Never touches /dev: the device is made in a
# temporary directory.
. "$(dirname "$0")/lib.sh" "$1"
P=(--system planar-pendulum --method galerkin:s=2,w=2 --h 0.01 --T 0.1)
run() { "$V" run --quiet "${P[@]}" "$@"; }
d="$tmp/d"
mkdir -p "$d"

# 1. Destinations of every kind.
if [ "$(id -u)" = 0 ] && mknod "$d/null" c 1 3 2>/dev/null; then
  run --out "$d/null" >/dev/null 2>&1
  check '[ -c "$d/null" ]' "--out onto a character device replaced it"
else
  echo "note: not root or mknod refused: the character-device check is skipped"
fi
mkfifo "$d/fifo"
timeout 30 cat "$d/fifo" >"$d/from-fifo" &
reader=$!
run --out "$d/fifo" >/dev/null 2>&1
wait "$reader"
check '[ -p "$d/fifo" ]' "--out onto a FIFO replaced it"
check '[ "$(wc -l <"$d/from-fifo")" = 12 ]' "the FIFO's reader did not get the 11 nodes and the header"
echo old >"$d/target"
ln -s target "$d/link"
run --out "$d/link" >/dev/null 2>&1
check '[ -L "$d/link" ] && [ "$(readlink "$d/link")" = target ]' "--out onto a symlink replaced the link"
check '[ "$(wc -l <"$d/target")" = 12 ]' "--out onto a symlink did not write its target"
echo old >"$d/mode.csv"
chmod 640 "$d/mode.csv"
run --out "$d/mode.csv" >/dev/null 2>&1
check '[ "$(stat -c %a "$d/mode.csv")" = 640 ] && [ "$(wc -l <"$d/mode.csv")" = 12 ]' \
  "replacing a regular file lost its mode or its new contents"
check '[ "$(run --out - | wc -l)" = 12 ]' "--out - did not stream to stdout"
ln -s fifo-target-missing "$d/dangling"
run --out "$d/dangling" >/dev/null 2>&1
check '[ -L "$d/dangling" ] && [ -f "$d/fifo-target-missing" ]' \
  "a dangling symlink was replaced instead of its target created"
"$V" order "${P[@]:0:4}" --h 0.1,0.05 --T 0.5 --json "$d/link" --no-cache >/dev/null 2>&1
check '[ -L "$d/link" ] && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$d/target"' \
  "order --json onto a symlink did not write its target as JSON"

# 2. Bad destinations are refused before the work, with the path named.
mkdir "$d/adir"
expect 2 "^vistudy run: --out: .*adir is a directory" -- "$V" run --quiet "${P[@]}" --out "$d/adir"
check '[ ! -s "$tmp/out" ] && ! grep -q "steps of h" "$tmp/err"' "--out DIR ran the integration"
expect 2 "nodir.*No such file" -- "$V" run --quiet "${P[@]}" --out "$d/nodir/x.csv"
# order on a system without an exact solution: a run would fill the cache.
expect 2 "nodir" -- "$V" order --system double-pendulum-3d --method galerkin --h 0.1,0.05 \
  --T 0.2 --json "$d/nodir/o.json" --cache "$tmp/ocache"
check '[ -z "$(ls "$tmp/ocache" 2>/dev/null)" ]' "order computed a reference before refusing --json"
expect 2 "json.*is a directory" -- "$V" order "${P[@]:0:4}" --h 0.1,0.05 --json "$d/adir" --no-cache
expect 2 "--cache: .*" -- "$V" order "${P[@]:0:4}" --h 0.1,0.05 --json "$d/o.json" \
  --cache "$d/target/sub"
check '[ ! -e "$d/o.json" ]' "order wrote --json after refusing --cache"
expect 2 "parent directory does not exist" -- "$V" reproduce wenger2017-table1 --max-cells 1 \
  --results "$d/no/such"
check '! grep -q matched "$tmp/out"' "reproduce reported results it could not write"
mkdir -p "$d/r2/wenger2017-table1.md"
expect 2 "wenger2017-table1.md is a directory" -- "$V" reproduce wenger2017-table1 --results "$d/r2"
check '! grep -q matched "$tmp/out"' "reproduce computed cells before refusing a bad result name"

# 3. Reduced runs write to DIR/quick and never touch the full results.
mkdir -p "$d/r3"
echo '{"full": true}' >"$d/r3/wenger2017-table1.json"
expect 0 "" -- "$V" reproduce wenger2017-table1 --max-cells 2 --results "$d/r3"
check 'grep -q "\"full\": true" "$d/r3/wenger2017-table1.json"' "--max-cells overwrote the full table"
check '[ -f "$d/r3/quick/wenger2017-table1.json" ] && grep -q "r3/quick/wenger2017-table1" "$tmp/out"' \
  "--max-cells did not write to DIR/quick"

# A reduction a study does not have is refused, not ignored.
expect 2 "--max-cells N reduces the table studies only; wenger2017-fig2" -- \
  "$V" reproduce wenger2017-fig2 --max-cells 2 --results "$d/r3"
expect 2 "--quick reduces the figure and sweep studies only; man2020-table1" -- \
  "$V" reproduce man2020-table1 --quick --results "$d/r3"

# 4. Resume: verdicts recomputed against the published values as they are
# now; invalid cells and stores of another build recomputed, with a message.
pub="$tmp/pub"
mkdir -p "$pub"
cp "$(dirname "$0")/../studies/published/"*.csv "$pub/"
r4="$d/r4"
expect 0 "" -- "$V" reproduce man2020-table1 --max-cells 2 --results "$r4" --published "$pub" --strict
store="$r4/quick/man2020-table1.partial.json"
check '[ -f "$store" ] && grep -q "matched 2/2" "$tmp/out"' "a reduced table run kept no cell store"
sed -i 's/^\(table1-gauss-equidistant,equidistant,gauss,gauss,2\),2,1/\1,4,1/' "$pub/man2020_orders.csv"
expect 1 "" -- "$V" reproduce man2020-table1 --max-cells 2 --results "$r4" --published "$pub" --strict
check 'grep -q "matched 1/2" "$tmp/out" && grep -qE "mismatch: EGG m=2 energy: measured [0-9.]+, published 4" "$tmp/out"' \
  "a resumed table kept its stale verdict after the published value changed"
check 'grep -q "resuming from .*(2 stored cells" "$tmp/err" && ! grep -q "recomputing" "$tmp/err"' \
  "the second run did not resume from the 2 stored cells"
python3 - "$store" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["cells"]["man2020:alg=EGG,m=3"]["energy"]["label"] = None  # corrupt
json.dump(j, open(sys.argv[1], "w"))
PY
expect 1 "stored cell man2020:alg=EGG,m=3 .* is invalid.*recomputing it" -- \
  "$V" reproduce man2020-table1 --max-cells 2 --results "$r4" --published "$pub" --strict
check 'python3 -c "
import json, sys
c = [x for x in json.load(open(sys.argv[1]))[\"cells\"] if x[\"m\"] == 3][0]
sys.exit(0 if isinstance(c[\"measured\"], float) and c[\"match\"] else 1)" "$r4/quick/man2020-table1.json"' \
  "a corrupt cell was not recomputed"
# A stored measurement is reused (not recomputed) when it is valid: forge a
# consistent one and see it in the results.
python3 - "$store" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["cells"]["man2020:alg=EGG,m=3"]["energy"].update(order=5.5, label="5.50")
json.dump(j, open(sys.argv[1], "w"))
PY
"$V" reproduce man2020-table1 --max-cells 2 --results "$r4" --published "$pub" >"$tmp/out" 2>&1
check 'grep -q "measured 5.50, published 4" "$tmp/out"' "a valid stored cell was not reused"
python3 - "$store" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["code"] = "another build"
json.dump(j, open(sys.argv[1], "w"))
PY
expect 0 "computed by another build.*recomputed" -- \
  "$V" reproduce man2020-table1 --max-cells 2 --results "$r4" --published "$pub"
check '! grep -q "5.50" "$tmp/out"' "cells of another build were reused"
"$V" reproduce man2020-table1 --max-cells 2 --results "$r4" --published "$pub" --fresh >"$tmp/out" 2>&1
check '! grep -q "5.50" "$tmp/out"' "--fresh reused stored cells"

# The published tables are read by column name: a short row or a missing
# column is an error naming the file and line, never a skipped row; like
# an unreadable table, it is refused before any work (exit 2).
bad="$tmp/badpub"
mkdir -p "$bad"
cp "$pub/"*.csv "$bad/"
sed -i '3s/,[^,]*$//' "$bad/man2020_orders.csv"
expect 2 "man2020_orders.csv:3: 6 fields, the header has 7" -- \
  "$V" reproduce man2020-table1 --max-cells 1 --results "$d/r9" --published "$bad"
sed -i '1s/order_q/orders_q/' "$bad/wenger2017_table1_gauss.csv"
expect 2 "has no column 'order_q'" -- \
  "$V" reproduce wenger2017-table1 --max-cells 1 --results "$d/r9" --published "$bad"

# 5. Runs that cannot finish are refused; an interrupted run leaves nothing.
L=(--system planar-pendulum --method galerkin --h 0.01)
TO=10 expect 2 "above the limit of 100000000 steps.*--force" -- "$V" run "${L[@]}" --T 1e12 --out "$d/huge.csv"
TO=10 expect 2 "GB.*--every K" -- "$V" run "${L[@]}" --T 2e5 --out "$d/huge.csv"
check '[ ! -e "$d/huge.csv" ] && [ -z "$(ls -A "$d" | grep tmp)" ]' "a refused run left a file"
"$V" run --quiet "${L[@]}" --T 1e5 --every 1000 --out "$d/sig.csv" &
pid=$!
for _ in $(seq 50); do ls -A "$d" | grep -q "sig.csv.tmp" && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
rc=$?
check '[ "$rc" = 143 ] && [ ! -e "$d/sig.csv" ] && [ -z "$(ls -A "$d" | grep "\.tmp\.")" ]' \
  "SIGTERM left a temporary file or a partial output"
expect 0 "" -- "$V" run --quiet "${L[@]}" --T 1 --every 30 --out "$d/every.csv"
check 'awk -F, "NR > 1 { printf \"%.2f \", \$1 }" "$d/every.csv" | grep -qx "0.00 0.30 0.60 0.90 1.00 "' \
  "--every 30 did not write nodes 0, 30, 60, 90 and the last"

# 6. The kept gnuplot script redraws the figure in place.
r6="$d/r6"
expect 0 "" -- "$V" reproduce wenger2017-fig2 --quick --results "$r6"
rm -f "$r6/quick/wenger2017-fig2.svg" "$r6/quick/wenger2017-fig2.png" \
  "$r6/quick/wenger2017-fig2.pdf"
(cd "$r6/quick" && gnuplot wenger2017-fig2.gp) 2>"$tmp/gp.err"
check '[ -s "$r6/quick/wenger2017-fig2.svg" ] && [ -s "$r6/quick/wenger2017-fig2.png" ] && [ -s "$r6/quick/wenger2017-fig2.pdf" ]' \
  "gnuplot ID.gp did not redraw ID.svg, ID.png and ID.pdf"
check '[ -z "$(ls -A "$r6/quick" | grep tmp)" ]' "gnuplot ID.gp left temporary files"
check '[ "$(stat -c %a "$r6/quick/wenger2017-fig2.png")" = "$(stat -c %a "$r6/quick/wenger2017-fig2.md")" ]' \
  "figures do not get the mode of the other results"

# An interrupted rendering leaves nothing: a stub gnuplot that writes its
# outputs late must be killed with vistudy, not re-create the temporaries.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/gnuplot" <<'STUB'
#!/bin/sh
script=$(cat)
sleep 2
printf '%s\n' "$script" | sed -n "s/^set output '\(.*\)'/\1/p" | while read -r f; do echo x >"$f"; done
STUB
chmod +x "$tmp/bin/gnuplot"
r6b="$d/r6b"
PATH="$tmp/bin:$PATH" "$V" reproduce wenger2017-fig2 --quick --results "$r6b" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do ls -A "$r6b/quick" 2>/dev/null | grep -q "svg.tmp" && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
sleep 3
check '[ -z "$(ls -A "$r6b/quick" | grep "\.tmp\.")" ]' "an interrupted figure left temporary files"

# 7. The published tables are found from any directory.
(cd / && "$V" reproduce wenger2017-table1 --max-cells 1 --results "$d/r7") >"$tmp/out" 2>&1
check 'grep -q "matched 3/3" "$tmp/out"' "reproduce from / did not find the published tables"

# 8. Repeated, empty and out-of-range settings.
expect 2 "key 's' given twice" -- "$V" run --quiet --system planar-pendulum \
  --method galerkin:s=2,w=1,s=3 --h 0.1 --T 1 --out -
expect 2 "parameter m of planar-pendulum is set twice" -- "$V" run "${L[@]}" --T 1 --set m=2 \
  --set m=3 --out -
expect 2 "parameter m of planar-pendulum is set twice" -- "$V" run "${L[@]}" --T 1 \
  --set m=2,l=1,m=3 --out -
expect 2 "empty step size" -- "$V" order "${P[@]:0:4}" --h 0.1,,0.05 --no-cache
expect 2 "step size 0.1 given twice" -- "$V" order "${P[@]:0:4}" --h 0.2,0.1,0.1 --no-cache
expect 2 "unknown study 'nosuch' in --skip; valid: .*wenger2017-table1" -- \
  "$V" reproduce --all --skip wenger2017-fig2,nosuch --results "$d/r8"
expect 2 "parameter m of planar-pendulum must be > 0, got -1" -- "$V" run "${L[@]}" --T 1 \
  --set m=-1 --out -
expect 2 "parameter mass\[2\] of six-balls must be > 0" -- "$V" run --system six-balls \
  --set mass=1,0,1,1,1,1 --method galerkin --h 0.1 --T 1 --out -
# A failure of the first step still writes the initial node.
expect 1 "computing step 1 .*1 node written" -- "$V" run --quiet --system planar-pendulum \
  --method galerkin:s=3 --h 0.5 --T 1 --max-iter 1 --out "$d/first.csv"
check '[ "$(wc -l <"$d/first.csv")" = 2 ] && grep -q "^0," "$d/first.csv"' \
  "a failed first step left no initial node"

vi_test_end outputs
