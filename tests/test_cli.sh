#!/usr/bin/env bash
# test_cli.sh: the command line as a user meets it (e2e suite): the CSV
# contract of `vistudy run`, quad-precision constraint residuals, `check` and
# `list` (text and --markdown), and every kind of bad input (exit 2 with a
# message naming the problem and the valid choices). Usage: test_cli.sh PATH/TO/vistudy
set -u
V="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }

# expect STATUS PATTERN -- command...: exit status and a stderr pattern.
expect() {
  local want="$1" pat="$2"
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    bad "exit $got (want $want): $*"; cat "$tmp/err" >&2; return
  fi
  if [ -n "$pat" ] && ! grep -qE "$pat" "$tmp/err"; then
    bad "stderr lacks /$pat/: $*"; cat "$tmp/err" >&2; return
  fi
  ok
}

run() { "$V" run --quiet "$@"; }
P=(--system planar-pendulum --method galerkin:s=2,w=2 --h 0.01 --T 0.1)

# Bad input: exit 2, the message names the problem and the choices.
expect 2 "unknown system 'pendulum'.*planar-pendulum" -- run --system pendulum --method galerkin --h 0.1 --T 1 --out -
expect 2 "unknown parameter 'mass'.*valid:.*gravity" -- run "${P[@]}" --set mass=2 --out -
expect 2 "q0.*6 values" -- run --system double-pendulum-3d --set q0=1,2 --method galerkin --h 0.1 --T 1 --out -
expect 2 "inconsistent initial data" -- run --system double-pendulum-3d --set v0=1,0,0,0,0,0 --method galerkin --h 0.1 --T 1 --out -
expect 2 "unknown method 'rattle'.*galerkin" -- run --system planar-pendulum --method rattle --h 0.1 --T 1 --out -
expect 2 "unknown key 'q'.*valid: s, w" -- run --system planar-pendulum --method galerkin:q=2 --h 0.1 --T 1 --out -
expect 2 "Theorem 1.*w <= s" -- run --system planar-pendulum --method galerkin:s=2,w=3 --h 0.1 --T 1 --out -
expect 2 "r >= s" -- run --system planar-pendulum --method galerkin:s=4,r=3 --h 0.1 --T 1 --out -
expect 2 "quadL.*gauss\|lobatto" -- run --system planar-pendulum --method galerkin:quadL=radau --h 0.1 --T 1 --out -
expect 2 "step size h.*positive" -- run --system planar-pendulum --method galerkin --h -0.1 --T 1 --out -
expect 2 "step size h.*positive" -- run --system planar-pendulum --method galerkin --h 0 --T 1 --out -
expect 2 "final time T.*positive" -- run --system planar-pendulum --method galerkin --h 0.1 --T 0 --out -
expect 2 "invalid step size h 'abc'" -- run --system planar-pendulum --method galerkin --h abc --T 1 --out -
expect 2 "not a whole multiple" -- run --system planar-pendulum --method galerkin --h 0.3 --T 1 --out -
expect 2 "precision 'single'.*double, quad" -- run "${P[@]}" --precision single --out -
expect 2 "solver 'ida'.*auto, newton, chord, simplified, fixed-point, kinsol" -- run "${P[@]}" --solver ida --out -
expect 2 "kinsol.*double" -- run "${P[@]}" --precision quad --solver kinsol --out -
expect 2 "missing --out" -- run --system planar-pendulum --method galerkin --h 0.1 --T 1
expect 2 "unknown command" -- "$V" frobnicate
expect 2 "unknown list" -- "$V" list things
expect 2 "unknown system" -- "$V" check nosuch

