# lib_results.sh: sourced by test_jobs.sh and test_mpi.sh.
# same A B: two runs' results equal but for CPU times (same_results.py).
same() { python3 "$(dirname "${BASH_SOURCE[0]}")/same_results.py" "$1" "$2"; }
# stored STORE: the cells a cell store holds (0 when it cannot be read).
stored() {
  python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cells']))" "$1" \
    2>/dev/null || echo 0
}
# wait_stored STORE N: wait (up to 30 s) until STORE holds N cells.
wait_stored() {
  for _ in $(seq 600); do
    [ "$(stored "$1")" -ge "$2" ] && return 0
    sleep 0.05
  done
  return 1
}
