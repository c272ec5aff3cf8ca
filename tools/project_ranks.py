#!/usr/bin/env python3
"""tools/project_ranks.py: project the wall time of `vistudy reproduce` on R
MPI ranks from the unit costs of a run with one worker (-j 1, no MPI).

Usage: project_ranks.py --costs FILE|DIR [--costs ...] [--scaleout FILE]
                        [--ranks 1,2,8,64,512] [--md FILE] [--json FILE]

Input: cost logs in JSON Lines (a directory stands for its *.jsonl, by
name), read in the order given. Unit lines
  {"study": ID, "pool": 0, "key": K, "seconds": c, "store_seconds": s, ...}
and one end line per study and run
  {"study": ID, "wall_seconds": W, "timed": false}
Any other line is skipped. A study's set is the units logged since its
previous end line in the same file, closed by its end line; the last
complete set wins (units of an unfinished run are dropped).

Model, per study (R ranks; rank 0 coordinates, stores every result, and
also measures when R <= 2: P = R workers for R <= 2, P = R - 1 for R > 2):
  serial S = max(0, W - sum c - sum s): in the -j 1 run the stores happen
      inside the pool, so they belong to the pool, not to S (counting
      them in both would make wall(1) != W);
  pool(R) = max(LPT makespan of the c on P workers, sum s, max c), rank 0's
      worker starting with sum s of load when it measures (so pool(1) =
      sum c + sum s); pools of one study run one after another, so their
      times add up;
  wall(R) = S + pool(R); speedup = W / wall(R); efficiency = speedup / R.
Timed cells are never units (they run one at a time, in the serial part):
a timed study's units (untimed curves of a figure set, demartin2018-
chaotic's members) run in parallel like any other's. The totals: the
untimed studies, and every study (`reproduce --all`).
The bound named is the largest of S and the pools' winning terms.

Output: Markdown (to --md FILE, else stdout) and JSON (to --json FILE),
each written atomically. Exit 2 on bad usage or unreadable input.
Python standard library only.
"""
import argparse
import heapq
import json
import math
import os
import sys
import tempfile

DEFAULT_RANKS = (1, 2, 8, 64, 512)
# on a tie the more specific cause is named
BOUNDS = ("serial", "longest unit", "coordinator", "workers")
ASSUMPTION = ("rank 0 coordinates and stores every result; it measures in one "
              "thread too, counted as a worker only for R <= 2 (at scale its core goes "
              "to coordinating): P = R workers for R <= 2, P = R - 1 for R > 2; "
              "units handed out longest first (LPT)")


def num(x):
    """A finite non-negative number, else None (bools are not numbers here)."""
    if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0:
        return float(x)
    return None


def read_log(paths):
    """Per study (in the order of their last end line): {units: [(pool, c, s)],
    wall, timed (True/False/None)}; plus the count of skipped lines."""
    done, skipped = {}, 0
    for path in paths:
        pending = {}  # a set never spans files: another file is another run
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    d = json.loads(line)
                except ValueError:
                    d = None
                study = d.get("study") if isinstance(d, dict) else None
                if not isinstance(study, str):
                    skipped += bool(line.strip())
                    continue
                if "wall_seconds" in d:
                    wall = num(d["wall_seconds"])
                    if wall is None:
                        skipped += 1
                        continue
                    timed = d.get("timed") if isinstance(d.get("timed"), bool) else None
                    done.pop(study, None)  # re-inserted: keeps the run order
                    done[study] = {"units": pending.pop(study, []), "wall": wall, "timed": timed}
                elif num(d.get("seconds")) is not None:
                    pool = d.get("pool", 0)
                    pool = pool if isinstance(pool, (int, str)) else 0
                    pending.setdefault(study, []).append(
                        (pool, num(d["seconds"]), num(d.get("store_seconds")) or 0.0))
                else:
                    skipped += 1
    return done, skipped


def workers(r):
    return r if r <= 2 else r - 1


