# lib.sh: what the e2e test scripts share, sourced as
#   . "$(dirname "$0")/lib.sh" "$1"
# The program under test ($V, absolute), a private temporary directory
# ($tmp, removed at exit after running $on_exit, which a script may set,
# e.g. to unmount), a reference cache of its own, the published tables
# found as a clone finds them, and counted checks ending in vi_test_end.
set -u
V=$(realpath "${1:?usage: $0 PATH/TO/vistudy}")
tmp=$(mktemp -d)
on_exit=:
trap 'eval "$on_exit"; rm -rf "$tmp"' EXIT
export VI_CACHE_DIR="$tmp/cache"
unset VI_PUBLISHED_DIR
fails=0
checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
# check 'SHELL CONDITION' 'MESSAGE WHEN IT DOES NOT HOLD'
check() { if eval "$1"; then ok; else bad "$2"; fi; }
# expect STATUS PATTERN -- COMMAND...: the exit status, and an extended
# regular expression stderr must match (empty: any); stderr must not match
# $forbid when set. Bounded by $TO seconds (default 120): a regression
# that starts the work must fail, not hang. stdout and stderr are left in
# $tmp/out and $tmp/err.
forbid=
expect() {
  local want="$1" pat="$2"
  shift 3
  timeout "${TO:-120}" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    bad "exit $got (want $want): $*"; cat "$tmp/err" >&2; return
  fi
  if [ -n "$pat" ] && ! grep -qE -e "$pat" "$tmp/err"; then
    bad "stderr lacks /$pat/: $*"; cat "$tmp/err" >&2; return
  fi
  if [ -n "$forbid" ] && grep -qE -e "$forbid" "$tmp/err"; then
    bad "stderr has /$forbid/: $*"; cat "$tmp/err" >&2; return
  fi
  ok
}
# vi_test_end NAME: the count, and the status of the script.
vi_test_end() {
  echo "$1: $checks checks, $fails failed"
  [ "$fails" = 0 ]
}