# order: bad input.
expect 2 "not a whole multiple" -- "$V" order --system planar-pendulum --method galerkin --h 0.3,0.1 --no-cache
expect 2 "at least two step sizes" -- "$V" order --system planar-pendulum --method galerkin --h 0.1 --no-cache
expect 2 "unknown method" -- "$V" order --system planar-pendulum --method nope --no-cache
expect 2 "Theorem 1" -- "$V" order --system planar-pendulum --method galerkin:s=1,w=2 --no-cache
expect 2 "rtol 1e-30 is below" -- "$V" order --system planar-pendulum --method galerkin --rtol 1e-30 --no-cache
expect 2 "kinsol.*double" -- "$V" order --system planar-pendulum --method galerkin --precision quad --solver kinsol --no-cache
expect 2 "unknown study 'table9'" -- "$V" reproduce table9
# order: the JSON contract on a small explicit grid.
if "$V" order --system planar-pendulum --method galerkin:s=2,w=2 --h 0.1,0.05,0.025,0.0125 \
     --no-cache --json "$tmp/o.json" >"$tmp/o.txt" 2>&1; then
  python3 - "$tmp/o.json" <<'PY' && ok || bad "order JSON contract"
import json, sys
j = json.load(open(sys.argv[1]))
for k in ("system", "params", "method", "precision", "h", "err", "orders", "fit"):
    assert k in j, k
assert len(j["h"]) == 4 and all(len(j["err"][x]) == 4 for x in ("q", "p", "lambda"))
assert abs(j["orders"]["q"] - 4) < 0.3 and abs(j["orders"]["lambda"] - 2) < 0.3, j["orders"]
assert j["fit"]["q"]["lo"] <= j["fit"]["q"]["hi"] and j["fit"]["q"]["residual"] is not None
PY
else
  bad "order run failed: $(cat "$tmp/o.txt")"
fi

# A Newton solve that cannot converge is a failure (exit 1), not a wrong step;
# an unattainable tolerance is refused up front.
expect 2 "rtol 1e-30 is below" -- run "${P[@]}" --rtol 1e-30 --out -
expect 1 "Newton iteration did not converge.*max-iter" -- run "${P[@]}" --max-iter 1 --out "$tmp/nc.csv"

# CSV contract.
if run "${P[@]}" --out "$tmp/p.csv" && [ -f "$tmp/p.csv" ]; then
  head -1 "$tmp/p.csv" | grep -qx 't,q1,q2,p1,p2,lambda1,energy,kinetic,potential,g_norm,gv_norm' && ok || bad "planar header: $(head -1 "$tmp/p.csv")"
  [ "$(wc -l <"$tmp/p.csv")" = 12 ] && ok || bad "expected 11 nodes + header"
  # 17 significant digits in double.
  awk -F, 'NR==2 { split($2, a, "e"); d = a[1]; gsub(/[-.]/, "", d); sub(/^0+/, "", d); exit !(length(d) >= 16) }' "$tmp/p.csv" && ok || bad "double digits: $(sed -n 2p "$tmp/p.csv")"
else
  bad "planar run failed"
fi
if run --system double-pendulum-3d --method galerkin:s=2,w=2 --h 0.01 --T 0.05 --out "$tmp/d.csv"; then
  head -1 "$tmp/d.csv" | grep -qx 't,q1,q2,q3,q4,q5,q6,p1,p2,p3,p4,p5,p6,lambda1,lambda2,energy,kinetic,potential,g_norm,gv_norm,Jz' && ok || bad "double pendulum header: $(head -1 "$tmp/d.csv")"
else
  bad "double pendulum run failed"
fi

# Quad precision: 36 digits and |g(q_k)| below 1e-28 (issue 2).
if run --system double-pendulum-3d --method galerkin:s=3,w=3,quadL=gauss,r=3 --h 0.01 --T 0.2 --precision quad --out "$tmp/q.csv"; then
  # g_norm by its name in the header (its position depends on the measures before it).
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "g_norm") col = i; next } { if (!col || $col + 0 > 1e-28) { print "g_norm " $col > "/dev/stderr"; bad = 1 } } END { exit bad }' "$tmp/q.csv" && ok || bad "quad constraint residual above 1e-28"
  awk -F, 'NR==2 { split($2, a, "e"); d = a[1]; gsub(/[-.]/, "", d); sub(/^0+/, "", d); exit !(length(d) >= 33) }' "$tmp/q.csv" && ok || bad "quad digits: $(sed -n 2p "$tmp/q.csv" | cut -c1-80)"
