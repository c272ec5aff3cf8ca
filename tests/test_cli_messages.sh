#!/usr/bin/env bash
# test_cli_messages.sh: the command line's small refusals and its checked
# standard output (issue 22, items 3, 5 and 7; e2e suite): the step limit
# of order, write errors on standard output, repeated options, ranges of
# numbers, help forms, method specs, refusals that leave nothing behind and
# the Newton statistics of run's summary. Usage: test_cli_messages.sh PATH/TO/vistudy
. "$(dirname "$0")/lib.sh" "$1"
TO=20
full() {
  shift 2
  timeout 20 "$@" >/dev/full 2>"$tmp/err"
  local got=$?
  if [ "$got" != 1 ] || ! grep -q "write error on standard output: No space left on device" "$tmp/err"; then
    bad "standard output on /dev/full: exit $got: $*"; cat "$tmp/err" >&2; return
  fi
  ok
}

P=(--system planar-pendulum --method galerkin:s=2)
R=("${P[@]}" --h 0.1 --T 1 --quiet)

# Item 3: order's explicit --h list has run's step limit (1e8 steps, the
# sum over the list), with the hint; --force passes it.
expect 2 "T/h summed over the --h list = 300000000000000 steps is above the limit of 100000000 steps.*--force" -- \
  "$V" order "${P[@]}" --T 1e12 --h 0.01,0.005 --no-cache
expect 2 "above the limit of 100000000 steps" -- "$V" order "${P[@]}" --T 1e6 --h 0.02,0.01 --no-cache
expect 2 "T/h = 100000000000000 steps is above the limit of 100000000 steps.*--force" -- \
  "$V" run "${P[@]}" --h 0.01 --T 1e12 --out /dev/null
# --force lets it past the limit: the next refusal is the --json destination.
expect 2 "^vistudy order: --json" -- "$V" order "${P[@]}" --T 1e12 --h 0.01,0.005 --no-cache --force \
  --json "$tmp"

# Item 5: standard output on a full device fails every command (exit 1).
full 1 -- "$V" list
full 1 -- "$V" list systems
full 1 -- "$V" --help
full 1 -- "$V" help run
full 1 -- "$V" run --help
full 1 -- "$V" check planar-pendulum --precision double
full 1 -- "$V" order "${P[@]}" --h 0.1,0.05,0.025 --no-cache
full 1 -- "$V" reproduce --list
full 1 -- "$V" run "${R[@]}" --out -
full 1 -- "$V" reproduce wenger2017-table1 --max-cells 1 --results "$tmp/r0" --no-cache

# Item 7a: with --quick and --max-cells, the message names the option that
# does not apply; a refused command creates nothing.
expect 2 "^vistudy reproduce: --quick reduces the figure and sweep studies only; wenger2017-table1 is a table, reduced by --max-cells N \(drop --quick\)" -- \
  "$V" reproduce wenger2017-table1 --quick --max-cells 2 --results "$tmp/r1"
check '[ ! -e "$tmp/r1" ]' "a refused reproduce created its results directory"
mkdir "$tmp/r2"
expect 2 "--max-cells N reduces the table studies only; wenger2017-fig2 is a figure or sweep, reduced by --quick" -- \
  "$V" reproduce wenger2017-fig2 --max-cells 2 --results "$tmp/r2"
check '[ -z "$(ls -A "$tmp/r2")" ]' "a refused reproduce created DIR/quick"

# Item 7b: --skip of every study leaves nothing: refused.
all=$("$V" reproduce --list | awk 'NF {print $1}' | paste -sd, -)
expect 2 "--skip leaves no study to run" -- "$V" reproduce --all --skip "$all" --results "$tmp/r3"
check '[ ! -e "$tmp/r3" ]' "a refused reproduce --all --skip created its results directory"

# Item 7c: a single-valued option given twice is refused, in every command.
expect 2 "--T given twice \('1' and '2'\)" -- "$V" run "${R[@]}" --T 2 --out /dev/null
expect 2 "--out given twice" -- "$V" run "${R[@]}" --out /dev/null --out "$tmp/x.csv"
expect 2 "--h given twice" -- "$V" run "${R[@]}" --h 0.05 --out /dev/null
expect 2 "--system given twice" -- "$V" run "${R[@]}" --system kepler --out /dev/null
expect 2 "--method given twice" -- "$V" run "${R[@]}" --method galerkin --out /dev/null
expect 2 "--precision given twice" -- "$V" run "${R[@]}" --precision quad --precision double --out /dev/null
expect 2 "--h given twice" -- "$V" order "${P[@]}" --h 0.1,0.05 --h 0.2,0.1 --no-cache
expect 2 "--json given twice" -- "$V" order "${P[@]}" --json "$tmp/a.json" --json "$tmp/b.json" \
  --no-cache
