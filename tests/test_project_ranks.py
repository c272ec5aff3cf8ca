#!/usr/bin/env python3
"""test_project_ranks.py: tools/project_ranks.py on synthetic cost logs.

Usage: test_project_ranks.py [SOURCE_ROOT]   (default: this file's ../)

(a) LPT against the optimum found by brute force on small random cases
    (within Graham's 4/3 - 1/(3P), equal where LPT is known exact), and the
    CLI's projected pool time equal to that LPT;
(b) the bounds: one huge unit, huge stores, serial;
(c) timed studies: flag from the log or --scaleout, units in parallel, totals;
(d) malformed lines skipped, last complete set of a study used;
(e) the CLI writes both files, exits 2 on bad usage.
Prints every check and ends with "project_ranks: N checks, N failed".
"""
import atexit
import importlib.util
import itertools
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
script = os.path.join(root, "tools", "project_ranks.py")
sys.dont_write_bytecode = True  # no tools/__pycache__ left in the tree
spec = importlib.util.spec_from_file_location("project_ranks", script)
pr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pr)
checks = fails = 0
tmp = tempfile.mkdtemp(prefix="test_project_ranks.")
atexit.register(shutil.rmtree, tmp, True)


def check(ok, msg):
    global checks, fails
    checks += 1
    fails += not ok
    print(("ok   " if ok else "FAIL ") + msg)


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def log(name, lines):
    """A cost log of dicts (written as JSON) and raw strings (as they are)."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        for x in lines:
            f.write((x if isinstance(x, str) else json.dumps(x)) + "\n")
    return path


def units(study, costs, stores=None, pool=0):
    return [{"study": study, "pool": pool, "key": f"u{i}", "seconds": c,
             "store_seconds": (stores or [0.0] * len(costs))[i], "rank": 0}
            for i, c in enumerate(costs)]


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def project(*args):
    """The JSON document of a CLI run; its studies by id."""
    out = os.path.join(tmp, "out.json")
    p = run(*args, "--json", out, "--md", os.path.join(tmp, "out.md"))
    if p.returncode != 0:
        raise SystemExit(f"project_ranks failed: {p.stderr}")
    with open(out) as f:
        doc = json.load(f)
    return doc, {x["id"]: x for x in doc["studies"]}


def opt(costs, p):
    """Optimal makespan, by every assignment of the units to p workers."""
    best = math.inf
    for a in itertools.product(range(p), repeat=len(costs)):
        loads = [0.0] * p
        for c, w in zip(costs, a):
            loads[w] += c
        best = min(best, max(loads))
    return best


# (a) LPT against the optimum
rng = random.Random(20240611)
worst, cases = 1.0, []
for k in range(300):
    p, n = rng.randint(1, 3), rng.randint(1, 8)
    costs = [round(rng.uniform(0.01, 1.0), 3) for _ in range(n)]
    got, best = pr.lpt(costs, p), opt(costs, p)
    worst = max(worst, got / best)
    if not best - 1e-12 <= got <= (4 / 3 - 1 / (3 * p)) * best + 1e-12:
        check(False, f"LPT {got} vs optimum {best} on {costs}, P={p}")
    cases.append((costs, p, got))
check(worst <= 4 / 3, f"LPT within 4/3 - 1/(3P) of the optimum on 300 random cases "
      f"(worst ratio {worst:.4f})")
exact = all(pr.lpt([0.5] * n, p) == opt([0.5] * n, p) == 0.5 * math.ceil(n / p)
            for n in range(1, 8) for p in (1, 2, 3))
check(exact, "LPT optimal on equal costs (ceil(n/P) units)")
exact = [close(pr.lpt(c, p), opt(c, p)) for c, p, _ in cases if len(c) <= p or p == 1]
exact = len(exact) > 20 and all(exact)
check(exact, "LPT optimal when n <= P (the longest unit) and when P = 1 (the sum)")
# The CLI's pool time is that LPT: no serial part, no stores, R=2 -> 2 workers, R=4 -> 3.
pick = [c for c in cases if len(c[0]) >= 4][:10]
lines = []
for i, (costs, _, _) in enumerate(pick):
    lines += units(f"s{i}", costs) + [{"study": f"s{i}", "wall_seconds": sum(costs)}]
doc, by = project("--costs", log("a.jsonl", lines), "--ranks", "1,2,4")
ok = all(close(by[f"s{i}"]["projected"][1]["wall_seconds"], pr.lpt(c, 2)) and
         close(by[f"s{i}"]["projected"][2]["wall_seconds"], pr.lpt(c, 3))
         for i, (c, _, _) in enumerate(pick))
check(ok, "CLI: projected wall at R=2 and R=4 = LPT on 2 and 3 workers when S = 0")
check(all(close(x["projected"][0]["wall_seconds"], x["wall_seconds"]) for x in by.values()),
      "CLI: projected wall at R=1 = the measured wall")
check([x["workers"] for x in doc["total"]["projected"]] == [1, 2, 3],
      "CLI: P = R for R <= 2, P = R - 1 beyond")

# (b) the bounds
huge = [100.0] + [0.5] * 20
stores = [5.0] * 10
lines = (units("huge", huge) + [{"study": "huge", "wall_seconds": 2.0 + sum(huge)}]
         + units("store", [0.01] * 10, stores)
         + [{"study": "store", "wall_seconds": 1.0 + 0.1 + sum(stores)}]
         + units("flat", [0.01] * 10) + [{"study": "flat", "wall_seconds": 3.0}])
doc, by = project("--costs", log("b.jsonl", lines))
p = by["huge"]["projected"]
check(all(close(q["wall_seconds"], 2.0 + 100.0) for q in p if q["ranks"] >= 2),
      "one huge unit: wall = serial + that unit at every R >= 2")
check(all(q["bound"] == "longest unit" for q in p if q["ranks"] >= 2),
      "one huge unit: bound 'longest unit' at every R >= 2")
p = by["store"]["projected"]
check(close(by["store"]["serial_seconds"], 1.0),
      "huge stores: they are pool time, not serial (S = W - sum c - sum s)")
check(p[-1]["bound"] == "coordinator" and close(p[-1]["wall_seconds"], 1.0 + 50.0),
      "huge stores: bound 'coordinator', wall = serial + sum of stores at R=512")
check(close(p[0]["wall_seconds"], by["store"]["wall_seconds"]),
      "huge stores: wall at R=1 = measured wall (stores counted once)")
check(by["flat"]["projected"][-1]["bound"] == "serial", "small units: bound 'serial'")
t = doc["total"]
check(close(t["wall_seconds"], sum(x["wall_seconds"] for x in by.values())) and
      all(close(q["wall_seconds"], sum(x["projected"][i]["wall_seconds"] for x in by.values()))
          for i, q in enumerate(t["projected"])),
      "total row: sums of the studies' walls, measured and projected")
lines = (units("two", [1.0, 1.0]) + units("two", [1.0, 1.0], pool=1)
         + [{"study": "two", "wall_seconds": 4.0}])
_, by = project("--costs", log("b2.jsonl", lines), "--ranks", "8")
check(close(by["two"]["projected"][0]["wall_seconds"], 2.0) and by["two"]["pools"] == 2,
      "two pools of one study run one after another (2 x 1 s at R=8)")

# (c) timed studies
lines = (units("t1", [1.0, 1.0]) + [{"study": "t1", "wall_seconds": 3.0, "timed": True}]
         + units("t2", [1.0, 1.0]) + [{"study": "t2", "wall_seconds": 3.0}]
         + units("t3", [1.0, 1.0]) + [{"study": "t3", "wall_seconds": 3.0, "timed": False}]
         + units("u", [1.0, 1.0]) + [{"study": "u", "wall_seconds": 3.0}])
so = os.path.join(tmp, "scaleout.json")
with open(so, "w") as f:
    json.dump({"studies": [{"id": "t2", "timed": True, "wall_j1": 3, "wall_j2": 3},
                           {"id": "t3", "timed": True}]}, f)
doc, by = project("--costs", log("c.jsonl", lines), "--scaleout", so)
# A timed study's units are untimed ones (its timed cells are in the serial
# part): they run in parallel like any other study's.
check(all(close(by[s]["projected"][1]["wall_seconds"], 2.0) for s in ("t1", "t2"))
      and by["t1"]["timed"] and by["t2"]["timed"] and close(by["t1"]["serial_seconds"], 1.0),
      "timed study (flag in the log, or from --scaleout): its units in parallel, "
      "the rest serial")
check(not by["t3"]["timed"], "the log's timed flag wins over --scaleout's")
check(doc["total"]["studies"] == 2 and close(doc["total"]["wall_seconds"], 6.0),
      "timed studies left out of the untimed total")
check(doc["total_all"]["studies"] == 4 and close(doc["total_all"]["wall_seconds"], 12.0),
      "every study in the total of --all")

# (d) malformed lines
lines = (units("m", [9.0]) + [{"study": "m", "wall_seconds": 10.0}]  # an older run
         + ["", "not json", "[1, 2]", "42", "null", '{"key": "x", "seconds": 1}',
            '{"study": 5, "seconds": 1}', '{"study": "m", "seconds": "1"}',
            '{"study": "m", "seconds": -1}', '{"study": "m", "seconds": NaN}',
            '{"study": "m", "seconds": true}', '{"study": "m", "wall_seconds": "x"}',
            '{"study": "m", "other": 1}']
         + units("m", [1.0, 2.0]) + ['{"study": "m", "pool": 0, "seconds": 1.0, "store_s']
         + [{"study": "m", "wall_seconds": 4.0, "timed": "no"}]
         + units("m", [7.0]))  # a run cut short: never complete
doc, by = project("--costs", log("d.jsonl", lines))
m = by["m"]
check(m["units"] == 2 and close(m["sum_unit_seconds"], 3.0) and close(m["wall_seconds"], 4.0),
      "malformed lines skipped; the last complete set used, an unfinished run dropped")
check(doc["skipped_lines"] == 13 and not m["timed"],
      f"skipped lines counted ({doc['skipped_lines']}), a non-bool timed ignored")

# (e) the CLI
d = os.path.join(tmp, "logs")
os.mkdir(d)
log("logs/1.jsonl", units("x", [1.0, 2.0, 3.0]) + [{"study": "x", "wall_seconds": 7.0}])
md, js = os.path.join(tmp, "e.md"), os.path.join(tmp, "e.json")
p = run("--costs", d, "--ranks", "2,8", "--md", md, "--json", js)
with open(md) as f:
    text = f.read()
with open(js) as f:
    doc = json.load(f)
check(p.returncode == 0 and p.stdout == "", "CLI: exit 0, nothing on stdout with --md")
check("| x | 3 |" in text and "bound R=8" in text and "P = R - 1" in text,
      "CLI: the Markdown has the study row, the bound column and the assumption")
check(doc["ranks"] == [2, 8] and doc["studies"][0]["id"] == "x",
      "CLI: the JSON has the ranks and the study (a directory of *.jsonl read)")
check(not [n for n in os.listdir(tmp) if n.startswith(".project_ranks.")],
      "CLI: no temporary file left beside the outputs")
p = run("--costs", d)
check(p.returncode == 0 and "| x |" in p.stdout, "CLI: Markdown to stdout by default")
for bad in ("0", "x", "", "2,-1", "1.5"):
    p = run("--costs", d, "--ranks", bad)
    check(p.returncode == 2 and "--ranks" in p.stderr and "--costs" in p.stderr
          and "--json" in p.stderr, f"CLI: --ranks {bad!r} -> exit 2, the options listed")
p = run("--costs", os.path.join(tmp, "missing.jsonl"))
check(p.returncode == 2 and "missing.jsonl" in p.stderr, "CLI: missing cost log -> exit 2")
p = run()
check(p.returncode == 2 and "--costs" in p.stderr, "CLI: no --costs -> exit 2")

print(f"project_ranks: {checks} checks, {fails} failed")
sys.exit(1 if fails else 0)
