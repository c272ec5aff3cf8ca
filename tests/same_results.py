#!/usr/bin/env python3
"""same_results.py A B: the results A.json and B.json of two runs of one
study are equal but for CPU times ("seconds" keys), and so are A.csv and
B.csv but for a "seconds" column (test_jobs.sh, test_mpi.sh). Exit 0, or 1
naming the files that differ."""
import csv
import json
import sys


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k != "seconds"}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


def rows(p):
    r = list(csv.reader(open(p)))
    drop = [i for i, h in enumerate(r[0]) if h == "seconds"]
    return [[x for i, x in enumerate(row) if i not in drop] for row in r]


a, b = sys.argv[1], sys.argv[2]
if strip(json.load(open(a + ".json"))) != strip(json.load(open(b + ".json"))):
    sys.exit(f"{a}.json and {b}.json differ beyond CPU times")
if rows(a + ".csv") != rows(b + ".csv"):
    sys.exit(f"{a}.csv and {b}.csv differ beyond CPU times")
