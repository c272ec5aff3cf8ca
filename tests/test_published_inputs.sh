#!/usr/bin/env bash
# test_published_inputs.sh: the published tables are read by one reader
# with one validation, before any work (issue 22 item 2; docs/usage.md
# "Published tables"). Each case copies the vendored tables, spoils one
# field, and runs the study: it must be refused with exit 2 (a bad input,
# like an unreadable table), a message naming the file, the line, the
# column and the valid choices, and no cell run (nothing written in the
# results directory). A byte-order mark is tolerated.
# Usage: test_published_inputs.sh PATH/TO/vistudy
. "$(dirname "$0")/lib.sh" "$1"
src="$(dirname "$0")/../studies/published"

# refused ID FILE SED PATTERN [options]: FILE spoiled by the sed script
# must make `reproduce ID` exit 2 with PATTERN (an ERE) on stderr before
# any cell runs.
n=0
refused() {
  local id="$1" file="$2" script="$3" pat="$4"
  shift 4
  n=$((n + 1))
  local pub="$tmp/pub$n" res="$tmp/res$n"
  mkdir -p "$pub"
  cp "$src/"*.csv "$pub/"
  sed -i "$script" "$pub/$file"
  expect 2 "$pub/$file:$pat" -- "$V" reproduce "$id" --published "$pub" --results "$res" \
    --max-cells 12 "$@"
  check '[ -z "$(find "$res" -type f 2>/dev/null)" ]' \
    "$id, $file '$script': cells ran before the refusal: $(find "$res" -type f 2>/dev/null)"
}

W2=wenger2017_table2_lobatto.csv
# The header, then "s,quadL,r,ordL,w,quadZ,z,ordZ,order_q,order_p,order_lambda,basis".
head -1 "$src/$W2" | grep -qx "s,quadL,r,ordL,w,quadZ,z,ordZ,order_q,order_p,order_lambda,basis" ||
  bad "$W2 has another header: the cases below need updating"
# order_p of line 2 (the first cell) and of line 8 (after cells that ran,
# in a reader that validated row by row).
refused wenger2017-table2 $W2 '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),[^,]*,/\1,2x,/' \
  "2: column order_p: '2x' is neither an integer in 1\.\.99 nor one of: d"
refused wenger2017-table2 $W2 '8s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),[^,]*,/\1,2.9,/' \
  "8: column order_p: '2\.9' is neither an integer"
refused wenger2017-table2 $W2 '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),[^,]*,/\1,,/' \
  "2: column order_p: empty \(a value is required\)"
refused wenger2017-table2 $W2 '10s/^\([^,]*\),lobatto,/\1,lobato,/' \
  "10: column quadL: 'lobato' is not one of: gauss, lobatto"
refused wenger2017-table2 $W2 '2s/,extracted$/,/' "2: column basis: empty"
refused wenger2017-table2 $W2 '5s/^[^,]*,/ 2,/' "5: column s: ' 2' is not an integer in 1\.\.99"
# A row the method refuses (w > s with Lobatto constraints) is found too.
refused wenger2017-table2 $W2 '3s/^1,lobatto,\([^,]*\),\([^,]*\),1,/1,lobatto,\1,\2,3,/' \
  "3: galerkin:s=1,w=3.*Theorem 1"
# A table without data rows, with --strict too.
refused wenger2017-table2 $W2 '2,$d' " no data rows" --strict
refused wenger2017-table2 $W2 '1s/,basis$/,basis,note/;2,$s/$/,x/' \
  "1: unknown column 'note'; the columns it must have: s, r, ordL"
refused wenger2017-table2 $W2 '1s/order_q/orders_q/' "1: has no column 'order_q'"
refused man2020-table3 man2020_orders.csv '4s/,\([0-9]*\),3$/,\1.9,3/' \
  "4: column order_energy: '[0-9]+\.9' is not an integer in 1\.\.99"
refused man2020-table3 man2020_orders.csv '2s/,equidistant,/,equidistan,/' \
  "2: column control_points: 'equidistan' is not one of: equidistant, lobatto"
refused man2020-table1 man2020_orders.csv '/,1$/d' " no data row for this study \(its rows are marked '1'\)"
refused tyranowski2014-orders tyranowski2014_orders.csv '3s/^kepler,gauss,/kepler,gaus,/' \
  "3: column tableau: 'gaus' is not one of: gauss, radau-iia, lobatto-iiia-iiib"
refused tyranowski2014-orders tyranowski2014_orders.csv '2s/^kepler,/keplr,/' \
  "2: column system: 'keplr' is not one of: kepler, point-vortices, lotka-volterra"
refused tyranowski2014-orders tyranowski2014_orders.csv '2s/,[^,]*$/,/' "2: column source: empty"
# betsch-ggl: a scheme the study does not know names the valid ones; an
# optional order column (empty where the paper states nothing) still takes
# only integers; a row that states no order at all is refused.
B=betsch_ggl_orders.csv
refused betsch-ggl-orders $B '3s/,VI-A,/,VI-C,/' \
  "3: column scheme: 'VI-C' is not one of: VI-S, VI-A, VI-B, EM, EM-G, BS99"
refused betsch-ggl-orders $B '7s/,EM,2,2,1,/,EM,2,2,1.5,/' \
  "7: column order_lambda: '1\.5' is not an integer in 1\.\.99"
refused betsch-ggl-orders $B '2s/,VI-S,1,1,,/,VI-S,,,,/' \
  "2: the row states no order"

# A UTF-8 byte-order mark (an editor's) is tolerated: the study runs.
pub="$tmp/bom"
mkdir -p "$pub"
cp "$src/"*.csv "$pub/"
sed -i '1s/^/\xEF\xBB\xBF/' "$pub/$W2"
if ! "$V" reproduce wenger2017-table2 --published "$pub" --results "$tmp/bomres" --max-cells 1 \
  >"$tmp/out" 2>"$tmp/err" || ! grep -q "matched 3/3" "$tmp/out"; then
  bad "a table with a byte-order mark was not read"; cat "$tmp/out" "$tmp/err" >&2
else
  ok
fi

vi_test_end "published inputs"