else
  bad "quad run failed"
fi

# 17-digit initial data is projected onto the manifold in quad precision.
if run --system double-pendulum-3d --set q0=0.6,0.3,-0.8717797887081348,1.35,0.3,-0.8717797887081348,v0=0,0,0,0,0,0 \
    --method galerkin:s=2,w=2 --h 0.01 --T 0.03 --precision quad --out "$tmp/q17.csv"; then
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "g_norm") col = i; next } !col || $col + 0 > 1e-28 { bad = 1 } END { exit bad }' "$tmp/q17.csv" && ok || bad "quad g_norm from 17-digit data: $(sed -n 2p "$tmp/q17.csv" | cut -c1-120)"
else
  bad "quad run from 17-digit data failed"
fi

# check and list.
"$V" check planar-pendulum >"$tmp/c" 2>&1 && ok || { bad "check planar-pendulum"; cat "$tmp/c" >&2; }
"$V" check double-pendulum-3d --precision quad >"$tmp/c" 2>&1 && ok || { bad "check double-pendulum-3d quad"; cat "$tmp/c" >&2; }
"$V" list >"$tmp/l" 2>&1 && grep -q "planar-pendulum" "$tmp/l" && grep -q "double-pendulum-3d" "$tmp/l" \
  && grep -q "quadZ" "$tmp/l" && grep -q "phi0" "$tmp/l" && ok || bad "list lacks systems/keys"

# The degenerate form (lotka-volterra): its reference in the layout of run,
# its derivative check, methods that need the mechanical form refused.
if run --system lotka-volterra --method reference --h 0.5 --T 2 --out "$tmp/lv.csv"; then
  head -1 "$tmp/lv.csv" | grep -qx 't,q1,q2,p1,p2,energy,alpha_defect' && [ "$(wc -l <"$tmp/lv.csv")" = 6 ] \
    && ok || bad "lotka-volterra reference layout: $(head -1 "$tmp/lv.csv")"
else
  bad "lotka-volterra reference failed"
fi
"$V" check lotka-volterra >"$tmp/c" 2>&1 && grep -q "d2alpha at q0" "$tmp/c" && ok || { bad "check lotka-volterra"; cat "$tmp/c" >&2; }
expect 2 "method galerkin needs a system with the mechanical form.*lotka-volterra is degenerate" -- \
  run --system lotka-volterra --method galerkin --h 0.1 --T 1 --out -
expect 2 "method man2020 needs a system with the mechanical form" -- \
  run --system lotka-volterra --method man2020 --h 0.1 --T 1 --out -
expect 2 "parameter q0\[2\] of lotka-volterra must be > 0" -- \
  run --system lotka-volterra --set q0=1,-0.5 --method reference --h 0.1 --T 1 --out -
expect 2 "at most 10000000 nodes" -- run --system lotka-volterra --method reference --h 1e-7 --T 2 --out /dev/null

# Nonholonomic constraints: mu and phi_norm columns, inconsistent v0 refused.
if run --system nonholonomic-particle --method reference --h 0.5 --T 1 --out "$tmp/np.csv"; then
  head -1 "$tmp/np.csv" | grep -qx 't,q1,q2,q3,p1,p2,p3,mu1,energy,kinetic,potential,phi_norm,E_y' \
    && ok || bad "nonholonomic-particle reference layout: $(head -1 "$tmp/np.csv")"
else
  bad "nonholonomic-particle reference failed"
fi
# Both constraint kinds: lambda then mu, the residuals of both.
if run --system knife-edge-incline --method reference --h 0.5 --T 1 --out "$tmp/ke.csv"; then
  head -1 "$tmp/ke.csv" | grep -qx 't,q1,q2,q3,q4,p1,p2,p3,p4,lambda1,mu1,energy,kinetic,potential,g_norm,gv_norm,phi_norm,p_phi' \
    && ok || bad "knife-edge-incline reference layout: $(head -1 "$tmp/ke.csv")"
