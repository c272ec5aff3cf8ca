#!/usr/bin/env bash
# test_validation.sh: the reduced order validation (issue 12): the first
# cases of the seeded random generator (every compatible system x family,
# random parameters and initial data), each an automatic order study; no
# quantity may come out wrong (an ok fit more than 0.3 from the declared
# order), and the JSON carries the verdict, the declared and measured
# order and the command of every case. The full study (200 cases) is
# `vistudy reproduce order-validation`, results in results/.
set -u
V=${1:?usage: test_validation.sh path/to/vistudy}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
if ! "$V" reproduce order-validation --quick --results "$tmp" --no-cache >"$tmp/out" 2>&1; then
  cat "$tmp/out"
  echo "FAIL: reproduce order-validation --quick"
  exit 1
fi
cat "$tmp/out"
python3 - "$tmp/quick/order-validation.json" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
bad = []
s = j["summary"]["all"]
if s["wrong"] != 0:
    bad.append(f"{s['wrong']} wrong quantities")
if len(j["cases"]) != 10:
    bad.append(f"{len(j['cases'])} cases, expected 10")
judged = 0
for c in j["cases"]:
    if not c["command"].startswith("vistudy order --system "):
        bad.append(f"case {c['case']}: command {c['command'][:40]}")
    for q, v in c["quantities"].items():
        judged += 1
        if v["declared"] == "exact":
            # Exact conservation: right means the worst error stayed within
            # its round-off bound (the measurement is their ratio).
            if v["verdict"] == "right" and not v["measured"] <= 1:
                bad.append(f"case {c['case']} {q}: exact but {v['measured']} of the bound")
        elif v["declared"] == 0:
            # Declared 'does not converge' (VI_ORDER_NONE): right is a 'd'
            # verdict, which carries no order.
            if v["verdict"] == "right" and v["measured"] is not None:
                bad.append(f"case {c['case']} {q}: declared d, right with {v['measured']}")
        elif v["verdict"] == "right" and abs(v["measured"] - v["declared"]) > 0.3:
            bad.append(f"case {c['case']} {q}: right but {v['measured']} vs {v['declared']}")
        if v["verdict"] == "unresolved" and v["measured"] is not None:
            bad.append(f"case {c['case']} {q}: unresolved with a number")
if judged != s["right"] + s["unresolved"] + s["wrong"] or judged < 10:
    bad.append(f"{judged} judged quantities, summary {s}")
print("\n".join(bad) if bad else f"validation: {judged} quantities, {s}")
sys.exit(1 if bad else 0)
PY
# Two cases the automatic step sizes once got wrong (seed 20261123,
# docs/orders.md "Automatic step sizes" items 4 and 5), each against its
# declared order: a method failing at large steps ever later in time
# (case 5: Radau IIA s = 1 on a Kepler orbit, once unresolved), and an ok
# window whose local slopes scattered (case 89: lambda of galerkin s = 5
# Lobatto, once 5.68 for a declared 6).
auto_case() { # name quantity declared json-file args...
  local name=$1 x=$2 want=$3 out=$4
  shift 4
  if ! "$V" order "$@" --T 1 --h auto --json "$out" >"$tmp/case.out" 2>&1; then
    cat "$tmp/case.out"
    echo "FAIL: $name: order exited non-zero"
    fails=$((fails + 1))
    return
  fi
  python3 - "$out" "$x" "$want" "$name" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))
x, want, name = sys.argv[2], float(sys.argv[3]), sys.argv[4]
got = j["orders"][x]
if not isinstance(got, float) or abs(got - want) > 0.1:
    print(f"FAIL: {name}: order of {x} {got}, declared {want}")
    sys.exit(1)
print(f"{name}: order of {x} {got:.3f} (declared {want:g})")
PY
}
auto_case "case 5" q 1 "$tmp/c5.json" --system kepler --set mu=1.0502083144366396 \
  --set H0=-0.38031110307201743 --set q0=0.49722179383898774,0,0,1.2733926651274232 \
  --method vprk:tableau=radau-iia,s=1
auto_case "case 89" lambda 6 "$tmp/c89.json" --system triple-pendulum \
  --set m1=0.86957944521742314 --set m2=0.83104025570721518 --set m3=0.66347104359676112 \
  --set l=0.53584438286855063 --set gravity=1.2693775298539549 \
  --set q0=0.31230508778948141,0.27826145634983768,0.44844845126920385,1.5432924147421845 \
  --set v0=0.38548982114555042,0.26533269402928972,-0.10462748503007342,0.012945221260008218 \
  --method galerkin:s=5,w=5,quadL=lobatto,r=6 --precision quad
echo "validation: $fails failed"
exit $fails