check '[ ! -e "$tmp/a.json" ] && [ ! -e "$tmp/b.json" ]' "order with --json given twice wrote a file"
expect 2 "--precision given twice" -- "$V" check planar-pendulum --precision quad --precision double
expect 2 "--results given twice" -- "$V" reproduce wenger2017-table1 --results "$tmp/a" --results "$tmp/b"
check '[ ! -e "$tmp/a" ] && [ ! -e "$tmp/b" ]' "a refused reproduce created a results directory"
# --set accumulates (one --set per parameter is the documented way).
expect 0 "" -- "$V" run "${R[@]}" --set phi0=0.5 --set omega0=0.1 --out /dev/null

# Item 7d: --rtol is a relative tolerance: eps <= rtol < 1.
expect 2 "--rtol 1e10 is out of range: valid 2.22e-16 <= rtol < 1 in double precision" -- \
  "$V" run "${R[@]}" --rtol 1e10 --out /dev/null
expect 2 "--rtol 1 is out of range" -- "$V" order "${P[@]}" --rtol 1 --no-cache
expect 0 "" -- "$V" run "${R[@]}" --rtol 1e-9 --out /dev/null

# Item 7e: a number the precision cannot hold is out of range.
expect 2 "invalid final time T '1e400': out of range \(overflow in double precision\)" -- \
  "$V" run "${P[@]}" --h 0.1 --T 1e400 --out /dev/null
expect 2 "invalid step size h '1e-400': out of range \(underflow in double precision\)" -- \
  "$V" run "${P[@]}" --h 1e-400 --T 1 --out /dev/null
expect 2 "invalid final time T 'inf': expected a positive number" -- "$V" run "${P[@]}" --h 0.1 --T inf --out /dev/null

# Items 7f, 7g: help CMD prints CMD's help; --help anywhere prints it.
expect 0 "" -- "$V" help run
check 'head -1 "$tmp/out" | grep -q "^usage: vistudy run "' "'help run' did not print run's help"
expect 2 "unknown command 'nope'" -- "$V" help nope
expect 0 "" -- "$V" list systems methods --help
check 'head -1 "$tmp/out" | grep -q "^usage: vistudy list "' "'list systems methods --help' did not print list's help"
expect 0 "" -- "$V" run --bogus --help
check 'head -1 "$tmp/out" | grep -q "^usage: vistudy run "' "'run --bogus --help' did not print run's help"
expect 0 "" -- "$V" reproduce nope -h
check 'head -1 "$tmp/out" | grep -q "^usage: vistudy reproduce "' "'reproduce nope -h' did not print reproduce's help"

# Item 7h: an empty element of a method spec is refused, named.
expect 2 "method galerkin:,s=2: empty option \(element 1\)" -- "$V" run --system planar-pendulum \
  --method galerkin:,s=2 --h 0.1 --T 1 --out /dev/null
expect 2 "method galerkin:s=2,,w=1: empty option \(element 2\)" -- "$V" run --system planar-pendulum \
  --method galerkin:s=2,,w=1 --h 0.1 --T 1 --out /dev/null
expect 2 "empty option \(element 2\)" -- "$V" run --system planar-pendulum \
  --method galerkin:s=2, --h 0.1 --T 1 --out /dev/null

# Item 7i: the range of w stated for the configuration given.
expect 2 "invalid value '0' for w of method galerkin:s=3,w=0: valid with these options: 1\.\.3 " -- \
  "$V" run --system planar-pendulum --method galerkin:s=3,w=0 --h 0.1 --T 1 --out /dev/null
expect 2 "valid with these options: 2\.\.4 " -- "$V" run --system planar-pendulum \
  --method galerkin:w=0,quadZ=gauss,s=3 --h 0.1 --T 1 --out /dev/null

# Item 7j: an unknown system is refused before any output.
expect 2 "unknown system 'nope'" -- "$V" check --system nope
check '[ ! -s "$tmp/out" ]' "check printed output before refusing an unknown system"
expect 2 "unknown parameter" -- "$V" check planar-pendulum --set nope=1
check '[ ! -s "$tmp/out" ]' "check printed output before refusing an unknown parameter"

# Item 7k: the mean and the maximum of run's Newton iterations count the
# same solves (the start-up's included), and the summary says so.
for T in 0.1 0.3 1; do
  expect 0 "" -- "$V" run "${P[@]}" --h 0.1 --T "$T" --out /dev/null
  line=$(grep -oE "[0-9.]+ Newton iterations per solve \(max [0-9]+; [0-9]+ solves" "$tmp/err")
  check '[ -n "$line" ] && echo "$line" | awk "{ gsub(/[(;]/, \" \"); exit !(\$1 <= \$7) }"' \
    "T = $T: mean above the maximum, or the summary does not say what it counts: $(cat "$tmp/err")"
done

vi_test_end cli_messages
