#!/usr/bin/env bash
# test_system_data.sh: a system's data outside the domain of its equations
# (e2e suite, issue 22 item 7). Singular initial data and parameters the
# equations divide by are refused when the system is set up, before any
# step or file: exit 2 from run, order and check, naming the system, the
# datum and the rule, and an existing output is left as it was. check
# near the edge of a domain (Lotka-Volterra's u, v > 0) reports its
# derivatives as checked, not as failures of finite differences that left
# the domain. Usage: test_system_data.sh PATH/TO/vistudy
. "$(dirname "$0")/lib.sh" "$1"
# No message may be the old generic one.
forbid='setup returned'

all_cmds() {
  local pat="$1" sys="$2" set="$3" method="$4"
  expect 2 "$pat" -- "$V" run --quiet --system "$sys" --set "$set" --method "$method" \
    --h 0.01 --T 0.1 --out "$tmp/x.csv"
  expect 2 "$pat" -- "$V" order --system "$sys" --set "$set" --method "$method" --no-cache
  expect 2 "$pat" -- "$V" check --system "$sys" --set "$set"
}

# Kepler at the origin: H = |p|^2/2 - mu/r is singular there (tyranowski2014 (5.1)).
all_cmds "kepler: q0: the initial position \(x, y\) and the attracting centre coincide at \(0, 0\), where H .*singular" \
  kepler q0=0,0,0,1 vprk
# Coincident vortices: log r^2 in H (5.5).
all_cmds "point-vortices: q0: vortices 1 and 2 coincide at \(0.5, -0.25\), where H .*log r\^2.*singular" \
  point-vortices q0=0.5,-0.25,0.5,-0.25 vprk
# Zero strengths: the equations divide by them (5.4)-(5.5).
all_cmds "point-vortices: G1 must be nonzero, got 0: the equations divide by it" point-vortices G1=0 vprk
all_cmds "point-vortices: G2 must be nonzero, got 0: the equations divide by it" point-vortices G2=0 vprk
# Six balls folded so that balls 1 and 3 meet (every bar of length 1, the
# rows independent): spring 1 has no direction there.
all_cmds "six-balls: q0: balls 1 and 3 \(the ends of spring 1\) coincide at \(0, 0\)" \
  six-balls q0=0,0,1,0,0,0,0,1,1,1,1,2 galerkin
# A population at 0 is outside u, v > 0: its parameter's domain.
all_cmds "parameter q0\[1\] of lotka-volterra must be > 0, got 0" lotka-volterra q0=0,1 vprk

# A refused run leaves an existing output as it was (the old code wrote a
# header-only file over it at the first step).
printf 'keep\n' >"$tmp/keep.csv"
expect 2 "kepler: q0" -- "$V" run --quiet --system kepler --set q0=0,0,0,1 --method vprk \
  --h 0.01 --T 0.1 --out "$tmp/keep.csv"
[ "$(cat "$tmp/keep.csv")" = keep ] && ok || bad "a refused kepler run changed its --out file"

# Data next to the singularities are inside the domain: accepted.
expect 0 "" -- "$V" run --quiet --system kepler --set q0=1e-3,0,0,1 --method vprk --h 1e-6 \
  --T 1e-5 --out "$tmp/k.csv"
expect 0 "" -- "$V" run --quiet --system point-vortices --set G1=-1.5 --set q0=0.5,0,0.5,1e-3 \
  --method vprk --h 1e-5 --T 1e-4 --out "$tmp/v.csv"

# check next to the edge of Lotka-Volterra's domain: the differences at
# q0 = (1e-10, 1e-10) would leave u, v > 0 at the default step; every
# derivative there is checked (ok), none fails, exit 0.
"$V" check --system lotka-volterra --set q0=1e-10,1e-10 >"$tmp/lv" 2>"$tmp/lverr"
rc=$?
[ "$rc" = 0 ] && ok || { bad "check lotka-volterra at 1e-10: exit $rc"; cat "$tmp/lv" "$tmp/lverr" >&2; }
! grep -q FAIL "$tmp/lv" && ok || bad "check lotka-volterra at 1e-10 reports a FAIL"
n_ok=$(grep -cE "^lotka-volterra [a-z_0-9]+ at q0: max rel err .* ok$" "$tmp/lv")
[ "$n_ok" = 8 ] && ok || { bad "check lotka-volterra at 1e-10: $n_ok of 8 checks at q0 ok"; cat "$tmp/lv" >&2; }
# So far below the step that rounding swamps every difference: not
# checked, said so, neither passed nor failed.
"$V" check --system lotka-volterra --precision quad --set q0=1e-300,1e-300 >"$tmp/lv2" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "check lotka-volterra at 1e-300 (quad): exit $rc"; cat "$tmp/lv2" >&2; }
grep -q "hess_hamiltonian at q0: not checked: the probe leaves the domain at q = (1e-300, 1e-300)" \
  "$tmp/lv2" && ok || { bad "check at 1e-300: no 'not checked' line"; cat "$tmp/lv2" >&2; }
# In double, 1/u^2 overflows at q0 itself: not a wrong derivative but data
# the precision cannot evaluate, said so (exit 1: the check could not run).
"$V" check --system lotka-volterra --precision double --set q0=1e-300,1e-300 >"$tmp/lv3" 2>&1
rc=$?
grep -q "d2alpha at q0: callback refused the point itself (status 1: outside its domain, or not finite in double precision)" \
  "$tmp/lv3" && [ "$rc" = 1 ] && ok ||
  { bad "check at 1e-300 (double): exit $rc, no 'refused the point itself'"; cat "$tmp/lv3" >&2; }

vi_test_end system_data
