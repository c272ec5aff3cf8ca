#!/usr/bin/env python3
"""results_page.py: the results page (results/index.html, and
results/README.md for reading on a code host) and the overall summary that
tools/run ends with (issue 27).

    tools/results_page.py [--vistudy build/vistudy] [--results results]
                          [--out DIR] [--costs FILE] [--summary]

Every study of `vistudy reproduce --list`, in that order, with one line
read from its JSON (matched N/M cells, claims held N/M with those that do
not, the order validation's verdicts, speedups), a verdict, its time (from
the cost log of the run, --costs), its figures inline and links to its
md/csv/json and figure files; the machine and the commit the results were
computed at, and the benchmark trend (tools/bench-trend). Nothing is
computed here: every number comes from a study's JSON or the cost log.

--out DIR writes the pages there (default: the results directory) with
links relative to it; --check writes nothing and exits 1 when the pages
there are not those of the results (a stale committed page); --summary prints the overall summary (one line per
study) to stdout and the page's path. Exit 1 when a study has no JSON.
"""
import argparse
import glob
import html
import json
import os
import subprocess
import sys

FIGURE_EXT = (".png", ".svg", ".pdf")
DATA_EXT = (".md", ".csv", ".json")


def studies(vistudy):
    """[(id, title, timed)] from `vistudy reproduce --list`."""
    try:
        p = subprocess.run([vistudy, "reproduce", "--list"], capture_output=True, text=True)
    except OSError as err:
        print(f"results_page.py: cannot run {vistudy} ({err.strerror}); give the program "
              "with --vistudy PATH (default build/vistudy)", file=sys.stderr)
        sys.exit(2)
    if p.returncode != 0:
        print(f"results_page.py: {vistudy} reproduce --list failed: {p.stderr.strip()}",
              file=sys.stderr)
        sys.exit(1)
    out = []
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        sid, title = (line.split(None, 1) + [""])[:2]
        timed = title.endswith("[timed]")
        out.append((sid, title.removesuffix("[timed]").strip(), timed))
    return out


def owner(name, ids):
    """The study a results file NAME.ext belongs to: NAME is its id or starts
    with its id and '-' (a figure set's figures); the longest id wins."""
    best = None
    for sid in ids:
        if (name == sid or name.startswith(sid + "-")) and (best is None or len(sid) > len(best)):
            best = sid
    return best


def claims_of(o):
    """The claim records ({"claim", "measured", "holds"}) a study counts in
    claims_held / claims_total: its top-level "claims", each figure's of a
    figure set and those across the set's figures (not the details some
    runners keep beside them, "claims_detail")."""
    found = list(o.get("claims") or [])
    for f in o.get("figures") or []:
        if isinstance(f, dict):
            found += f.get("claims") or []
    across = o.get("across")
    if isinstance(across, dict):
        found += across.get("claims") or []
    elif isinstance(across, list):
        found += [c for c in across if isinstance(c, dict) and "claim" in c]
    return [c for c in found if isinstance(c, dict) and "claim" in c]


def summarise(sid, o):
    """(verdict, line, problems) of one study's JSON. verdict: 'ok' (every
    cell matched, every claim held, no order wrong), 'differs', or 'measured'
    (nothing to compare with: work-precision data)."""
    parts, problems = [], []
    verdict = "measured"
    # Each check can only lower the verdict: ok needs something compared
    # (a cell, a claim, an order) and nothing that did not hold.
    if "matched" in o and "total" in o:
        parts.append(f"matched {o['matched']}/{o['total']} cells")
        if o["matched"] != o["total"]:
            verdict = "differs"
            problems.append(f"{o['total'] - o['matched']} cells differ from the published ones")
        elif o["total"] > 0:
            verdict = "ok"
        else:
            problems.append("no cell was compared")
    if "claims_total" in o and o["claims_total"]:
        held, total = o.get("claims_held", 0), o["claims_total"]
        parts.append(f"claims held {held}/{total}")
        claims = claims_of(o)
        if len(claims) != total:
            problems.append(f"the JSON holds {len(claims)} claim records for "
                            f"claims_total = {total}")
        if held == total:
            verdict = "ok" if verdict != "differs" else verdict
        else:
            verdict = "differs"
            for c in claims:
                if c.get("holds") is False:
                    problems.append(f"does not hold: {c['claim']}"
                                    + (f" (measured: {c['measured']})" if c.get("measured") else ""))
    s = o.get("summary")
    if isinstance(s, dict) and "all" in s:
        a = s["all"]
        parts.append(f"orders: {a['right']} right, {a['unresolved']} unresolved, {a['wrong']} wrong")
        if a["wrong"]:
            verdict = "differs"
        elif verdict == "measured" and a["right"] > 0:
            verdict = "ok"
        if a["wrong"]:
            problems.append(f"{a['wrong']} declared orders measured wrong (see the study's md)")
    sp = o.get("speedup")
    if isinstance(sp, dict):
        vals = [f"{v:.1f}x at {k}" for k, v in sp.items() if isinstance(v, (int, float))]
        if vals:
            parts.append("speedup " + ", ".join(vals))
    wins = [w for w in o.get("where_each_wins") or []
            if isinstance(w, dict) and isinstance(w.get("rk8pd_over_vprk"), (int, float))]
    if wins:
        parts.append("time rk8pd/VPRK " + ", ".join(
            # a time that is an upper bound makes the ratio a bound
            (">= " if w.get("vprk_upper_bound") else "<= " if w.get("rk8pd_upper_bound") else "")
            + f"{w['rk8pd_over_vprk']:.2f} at {w['level']:g}" for w in wins)
            + " (above 1: VPRK faster)")
    if o.get("quick"):
        parts.append("quick (reduced) run")
    return verdict, "; ".join(parts) if parts else "data only", problems