else
  bad "knife-edge-incline reference failed"
fi
"$V" check nonholonomic-particle >"$tmp/c" 2>&1 && grep -q "nonholonomic dphi_dq at q0" "$tmp/c" && ok \
  || { bad "check nonholonomic-particle"; cat "$tmp/c" >&2; }
expect 2 "inconsistent initial data.*A\\(q0\\) v0" -- run --system nonholonomic-particle \
  --set v0=1,0,0 --method reference --h 0.1 --T 1 --out -

# The Lie-group form (vertical-disc on SE(2)): layout, check, refusals.
if run --system vertical-disc --method reference --h 0.5 --T 1 --out "$tmp/vd.csv"; then
  head -1 "$tmp/vd.csv" | grep -qx 't,q1,q2,q3,p1,p2,p3,mu1,energy,phi_norm' \
    && ok || bad "vertical-disc reference layout: $(head -1 "$tmp/vd.csv")"
else
  bad "vertical-disc reference failed"
fi
"$V" check vertical-disc >"$tmp/c" 2>&1 && grep -q "group dcay at g0" "$tmp/c" && ok \
  || { bad "check vertical-disc"; cat "$tmp/c" >&2; }
expect 2 "inconsistent initial data.*xi0" -- run --system vertical-disc --set eta0=0.2,0.5,0.7 \
  --method reference --h 0.1 --T 1 --out -
expect 2 "method man2020 needs a system with the mechanical form.*vertical-disc is Lie-group" -- \
  run --system vertical-disc --method man2020 --h 0.1 --T 1 --out -

# Named schemes inside galerkin: the same trajectory as their explicit keys
# (whose special cases test_galerkin verifies against SHAKE, RATTLE and
# Lobatto IIIA-IIIB); a scheme key given twice is refused.
for pair in "shake|s=1,w=1,quadL=lobatto,r=2" "rattle|s=1,w=1,quadL=lobatto,r=2,project=p" \
            "lobatto3ab,s=3|s=3,w=2,quadL=lobatto,r=3"; do
  a="${pair%%|*}"; b="${pair##*|}"
  run --system double-pendulum-3d --method "galerkin:scheme=$a" --h 0.05 --T 0.5 --out "$tmp/sa.csv" &&
    run --system double-pendulum-3d --method "galerkin:$b" --h 0.05 --T 0.5 --out "$tmp/sb.csv" &&
    cmp -s "$tmp/sa.csv" "$tmp/sb.csv" && ok || bad "scheme=$a differs from $b"
done
expect 2 "key 'r' is set by scheme=shake" -- run --system planar-pendulum --method galerkin:scheme=shake,r=3 \
  --h 0.1 --T 1 --out -
expect 2 "scheme.*valid: shake, rattle, lobatto3ab" -- run --system planar-pendulum \
  --method galerkin:scheme=verlet --h 0.1 --T 1 --out -

# -h on every subcommand, --version, list studies, check --system.
for sub in list check run order reproduce; do
  "$V" $sub -h >"$tmp/h" 2>&1 && grep -q "usage: vistudy $sub" "$tmp/h" && ok || bad "$sub -h"
done
"$V" --version | grep -qE '^vistudy [0-9a-f]' && ok || bad "--version"
"$V" list studies | grep -q "^man2020-table3 " && ok || bad "list studies"
# list measures: the vocabulary from vi_measure_docs, each name with its
# reference; the energy's parts, the per-constraint families, and a name no
# system has is refused by run's trace with the valid ones.
"$V" list measures >"$tmp/lms" && ok || bad "list measures"
for m in "kinetic +free" "potential +free" "kinetic_v +free" "g<k> +zero" "gv<k> +zero" \
  "gvv<k> +zero" "energy +constant" "energy_v +constant" "newton_iters +free"; do
  grep -qE "^  $m " "$tmp/lms" && ok || bad "list measures lacks '$m'"