def lpt(costs, p, preload=0.0):
    """Makespan of list scheduling, longest first, onto the least-loaded of p
    workers; worker 0 starts with `preload` (rank 0's stores when it measures)."""
    heap = [(preload if i == 0 else 0.0, i) for i in range(p)]
    heapq.heapify(heap)
    for c in sorted(costs, reverse=True):
        load, i = heapq.heappop(heap)
        heapq.heappush(heap, (load + c, i))
    return max(load for load, _ in heap)


def pool_time(units, r):
    """(time, bound) of one pool of (c, s) units at r ranks."""
    cs = [c for c, _ in units]
    ss = sum(s for _, s in units)
    terms = {"longest unit": max(cs, default=0.0), "coordinator": ss,
             "workers": lpt(cs, workers(r), ss if r <= 2 else 0.0)}
    t = max(terms.values())
    return t, next(b for b in BOUNDS[1:] if terms[b] == t)


def project(units, wall, timed, ranks):
    """The per-study record: sums, serial part, and per R the projection with
    the time each bound accounts for (summed again for the total row)."""
    pools = {}
    for pool, c, s in units:
        pools.setdefault(pool, []).append((c, s))
    sc, ss = sum(u[1] for u in units), sum(u[2] for u in units)
    serial = max(0.0, wall - sc - ss)
    rec = {"units": len(units), "pools": len(pools), "sum_unit_seconds": sc,
           "longest_unit_seconds": max((u[1] for u in units), default=0.0),
           "sum_store_seconds": ss, "wall_seconds": wall, "serial_seconds": serial,
           "projected": []}
    for r in ranks:
        by = dict.fromkeys(BOUNDS, 0.0)
        by["serial"] = serial
        for members in pools.values():
            t, b = pool_time(members, r)
            by[b] += t
        rec["projected"].append(row(r, wall, by))
    return rec


def row(r, wall, by):
    w = sum(by.values())
    speed = wall / w if w > 0 else 1.0  # nothing to run: no speedup either way
    top = max(by.values())
    return {"ranks": r, "workers": workers(r), "wall_seconds": w, "speedup": speed,
            "efficiency": speed / r, "bound": next(b for b in BOUNDS if by[b] == top),
            "bound_seconds": by}


def total(recs, ranks):
    t = {"studies": len(recs), "units": sum(x["units"] for x in recs)}
    for k in ("sum_unit_seconds", "sum_store_seconds", "wall_seconds", "serial_seconds"):
        t[k] = sum(x[k] for x in recs)
    t["longest_unit_seconds"] = max((x["longest_unit_seconds"] for x in recs), default=0.0)
    t["projected"] = []
    for i, r in enumerate(ranks):
        by = {b: sum(x["projected"][i]["bound_seconds"][b] for x in recs) for b in BOUNDS}
        t["projected"].append(row(r, t["wall_seconds"], by))
    return t


def sec(x):
    return f"{x:.3f}" if x < 100 else f"{x:.0f}"


def eff(e):
    return f"{e:.2f}" if e >= 0.1 else f"{e:.2g}"


def rounded(x):
    """The JSON's numbers to 9 significant digits: no float-sum noise."""
    if isinstance(x, float):
        return float(f"{x:.9g}")
    if isinstance(x, dict):
        return {k: rounded(v) for k, v in x.items()}
    if isinstance(x, list):
        return [rounded(v) for v in x]
    return x