def costs(path):
    """{study: (wall seconds, version)} from a `vistudy reproduce --costs` log
    (its study lines; the last one of a study wins, as in a resumed run)."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    for line in open(path):
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "study" in r and "wall_seconds" in r:
            out[r["study"]] = (r["wall_seconds"], r.get("version"))
    return out


def machine_block(o):
    """A study's machine block ({} when its JSON has none: tables)."""
    m = o.get("machine") if isinstance(o, dict) else None
    return m if isinstance(m, dict) else {}


def machine_of(objs):
    """The machine blocks of the studies: {line: [study ids]}."""
    out = {}
    for sid, o in objs.items():
        line = machine_block(o).get("line")
        if line:
            out.setdefault(line, []).append(sid)
    return out


def versions_of(objs, logged):
    """{version: [study ids]}: the vistudy version (git describe) of each
    study, from its machine block, else from the run's cost log (tables
    have no machine block), else "not recorded"."""
    out = {}
    for sid, o in objs.items():
        v = machine_block(o).get("version") or logged.get(sid) or "not recorded"
        out.setdefault(v, []).append(sid)
    return out


def fmt_time(s):
    if s is None:
        return ""
    return f"{s:.0f} s" if s >= 10 else f"{s:.1f} s"


def build(args):
    res = os.path.abspath(args.results)
    out_dir = os.path.abspath(args.out or res)
    ids = studies(args.vistudy)
    idset = [i for i, _, _ in ids]
    files = {}
    for f in sorted(os.listdir(res)):
        path = os.path.join(res, f)
        if not os.path.isfile(path):
            continue
        # a resumable study's partial results and atomic writes' temporary
        # files are not results (.gitignore)
        if f.endswith(".partial.json") or ".tmp" in f:
            continue
        name, ext = os.path.splitext(f)
        sid = owner(name, idset)
        if sid:
            files.setdefault(sid, []).append(f)
    # Results that belong to no study (the scale-out measurement, the
    # benchmarks' summaries): linked under "Other results".
    others = sorted(f for f in os.listdir(res) if f.endswith(".md") and f != "README.md"
                    and not owner(os.path.splitext(f)[0], idset))
    others += sorted(os.path.join("bench", f) for f in os.listdir(os.path.join(res, "bench"))
                     if f.endswith(".md")) if os.path.isdir(os.path.join(res, "bench")) else []
    objs, rows = {}, []
    logged = costs(args.costs)
    wall = {sid: w for sid, (w, _) in logged.items()}
    versions = {sid: v for sid, (_, v) in logged.items() if v}
    missing = 0
    for sid, title, timed in ids:
        jpath = os.path.join(res, sid + ".json")
        why = None
        try:
            o = json.load(open(jpath))
        except OSError:
            o, why = None, f"{os.path.basename(jpath)} not found"
        except json.JSONDecodeError as err:
            o, why = None, f"{os.path.basename(jpath)} is not valid JSON: {err}"
        objs[sid] = o
        if o is None:
            missing += 1
            rows.append(dict(id=sid, title=title, timed=timed, verdict="missing",
                             line=f"no results ({why})",
                             problems=[], time=wall.get(sid), files=files.get(sid, [])))
            continue
        verdict, line, problems = summarise(sid, o)
        rows.append(dict(id=sid, title=title, timed=timed, verdict=verdict, line=line,
                         problems=problems, time=wall.get(sid), files=files.get(sid, [])))
    return res, out_dir, rows, objs, missing, others, versions


