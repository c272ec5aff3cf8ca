#!/usr/bin/env bash
# test_resume_store.sh: every field of a stored cell is validated against
# the cell it claims to be (issue 22 item 6; docs/usage.md "Resume"). A
# reduced run leaves its cell store; each case spoils one field of one
# cell and reruns: that cell must be measured again, with a one-line note
# naming it and the reason, and the results must carry the measured
# values; the other cell, forged but valid, must be reused (not measured
# again), so that a store that is simply ignored fails too. One Python
# process drives the cases (its start-up dominates on a loaded machine).
# Usage: test_resume_store.sh PATH/TO/vistudy
. "$(dirname "$0")/lib.sh" "$1"
pub="$(dirname "$0")/../studies/published"
python3 - "$V" "$pub" "$tmp" <<'PY'
import json, os, re, shutil, subprocess, sys

V, pub, tmp = sys.argv[1:]
fails = checks = 0


def bad(msg, err=""):
    global fails
    fails += 1
    print("FAIL:", msg, file=sys.stderr)
    if err:
        print(err, file=sys.stderr)


def run(study):
    return subprocess.run([V, "reproduce", study, "--published", pub, "--results",
                           f"{tmp}/{study}", "--max-cells", "2"], capture_output=True,
                          text=True, timeout=120)


def key_of(row):
    if "algorithm" in row:
        return "man2020:alg=%s,m=%d" % (row["algorithm"], row["m"])
    return row["method"].split(",ctrl=")[0]


def spoiled(study, key, edit, pat, good):
    """Cell key of study's store spoiled by edit(cell), the other cell forged
    valid (order 3.33); the rerun must exit 0, note pat once for key, and
    good(rows of key, rows of the other cell) must hold."""
    global checks
    checks += 1
    store = f"{tmp}/{study}/quick/{study}.partial.json"
    j = json.loads(clean[study])
    other = [k for k in j["cells"] if k != key][0]
    forged = j["cells"][other]
    (forged["q"] if "q" in forged else forged["energy"]).update(order=3.33, label="3.33")
    edit(j["cells"][key])
    with open(store, "w") as f:
        json.dump(j, f)
    p = run(study)
    what = f"{study}: {pat}"
    if p.returncode != 0:
        return bad(f"{what}: exit {p.returncode} (want 0)", p.stderr)
    notes = [l for l in p.stderr.splitlines() if re.search("stored cell .* is invalid", l)]
    want = rf"stored cell {re.escape(key)} in .* is invalid \(.*{pat}.*\); recomputing it$"
    if len(notes) != 1 or not re.search(want, notes[0]):
        return bad(f"{what}: no one-line note for {key}", p.stderr)
    rows = json.load(open(f"{tmp}/{study}/quick/{study}.json"))["cells"]
    mine = [r for r in rows if key_of(r) == key]
    theirs = [r for r in rows if key_of(r) != key]
    if not (mine and theirs and good(mine, theirs)):
        bad(f"{what}: results {mine}")


clean = {}
for study in ("wenger2017-table2", "man2020-table1"):
    p = run(study)
    try:
        clean[study] = open(f"{tmp}/{study}/quick/{study}.partial.json").read()
    except OSError:
        print(f"FAIL: {study}: no cell store", p.stderr, file=sys.stderr)
        sys.exit(1)

# wenger2017-table2: s = w = 1, Lobatto r = 2 (and r = 3, forged). The cell
# as measured: its canonical method, q, p and lambda of order 2 matched in
# double, projected labels; the forged cell's q reused.
K = "galerkin:s=1,w=1,quadL=lobatto,r=2,quadZ=lobatto"


def wg_good(mine, theirs):
    return (mine[0]["method"] == K + ",ctrl=lobatto,project=none,lambda=node" and
            all(1.5 < r["measured"] < 2.5 and r["match"] and r["precision"] == "double" and
                re.fullmatch(r"\d+\.\d\d|d|plateau|unresolved|-", r["projected"])
                for r in mine) and
            any(r["quantity"] == "q" and r["measured"] == 3.33 for r in theirs))


def set_(path, value):
    def edit(c):
        d = c
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return edit


W = "wenger2017-table2"
spoiled(W, K, lambda c: c["q"].update(order=1.2e10, label="12000000000.00"),
        r"order 1\.2e\+10 out of range", wg_good)
spoiled(W, K, set_(["method"], "galerkin:s=2,w=2,quadL=lobatto,r=3,quadZ=lobatto,"
                   "ctrl=lobatto,project=none,lambda=node"),
        r"method 'galerkin:s=2,w=2.* is not this cell's", wg_good)
spoiled(W, K, set_(["method"], "banana"), r"method 'banana'", wg_good)
spoiled(W, K, set_(["projected", "q"], "banana"), r"projected q 'banana' is not a fit's label",
        wg_good)
spoiled(W, K, lambda c: c["h"].__setitem__(0, -1), r"h \[-1, .*\] is not a range of steps",
        wg_good)
spoiled(W, K, lambda c: c["h"].__setitem__(0, 1e300),
        r"h \[1e\+300, .*\] is not a range of steps", wg_good)
spoiled(W, K, lambda c: c["p"].update(residual=-1), r"fit residual -1 out of range", wg_good)
spoiled(W, K, set_(["precision"], "quad"), r"in quad precision is not this cell's", wg_good)

# man2020-table1: EGG m = 3 (and m = 2, forged): the fit's range and the
# maximum's label.
M = "man2020-table1"
K = "man2020:alg=EGG,m=3"


def man_good(mine, theirs):
    r = mine[0]
    return (3.5 < r["measured"] < 4.5 and r["match"] and r["fit_h"][0] > r["fit_h"][1] > 0 and
            r["fit_points"] >= 2 and r["measured_max"] != "banana" and
            theirs[0]["measured"] == 3.33)


spoiled(M, K, lambda c: c["energy"].update(order=1.2e10, label="12000000000.00"),
        r"order 1\.2e\+10 out of range", man_good)
spoiled(M, K, lambda c: c["fit_h"].__setitem__(0, -1), r"fit_h \[-1, .* is not the range of a fit",
        man_good)
spoiled(M, K, set_(["fit_points"], 0), r"fit_points 0 is not the range of a fit", man_good)
spoiled(M, K, set_(["seconds"], -5), r"seconds -5 is not a time", man_good)
spoiled(M, K, set_(["energy_max"], "banana"), r"energy_max 'banana' is not a fit's label",
        man_good)

print(f"resume store: {checks} checks, {fails} failed")
sys.exit(1 if fails else 0)
PY
