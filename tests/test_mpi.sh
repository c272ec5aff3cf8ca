#!/usr/bin/env bash
# test_mpi.sh: `mpirun -n 2 vistudy reproduce` (e2e suite; skipped, exit 77,
# when vistudy was built without MPI or mpirun is missing). Under mpirun the
# untimed units of a table (wenger2017-table1, 16 rows), of the order
# validation (--quick) and of a figure (man2020-fig3 --quick) give the same
# JSON and CSV as a serial run (-j 1), field by field but for CPU times;
# the other rank did measure some of them (the cost log says which rank);
# a rank killed mid-study (SIGKILL) stops the run with the finished cells
# stored, and a rerun under mpirun resumes and equals the serial run;
# ranks that build different units (another VI_VALIDATION_SEED) fail the
# run rather than give a wrong result; tasks of an srun step that MPI does
# not join are refused; a cost log that is a directory is a usage error.
# Usage: test_mpi.sh PATH/TO/vistudy PUBLISHED_DIR MPI(yes|no)
set -u
V="$1"
PUB="$2"
if [ "$3" != yes ] || ! command -v mpirun >/dev/null; then
  echo "mpi: skipped (vistudy built without MPI, or no mpirun)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# CI runs as root; OpenMPI refuses root unless told. Ranks unbound: rank 0
# runs threads and gnuplot beside its measuring.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Leak checking is off for the ranks (only): OpenMPI's components, loaded
# with dlopen and unloaded by MPI_Finalize, leave allocations LeakSanitizer
# can neither attribute nor suppress (the serial runs here and every other
# test keep it on; AddressSanitizer's other checks stay on in the ranks).
MPI=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
     mpirun -n 2 --oversubscribe --bind-to none)

# shellcheck source=lib_results.sh
. "$(dirname "$0")/lib_results.sh"

ser() { "$V" reproduce --published "$PUB" --no-cache --no-progress -j 1 "$@"; }
par() { "${MPI[@]}" "$V" reproduce --published "$PUB" --no-cache --no-progress "$@"; }

for study in "wenger2017-table1 --max-cells 16" "order-validation --quick" \
             "man2020-fig3 --quick"; do
  id=${study%% *}
  # shellcheck disable=SC2086
  ser $study --fresh --results "$tmp/s" >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "$id serial"; }
  # shellcheck disable=SC2086
  par $study --fresh --results "$tmp/m" --costs "$tmp/$id.costs" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "$id under mpirun"; }
  same "$tmp/s/quick/$id" "$tmp/m/quick/$id" || bad "$id: mpirun differs from serial"
  n1=$(grep -c '"rank":1' "$tmp/$id.costs")
  echo "$id: $n1 of $(grep -c '"key"' "$tmp/$id.costs") units measured by rank 1"
  [ "$n1" -ge 1 ] || bad "$id: rank 1 measured nothing"
done

# A rank killed mid-study: what rank 0 stored is kept, the rerun resumes.
# man2020-table1's first 7 rows: cells of 0.05 .. 4 s.
ser man2020-table1 --max-cells 7 --fresh --results "$tmp/s" >"$tmp/out" 2>&1 ||
  { cat "$tmp/out"; bad "man2020-table1 serial"; }
"${MPI[@]}" "$V" reproduce man2020-table1 --published "$PUB" --no-cache --no-progress \
  --max-cells 7 --fresh --results "$tmp/k" >"$tmp/kout" 2>&1 &
mp=$!
store="$tmp/k/quick/man2020-table1.partial.json"
wait_stored "$store" 4
victim=""
for p in $(pgrep -f "vistudy reproduce man2020-table1"); do
  if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then
    victim=$p
  fi
done
[ -n "$victim" ] && kill -KILL "$victim"
wait "$mp"
st=$?
if [ -f "$tmp/k/quick/man2020-table1.json" ]; then
  echo "note: the run finished before rank 1 was killed; resume not exercised" >&2
else
  [ "$st" != 0 ] || bad "mpirun exited 0 after a rank was killed"
  kept=$(stored "$store")
  [ "$kept" -ge 4 ] || { cat "$tmp/kout"; bad "the killed run stored $kept cells"; }
  par man2020-table1 --max-cells 7 --results "$tmp/k" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "rerun under mpirun"; }
  grep -q "resum" "$tmp/out" || { cat "$tmp/out"; bad "the rerun did not say it resumed"; }
  same "$tmp/s/quick/man2020-table1" "$tmp/k/quick/man2020-table1" || bad "resumed run differs"
  echo "rank 1 killed after $kept stored cells (mpirun exit $st); resumed"
fi

# Ranks that build different units (rank 0 draws the validation with
# another seed): the run fails and writes no result; never a wrong result.
"${MPI[@]:0:2}" mpirun --oversubscribe --bind-to none \
  -n 1 env VI_VALIDATION_SEED=7 "$V" reproduce order-validation --published "$PUB" --no-cache \
  --no-progress --quick --fresh --results "$tmp/seed" : \
  -n 1 "$V" reproduce order-validation --published "$PUB" --no-cache --no-progress --quick \
  --fresh --results "$tmp/seed" >"$tmp/out" 2>&1
st=$?
{ [ "$st" != 0 ] && [ ! -f "$tmp/seed/quick/order-validation.json" ] &&
  grep -q "on rank 1\|rank 1 builds" "$tmp/out"; } || { cat "$tmp/out"; bad "seeds differ: exit $st"; }

# Several tasks of an srun step that MPI does not join (no --mpi plugin):
# refused, nothing written.
SLURM_STEP_NUM_TASKS=2 "$V" reproduce wenger2017-table1 --published "$PUB" --max-cells 2 \
  --results "$tmp/srun" >/dev/null 2>"$tmp/err"
st=$?
{ [ "$st" = 1 ] && [ ! -e "$tmp/srun" ] && grep -q "srun" "$tmp/err"; } ||
  { cat "$tmp/err"; bad "srun without MPI plugin: exit $st"; }

# A cost log that cannot be one: a usage error, from rank 0, before any work.
mkdir "$tmp/dir"
par wenger2017-table1 --max-cells 2 --results "$tmp/u" --costs "$tmp/dir" >/dev/null 2>"$tmp/err"
st=$?
[ "$st" != 0 ] && grep -q -- "--costs" "$tmp/err" || { cat "$tmp/err"; bad "--costs DIR: exit $st"; }
"$V" reproduce wenger2017-table1 --max-cells 2 --results "$tmp/u" --costs "$tmp/dir" \
  >/dev/null 2>"$tmp/err"
st=$?
[ "$st" = 2 ] && grep -q -- "--costs" "$tmp/err" || { cat "$tmp/err"; bad "--costs DIR serial: exit $st"; }

[ "$fails" = 0 ] && echo "mpi: ok" || echo "mpi: $fails failed"
exit $((fails > 0))