def rel(out_dir, res, f):
    return os.path.relpath(os.path.join(res, f), out_dir)


def figures(row):
    """The figures of a study: the names (without extension) with a .png."""
    return sorted({os.path.splitext(f)[0] for f in row["files"] if f.endswith(".png")})


def write_html(out_dir, res, rows, objs, trend, others, logged):
    versions = versions_of(objs, logged)
    machines = machine_of(objs)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("ok", "differs", "measured", "missing")}
    e = html.escape
    h = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
         "<title>vistudy results</title>",
         '<meta name="viewport" content="width=device-width, initial-scale=1">',
         "<style>",
         "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;"
         "line-height:1.4;color:#222}",
         "table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;"
         "padding:.3em .5em;text-align:left;vertical-align:top}",
         ".ok{color:#176117}.differs{color:#9a3b00}.measured{color:#444}.missing{color:#b00}",
         ".v{font-weight:bold;white-space:nowrap}figure{display:inline-block;margin:.5em;"
         "max-width:48%}figure img{max-width:100%;border:1px solid #eee}",
         "figcaption{font-size:.85em}section{border-top:2px solid #ccc;margin-top:1.5em}",
         "code{font-size:.9em}.small{font-size:.85em;color:#555}",
         "</style></head><body>",
         "<h1>vistudy results</h1>",
         f"<p>{len(rows)} studies: {counts['ok']} agree with the paper or its claims, "
         f"{counts['differs']} differ somewhere (listed under each), {counts['measured']} "
         f"are measurements without published values"
         + (f", {counts['missing']} have no results" if counts["missing"] else "") + ". "
         "Every number on this page is read from the studies' JSON files, which "
         "<code>tools/run</code> regenerates; how to read each study: "
         f'<a href="{e(os.path.relpath(os.path.join(res, "..", "docs", "studies.md"), out_dir))}">'
         "docs/studies.md</a>.</p>"]
    h.append("<h2>Computed at</h2><ul>")
    for v, sids in sorted(versions.items(), key=lambda kv: -len(kv[1])):
        dirty = " (from a tree with uncommitted changes)" if v.endswith("-dirty") else ""
        name = "no commit recorded" if v == "not recorded" else f"commit <code>{e(v)}</code>"
        h.append(f"<li>{name}{dirty}: {len(sids)} studies"
                 + ("" if len(versions) == 1 else f" ({e(', '.join(sids))})") + "</li>")
    h.append("</ul><p class=\"small\">Machines: "
             + "; ".join(f"{e(m)} ({len(s)} studies)" for m, s in machines.items())
             + ". A study's commit is its machine block's, else the one the run's cost "
             "log records for it.</p>")
    h.append("<h2>Studies</h2><table><tr><th>study</th><th>verdict</th><th>summary</th>"
             "<th>wall time of the run</th></tr>")
    for r in rows:
        h.append(f'<tr><td><a href="#{e(r["id"])}">{e(r["id"])}</a></td>'
                 f'<td class="v {r["verdict"]}">{r["verdict"]}</td><td>{e(r["line"])}</td>'
                 f"<td>{fmt_time(r['time'])}</td></tr>")
    h.append("</table>")
    if trend:
        h.append('<h2 id="bench-trend">Performance over time</h2>')
        h.append(f"<p>{e(trend['caption'])}</p>")
        h.append(f'<figure style="max-width:100%"><img src="{e(rel(out_dir, res, trend["png"]))}" '
                 f'alt="benchmark trend"><figcaption><a href="{e(rel(out_dir, res, trend["md"]))}">'
                 "the table</a></figcaption></figure>")
    if others:
        h.append("<h2>Other results</h2><p>" + " · ".join(
            f'<a href="{e(rel(out_dir, res, f))}">{e(f)}</a>' for f in others) + "</p>")
    for r in rows:
        h.append(f'<section id="{e(r["id"])}"><h2>{e(r["id"])}</h2>')
        h.append(f"<p>{e(r['title'])}{' (timed)' if r['timed'] else ''}</p>")
        h.append(f'<p><span class="v {r["verdict"]}">{r["verdict"]}</span>: {e(r["line"])}'
                 + (f"; {fmt_time(r['time'])}" if r["time"] is not None else "") + "</p>")
        if r["problems"]:
            h.append("<ul>" + "".join(f"<li>{e(p)}</li>" for p in r["problems"]) + "</ul>")
        links = [f for f in r["files"] if f.endswith(DATA_EXT)]
        if links:
            h.append("<p>" + " · ".join(f'<a href="{e(rel(out_dir, res, f))}">{e(f)}</a>'
                                        for f in links) + "</p>")
        for fig in figures(r):
            alts = " · ".join(f'<a href="{e(rel(out_dir, res, fig + x))}">{x[1:]}</a>'
                              for x in FIGURE_EXT if fig + x in r["files"])
            h.append(f'<figure><a href="{e(rel(out_dir, res, fig + ".png"))}">'
                     f'<img src="{e(rel(out_dir, res, fig + ".png"))}" alt="{e(fig)}" '
                     f'loading="lazy"></a><figcaption>{e(fig)}: {alts}</figcaption></figure>')
        h.append("</section>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"


def write_md(out_dir, res, rows, objs, trend, others, logged):
    versions = versions_of(objs, logged)
    L = ["# vistudy results", "",
         "Generated by `tools/results_page.py` (run by `tools/run`) from the studies' JSON; "
         "the same as [index.html](index.html). How to read each study: "
         f"[docs/studies.md]({os.path.relpath(os.path.join(res, '..', 'docs', 'studies.md'), out_dir)}).",
         "", "Computed at: " + "; ".join(("no commit recorded" if v == "not recorded" else f"`{v}`")
                                         + f" ({len(s)} studies)" for v, s in versions.items())
         + ".", "", "| study | verdict | summary | wall time of the run |", "|---|---|---|---|"]
    for r in rows:
        L.append(f"| [{r['id']}](#{r['id']}) | {r['verdict']} | {r['line']} | "
                 f"{fmt_time(r['time'])} |")
    if trend:
        L += ["", "## Performance over time", "", trend["caption"], "",
              f"![benchmark trend]({rel(out_dir, res, trend['png'])})", ""]
    if others:
        L += ["", "Other results: " + " · ".join(f"[{f}]({rel(out_dir, res, f)})" for f in others)]
    for r in rows:
        L += ["", f"## {r['id']}", "", r["title"], "", f"**{r['verdict']}**: {r['line']}"]
        for p in r["problems"]:
            L.append(f"- {p}")
        links = [f for f in r["files"] if f.endswith(DATA_EXT)]
        if links:
            L += ["", " · ".join(f"[{f}]({rel(out_dir, res, f)})" for f in links)]
        for fig in figures(r):
            L += ["", f"![{fig}]({rel(out_dir, res, fig + '.png')})"]
    return "\n".join(L) + "\n"


def load_trend(res):
    """The benchmark trend that tools/bench-trend wrote (results/bench/trend.*)."""
    meta = os.path.join(res, "bench", "trend.json")
    if not os.path.exists(meta):
        return None
    t = json.load(open(meta))
    return {"png": "bench/trend.png", "md": "bench/trend.md", "caption": t.get("caption", "")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vistudy", default="build/vistudy")
    ap.add_argument("--results", default="results")
    ap.add_argument("--out")
    ap.add_argument("--costs")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="write nothing: exit 1 when the pages in --out differ from these results'")
    a = ap.parse_args()
    if not os.path.isdir(a.results):
        print(f"results_page.py: no results directory {a.results}", file=sys.stderr)
        sys.exit(2)
    res, out_dir, rows, objs, missing, others, logged = build(a)
    if not rows:
        print(f"results_page.py: {a.vistudy} lists no study", file=sys.stderr)
        sys.exit(1)
    if not a.check:
        os.makedirs(out_dir, exist_ok=True)
    trend = load_trend(res)
    pages = {"index.html": write_html(out_dir, res, rows, objs, trend, others, logged),
             "README.md": write_md(out_dir, res, rows, objs, trend, others, logged)}
    page = os.path.join(out_dir, "index.html")
    if a.check:
        stale = [n for n, text in pages.items() if not os.path.exists(os.path.join(out_dir, n))
                 or open(os.path.join(out_dir, n)).read() != text]
        for n in stale:
            print(f"results_page.py: {os.path.join(out_dir, n)} is not the page of these results",
                  file=sys.stderr)
        sys.exit(1 if stale else 0)
    for name, text in pages.items():
        path = os.path.join(out_dir, name)
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    if a.summary:
        w = max(len(r["id"]) for r in rows)
        print("\nvistudy: every study")
        for r in rows:
            print(f"  {r['id']:<{w}}  {r['verdict']:<8}  {fmt_time(r['time']):>6}  {r['line']}")
        n = {v: sum(r["verdict"] == v for r in rows) for v in ("ok", "differs", "measured", "missing")}
        print(f"{len(rows)} studies: {n['ok']} ok, {n['differs']} differ, {n['measured']} "
              f"measured without published values, {n['missing']} missing")
        print(f"results page: {page}")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