def markdown(doc):
    ranks = doc["ranks"]
    head = (["study", "units", "sum of units [s]", "longest unit [s]", "serial [s]"]
            + [f"wall R={r} [s]" for r in ranks] + [f"eff R={r}" for r in ranks]
            + [f"bound R={ranks[-1]}"])
    out = [f"Projected wall time of `vistudy reproduce` on R ranks, from a -j 1 cost log. "
           f"Assumption: {ASSUMPTION}. Timed cells are never units: they are in the serial "
           "part. The first total leaves the timed studies out; the second is `--all`.",
           "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def line(name, x):
        p = x["projected"]
        cells = ([name, str(x["units"]), sec(x["sum_unit_seconds"]),
                  sec(x["longest_unit_seconds"]), sec(x["serial_seconds"])]
                 + [sec(q["wall_seconds"]) for q in p] + [eff(q["efficiency"]) for q in p]
                 + [p[-1]["bound"]])
        out.append("| " + " | ".join(cells) + " |")
    for x in doc["studies"]:
        line(x["id"] + (" (timed)" if x["timed"] else ""), x)
    line(f"**total** ({doc['total']['studies']} untimed)", doc["total"])
    line(f"**total** (all {doc['total_all']['studies']})", doc["total_all"])
    return "\n".join(out) + "\n"


def write(path, text):
    """Atomically: a reader sees the old file or the new one, never a part."""
    if path == "-":
        sys.stdout.write(text)
        return
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".project_ranks.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="project_ranks.py",
        description="Project vistudy's wall time on R MPI ranks from a -j 1 cost log.")
    ap.add_argument("--costs", action="append", required=True, metavar="FILE|DIR",
                    help="cost log (JSON Lines) or a directory of *.jsonl; repeatable")
    ap.add_argument("--scaleout", metavar="FILE",
                    help="results/scaleout.json: timed flags of studies whose log lacks them")
    ap.add_argument("--ranks", default=",".join(map(str, DEFAULT_RANKS)), metavar="R,R,...",
                    help="rank counts, positive integers (default %(default)s)")
    ap.add_argument("--md", metavar="FILE", help="write the Markdown here (default stdout)")
    ap.add_argument("--json", metavar="FILE", help="write the JSON here ('-': stdout)")
    a = ap.parse_args(argv)
    try:
        ranks = sorted({int(r) for r in a.ranks.split(",")})
        if not ranks or ranks[0] < 1:
            raise ValueError
    except ValueError:
        ap.error(f"--ranks {a.ranks!r}: expected comma-separated positive integers")
    paths = []
    for c in a.costs:
        if os.path.isdir(c):
            found = sorted(os.path.join(c, n) for n in os.listdir(c) if n.endswith(".jsonl"))
            if not found:
                ap.error(f"--costs {c}: no *.jsonl in this directory")
            paths += found
        elif os.path.isfile(c):
            paths.append(c)
        else:
            ap.error(f"--costs {c}: no such file or directory")
    timed_of = {}
    if a.scaleout:
        try:
            with open(a.scaleout) as f:
                so = json.load(f)
            timed_of = {s["id"]: bool(s.get("timed")) for s in so["studies"] if "id" in s}
        except (OSError, ValueError, KeyError, TypeError) as e:
            ap.error(f"--scaleout {a.scaleout}: cannot read it ({e})")
    try:
        log, skipped = read_log(paths)
    except OSError as e:
        ap.error(f"--costs: {e}")
    if not log:
        ap.error("--costs: no complete study (no line with \"wall_seconds\") in the log")
    warnings, recs = [], []
    for sid, st in log.items():
        timed = st["timed"] if st["timed"] is not None else timed_of.get(sid, False)
        rec = {"id": sid, "timed": timed}
        rec.update(project(st["units"], st["wall"], timed, ranks))
        # W >= the units' own time on one worker: otherwise the log is not -j 1
        if rec["sum_unit_seconds"] + rec["sum_store_seconds"] > 1.01 * st["wall"] + 1e-3:
            warnings.append(f"{sid}: units take longer than the wall time: "
                            "not a -j 1 run? its serial part is taken as 0")
        recs.append(rec)
    for w in warnings:
        print(f"project_ranks: warning: {w}", file=sys.stderr)
    doc = {"ranks": ranks, "assumption": ASSUMPTION, "sources": paths,
           "skipped_lines": skipped, "warnings": warnings, "studies": recs,
           "total": total([x for x in recs if not x["timed"]], ranks),
           "total_all": total(recs, ranks)}
    write(a.md or "-", markdown(doc))
    if a.json:
        write(a.json, json.dumps(rounded(doc), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
