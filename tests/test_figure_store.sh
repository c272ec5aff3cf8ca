#!/usr/bin/env bash
# test_figure_store.sh: every field of a figure's stored curve is validated
# against the curve it claims to be (issue 22 item 6; docs/usage.md
# "Resume"). A full run of wenger2017-fig2 (two traces with close-ups, a
# few seconds) stores each finished curve in ID.partial.json and removes
# the store when it finishes: the store is copied while the run writes it.
# Each case spoils one field of the first curve and forges a harmless valid
# change (its I(0)) into the second, then reruns: the first curve must be
# computed again, with the one-line note naming it and the reason, and the
# results must carry what the clean store held for it; the second must be
# reused (its forged I(0) in the results), so a store that is simply
# ignored fails too. The fit of a convergence curve and the event of a
# breakdown are checked on the runner's own kinds in test_figkinds.c.
# Usage: test_figure_store.sh PATH/TO/vistudy
. "$(dirname "$0")/lib.sh" "$1"
python3 - "$V" "$tmp" <<'PY'
import copy, json, os, re, subprocess, sys, time

V, tmp = sys.argv[1:]
ID = "wenger2017-fig2"
fails = checks = 0


def bad(msg, err=""):
    global fails
    fails += 1
    print("FAIL:", msg, file=sys.stderr)
    if err:
        print(err, file=sys.stderr)


# The store as the full run writes it: both curves, copied before the run
# finishes and removes it.
base = f"{tmp}/base"
os.makedirs(base)
store = f"{base}/{ID}.partial.json"
p = subprocess.Popen([V, "reproduce", ID, "--results", base, "--no-progress"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
clean = None
t0 = time.time()
while clean is None and time.time() - t0 < 120:
    try:
        j = json.load(open(store))
        if len(j["cells"]) == 2:
            clean = j
    except (OSError, ValueError):
        pass
    if clean is None:
        if p.poll() is not None:
            break
        time.sleep(0.01)
err = p.communicate(timeout=120)[1]
if clean is None:
    print(f"FAIL: {ID}: no store with both curves seen (exit {p.returncode})", err,
          file=sys.stderr)
    sys.exit(1)
labels = [c["series"]["label"] for c in clean["cells"].values()]
spoil_label = [l for l in labels if "h=0.1" in l][0]  # the cheap curve
other_label = [l for l in labels if l != spoil_label][0]
FORGED_I0 = -1.2345678


def same(a, b):
    keys = ("label", "method", "h", "columns", "rows", "status", "extra")
    return all(a.get(k) == b.get(k) for k in keys)


def case(name, edit, pat):
    """The first curve's series spoiled by edit(cell), the other forged."""
    global checks
    checks += 1
    d = f"{tmp}/{name}"
    os.makedirs(d)
    j = copy.deepcopy(clean)
    j["cells"][other_label]["series"]["extra"][0] = FORGED_I0
    edit(j["cells"][spoil_label])
    with open(f"{d}/{ID}.partial.json", "w") as f:
        json.dump(j, f)
    r = subprocess.run([V, "reproduce", ID, "--results", d, "--no-progress"],
                       capture_output=True, text=True, timeout=120)
    what = f"{name}"
    if r.returncode != 0:
        return bad(f"{what}: exit {r.returncode} (want 0)", r.stderr)
    notes = [l for l in r.stderr.splitlines() if "is invalid" in l]
    want = (rf"stored curve '{re.escape(spoil_label)}' in .* is invalid \(.*{pat}.*\); "
            r"recomputing it$")
    if pat is None:
        if notes:
            bad(f"{what}: a valid store refused", r.stderr)
    elif len(notes) != 1 or not re.search(want, notes[0]):
        return bad(f"{what}: no one-line note for the spoiled curve", r.stderr)
    else:
        print(f"{name}: {notes[0]}")
    res = {s["label"]: s for s in json.load(open(f"{d}/{ID}.json"))["series"]}
    mine, zoom = res.get(spoil_label), [s for l, s in res.items()
                                        if l.startswith(spoil_label + ", every step")]
    if pat is not None and not (mine and same(mine, clean["cells"][spoil_label]["series"])
                                and zoom and same(zoom[0], clean["cells"][spoil_label]["zoom"])):
        bad(f"{what}: the recomputed curve differs from the clean store's")
    theirs = res.get(other_label)
    if not (theirs and theirs["extra"][0] == FORGED_I0):
        bad(f"{what}: the valid curve was not reused")
    if re.search(r"event: .* at t = ", r.stdout):
        bad(f"{what}: an event in the results", r.stdout)


def setp(*path_val):
    """edit: set cell[path...] = value."""
    *path, val = path_val

    def edit(cell):
        x = cell
        for k in path[:-1]:
            x = x[k]
        x[path[-1]] = val
    return edit


case("valid", lambda c: None, None)
case("method", setp("series", "method", "galerkin:s=5,w=4,quadL=gauss,r=4"), "method")
case("method-zoom", setp("zoom", "method", "banana"), "method")
case("h-negative", setp("series", "h", -1), "h = -1")
case("h-huge", setp("series", "h", 1e300), "h = 1e\\+300")
case("t-negative", lambda c: c["series"]["rows"][0].__setitem__(0, -1), "outside")
case("t-after-T", lambda c: c["series"]["rows"][-1].__setitem__(0, 2000), "outside")
case("t-zoom", lambda c: c["zoom"]["rows"][-1].__setitem__(0, 50), "outside")
case("t-order", lambda c: c["series"]["rows"].reverse(), "increase")
case("status-99", setp("series", "status_code", 99), "status_code 99")
case("status-fail", setp("series", "status_code", -3), "not a finished")
case("order", setp("series", "fit", {"order": 1.2e10, "uncertainty": 0.01, "lo": 0, "hi": 3,
                                     "ok": True, "reason": "ok", "precision": "double"}), "fit")
case("event", setp("series", "event", {"t": -1, "what": "|H - H(0)| > 1"}), "event")
case("extra", setp("series", "extra", [0, -5, 0, 0]), "extra")
case("unknown-key", setp("series", "projected", "banana"), "unknown key")
print(f"{checks - fails}/{checks} stored-curve cases passed")
sys.exit(1 if fails else 0)
PY