done
"$V" list measures --markdown | grep -q '^| `gv<k>` | zero |' && ok || bad "list measures --markdown"
expect 2 "valid: systems, methods, studies, measures" -- "$V" list banana
"$V" check --system lotka-volterra --precision double >"$tmp/c" 2>&1 && grep -q "dalpha at q0" "$tmp/c" \
  && ok || bad "check --system"
expect 2 "exactly one SYSTEM" -- "$V" check --system planar-pendulum six-balls

# --help points to the documentation; list --markdown prints each registry
# as Markdown (docs/systems.md, methods.md, studies-list.md are its output).
"$V" --help | grep -q "docs/README.md" && ok || bad "--help does not point to docs/"
"$V" list -h | grep -q -- "--markdown" && ok || bad "list -h lacks --markdown"
expect 2 "unknown option '--html'.*--markdown" -- "$V" list systems --html
expect 2 "too many arguments" -- "$V" list systems methods --markdown
# Every row of a Markdown table has as many cells as its header (a '|' in a
# value is escaped), and every table row names a registry entry.
md_rows() {
  awk -v what="$1" '
    /^\|/ { line = $0; gsub(/\\\|/, "", line); n = gsub(/\|/, "|", line)
             if (!inside) { cols = n; inside = 1 } else if (n != cols) { bad = 1; print what ": " $0 > "/dev/stderr" } next }
    { inside = 0 }
    END { exit bad }'
}
for what in systems methods studies; do
  if "$V" list $what --markdown >"$tmp/md_$what" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
     head -1 "$tmp/md_$what" | grep -q "Generated by .vistudy list $what --markdown" &&
     md_rows $what <"$tmp/md_$what"; then ok; else bad "list $what --markdown"; fi
done
"$V" list systems >"$tmp/ls"
"$V" list methods >"$tmp/lm"
for name in $(grep -E '^[a-z0-9-]+  \(' "$tmp/ls" | grep -v "\[test-only" | cut -d' ' -f1); do
  grep -q "^## $name\$" "$tmp/md_systems" && grep -q "^| \[\`$name\`\](#$name) |" "$tmp/md_systems" \
    && ok || bad "list systems --markdown lacks $name"
done
for name in $(grep -E '^[a-z0-9-]+  \(.*\[test-only' "$tmp/ls" | cut -d' ' -f1); do
  ! grep -q "$name" "$tmp/md_systems" && ok || bad "list systems --markdown has the test-only $name"
done
# Every family but the test-only ones (tests/families/, which the test
# configuration registers) is in the reference; those are not.
for name in $(grep -E '^[a-z0-9]+  \(' "$tmp/lm" | grep -v "\[test-only" | cut -d' ' -f1); do
  grep -q "^## $name\$" "$tmp/md_methods" && ok || bad "list methods --markdown lacks $name"
done
for name in $(grep -E '^[a-z0-9]+  \(.*\[test-only' "$tmp/lm" | cut -d' ' -f1); do
  ! grep -q "^## $name\$" "$tmp/md_methods" && ok || bad "list methods --markdown has the test-only $name"
done
for id in $("$V" list studies | cut -d' ' -f1); do
  grep -q "^| \`$id\` |" "$tmp/md_studies" && ok || bad "list studies --markdown lacks $id"
done
grep -q '^| `quadZ` | lobatto\\|gauss | lobatto |' "$tmp/md_methods" && ok || bad "methods: quadZ row"
grep -q '^- `galerkin` is `galerkin:s=2,w=2,quadL=gauss,r=2,quadZ=lobatto' "$tmp/md_methods" \
  && ok || bad "methods: canonical default spec"
grep -q '^| `phi0` | 1 | `0.9` |' "$tmp/md_systems" && ok || bad "systems: phi0 row"
grep -q '^| `order-validation` | program | `studies/validation.c` |' "$tmp/md_studies" \
  && ok || bad "studies: order-validation row"
"$V" list --markdown >"$tmp/md_all" && grep -q '^# Systems$' "$tmp/md_all" && grep -q '^# Method families$' "$tmp/md_all" \
  && ok || bad "list --markdown: systems and methods"

echo "cli: $checks checks, $fails failed"
[ "$fails" = 0 ]
