#!/usr/bin/env bash
# test_results_sets.sh: a study's result files are replaced together, only
# when the study finished, or not at all (issue 22 item 1; outfile.h
# "sets"), checked as a user meets it: complete results, then a rerun with
# --fresh stopped by write errors (a file-size limit; a small tmpfs filled
# up) must exit 1 and leave every old file as it was, with no temporary. Also: an
# interrupted run says so, and a destination name of 254 characters (valid:
# NAME_MAX is 255) is written although its temporary would be longer.
# Usage: test_results_sets.sh PATH/TO/vistudy. The full-disk checks need root
# (mount -t tmpfs); they are skipped with a note otherwise.
. "$(dirname "$0")/lib.sh" "$1"
mnt="$tmp/mnt"
mounted=0
on_exit='[ "$mounted" = 1 ] && umount "$mnt" 2>/dev/null'

# fill_but KB: fill the tmpfs up to KB kilobytes of free space.
fill_but() {
  local avail
  avail=$(df --output=avail -k "$mnt" | tail -1)
  fallocate -l $(((avail - $1) * 1024)) "$mnt/fill"
}

# full_disk_rerun NAME ARGS...: a complete run into the tmpfs, the disk
# filled up to 8 KB (room for a small file, not for the study: the old
# code wrote the .md of an incomplete run there), the same run with
# --fresh: exit 1, every old file unchanged, no temporary file, a message
# saying that nothing was replaced.
full_disk_rerun() {
  local name=$1 dir="$mnt/$1"
  shift
  if ! "$V" reproduce "$@" --results "$dir" >"$tmp/out" 2>&1; then
    cat "$tmp/out"
    check false "$name: the first, complete run failed"
    return
  fi
  # The results, not the resume store (ID.partial.json: a rerun's cells go
  # there, by design).
  (cd "$dir/quick" && md5sum -- $(ls | grep -v '\.partial\.json$') >"$tmp/$name.sums")
  fill_but 8
  "$V" reproduce "$@" --fresh --results "$dir" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  rm -f "$mnt/fill"
  check '[ "$rc" = 1 ]' "$name: a rerun on a full disk exited $rc, not 1"
  check 'grep -q "No space left on device" "$tmp/err"' "$name: no disk-full message"
  check 'grep -q "no result file replaced" "$tmp/err"' "$name: not told that nothing was replaced"
  check '(cd "$dir/quick" && md5sum --quiet -c "$tmp/$name.sums")' \
    "$name: a failed rerun changed the complete results"
  check '[ -z "$(ls -A "$dir/quick" | grep "\.tmp\.")" ]' "$name: temporaries left behind"
}

# A table whose resume store outgrows a file-size limit mid-study (write
# errors, EFBIG, with SIGXFSZ ignored): the issue's case of a disk filling
# after some cells. The old code replaced the .md and .csv by the
# incomplete run's ("matched 33/33") and kept the complete .json.
d="$tmp/fsize"
"$V" reproduce wenger2017-table1 --max-cells 12 --results "$d" >/dev/null 2>&1
(cd "$d/quick" && md5sum -- $(ls | grep -v '\.partial\.json$') >"$tmp/fsize.sums")
(ulimit -f 8; trap '' XFSZ; exec "$V" reproduce wenger2017-table1 --max-cells 12 --fresh \
  --results "$d") >/dev/null 2>"$tmp/err"
rc=$?
check '[ "$rc" = 1 ] && grep -q "File too large" "$tmp/err"' \
  "a table stopped by a write error exited $rc: $(cat "$tmp/err")"
check '(cd "$d/quick" && md5sum --quiet -c "$tmp/fsize.sums")' \
  "a table stopped mid-study replaced its complete results"
check '[ -z "$(ls -A "$d/quick" | grep "\.tmp\.")" ]' "a stopped table left temporaries"

mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16m tmpfs "$mnt" 2>/dev/null; then
  mounted=1
  # A table (a reduced run is a study of its own, in DIR/quick) whose
  # resume store cannot be written once the disk is full: it stops early.
  full_disk_rerun table wenger2017-table1 --max-cells 12
  # A figure: seven files, the images rendered by gnuplot.
  full_disk_rerun figure wenger2017-fig2 --quick
  # A first run on a full disk leaves no file at all (the old code left
  # the .md alone).
  fill_but 8
  "$V" reproduce wenger2017-fig2 --quick --results "$mnt/new" >/dev/null 2>&1
  rc=$?
  rm -f "$mnt/fill"
  check '[ "$rc" = 1 ] && [ -z "$(ls -A "$mnt/new/quick")" ]' \
    "a figure on a full disk exited $rc and left: $(ls -A "$mnt/new/quick" | tr '\n' ' ')"
else
  echo "note: not root or tmpfs not mountable: the full-disk checks are skipped"
fi

# An interrupted run says so on stderr (and dies of the signal: 128 + 15).
"$V" run --system planar-pendulum --method galerkin:s=2,w=2 --h 1e-5 --T 1e3 --force \
  --out "$tmp/long.csv" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
check '[ "$rc" = 143 ]' "an interrupted run exited $rc, not 143"
check 'grep -q "interrupted" "$tmp/err"' "an interrupted run said nothing"
check '[ ! -e "$tmp/long.csv" ] && [ -z "$(ls -A "$tmp" | grep "\.tmp\.")" ]' \
  "an interrupted run left an output or a temporary"

# A 254-character name.
long=$(printf 'n%.0s' $(seq 250)).csv
"$V" run --quiet --system planar-pendulum --method galerkin:s=2,w=2 --h 0.1 --T 0.2 \
  --out "$tmp/$long" >/dev/null 2>"$tmp/err"
check '[ -s "$tmp/$long" ]' "a valid 254-character output name was refused: $(cat "$tmp/err")"

vi_test_end "results sets"
