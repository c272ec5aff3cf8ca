#!/usr/bin/env python3
"""bench/report.py RUN.json [--md FILE]: what one vistudy-bench run says
about issue 5 item 3, as markdown tables (stdout, or FILE written
atomically).

1. The floor: lu/N/double (dense LU + two triangular solves of a random
   N x N matrix) at N = 12, 24, 48 against the targets of the issue.
2. Per configuration: newton_la (LU + solve of the configuration's own
   Jacobian, the linear algebra of one Newton iteration) beside lu/N for
   the same N and precision in the same run, and the whole step against
   Newton iterations x that floor.
3. KINSOL (our LU plugged in) against the built-in Newton, step and solve,
   side by side, judged for N >= 24.
4. The solver options (exact Newton, chord, simplified, fixed-point; quad with its LU
   in quad or in double): one step of each, and the quad step against the
   double step per family (issue 25's 30x target for N >= 16).

Times are the minimum over repetitions of cpu_time (as in
tools/bench-compare). Python standard library only.
"""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile

UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
TARGETS_US = {12: 0.4, 24: 1.5, 48: 8.0}  # issue 5, dense LU + two solves
FLOOR_LIMIT = 1.5   # issue 5: within 1.5x of our own best kernel
KINSOL_LIMIT = 1.5  # issue 5: KINSOL within 1.5x of Newton for N >= 24
KINSOL_MIN_N = 24


def load(path):
    """name -> (min cpu_time in us, counters of the first repetition); context."""
    with open(path) as f:
        doc = json.load(f)
    best, counters, aggmin = {}, {}, {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        t = b["cpu_time"] * UNIT_US.get(b.get("time_unit", "ns"), 1e-3)
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "min":
                aggmin[name] = t
            counters.setdefault(name, b)
            continue
        best[name] = min(t, best.get(name, t))
        counters[name] = b
    for name, t in aggmin.items():
        best.setdefault(name, t)
    return best, counters, doc.get("context", {})


def us(t):
    return f"{t:.3f}" if t < 10 else f"{t:.1f}" if t < 1000 else f"{t:.0f}"


QUAD_LIMIT = 30.0  # issue 25: extended-precision step at most 30x double, N >= 16
QUAD_MIN_N = 16
DEFAULT_D = "newton"  # double's default (core/solve_tmpl.c)
# quad's default per family: the LU in double and the family's quad_solver
# (core/methods/NAME_tmpl.c); chord-lud for a family not listed.
QUAD_DEFAULT = {"ggl": "newton-lud", "em": "newton-lud", "dla": "newton-lud",
                "bs99": "newton-lud"}


def default_q(spec):
    return QUAD_DEFAULT.get(spec.split(":")[0], "chord-lud")
OLD_D, OLD_Q = "newton", "newton"            # exact Newton, quad LU: before issue 25


def solver_section(best, ctr, p):
    """Step times of every solver variant; quad against double per family."""
    rows = {}
    for name in best:
        m = re.fullmatch(r"step/([^/]+)/(.+)/(double|quad)/([a-z-]+)", name)
        if m:
            sysn, spec, prec, tag = m.groups()
            rows.setdefault((spec, sysn), {})[(prec, tag)] = name
    keys = [k for k, v in rows.items()
            if ("double", DEFAULT_D) in v and ("quad", default_q(k[0])) in v]
    if not keys:
        return
    p("\n### Solver options and the extended-precision step\n")
    p("One step (us) with each solver: double with exact Newton (newton, the default), "
      "the chord method (one Jacobian per step), simplified Newton (Jacobian kept "
      "across steps) and, for vprk, fixed-point iteration (no Jacobian); quad with exact Newton and its LU in quad (newton, the quad step "
      "before issue 25) and with the LU in double (-lud; the default is the family's: "
      "chord-lud, newton-lud for ggl, em, dla). "
      f"quad/double: the default quad step over the default double step (target at most "
      f"{QUAD_LIMIT:.0f}x for N >= {QUAD_MIN_N}); before: the same ratio with exact Newton "
      "in both; best: the fastest quad variant over the fastest double one.\n")
    tags_d = ["newton", "chord", "simplified", "fixed-point"]
    tags_q = ["newton", "newton-lud", "chord-lud", "simplified-lud", "fixed-point-lud"]
    p("| method | system | N | " + " | ".join(f"d {t}" for t in tags_d) + " | "
      + " | ".join(f"q {t}" for t in tags_q) + " | quad/double | before | best |")
    p("|---|---|---:|" + "---:|" * (len(tags_d) + len(tags_q) + 3))
    fam = {}
    for spec, sysn in sorted(keys, key=lambda k: (k[0].split(":")[0], k[1], k[0])):
        v = rows[(spec, sysn)]
        t = {k: best[n] for k, n in v.items()}
        n = int(ctr[v[("double", DEFAULT_D)]].get("unknowns", 0))
        dq = default_q(spec)
        r = t[("quad", dq)] / t[("double", DEFAULT_D)]
        old = (t[("quad", OLD_Q)] / t[("double", OLD_D)]
               if ("quad", OLD_Q) in t and ("double", OLD_D) in t else None)
        bd = min(x for (pr, _), x in t.items() if pr == "double")
        bq = min(x for (pr, _), x in t.items() if pr == "quad")
        cells = [spec, sysn, str(n)]
        cells += [us(t[("double", g)]) if ("double", g) in t else "-" for g in tags_d]
        cells += [us(t[("quad", g)]) if ("quad", g) in t else "-" for g in tags_q]
        cells += [f"{r:.1f}", f"{old:.1f}" if old else "-", f"{bq / bd:.1f}"]
        p("| " + " | ".join(cells) + " |")
        if n >= QUAD_MIN_N:
            f = fam.setdefault(spec.split(":")[0], {"r": [], "old": [], "best": [], "gain_q": [],
                                                    "gain_d": []})
            f["r"].append(r)
            f["best"].append(bq / bd)
            if old:
                f["old"].append(old)
            if ("quad", OLD_Q) in t:
                f["gain_q"].append(t[("quad", OLD_Q)] / t[("quad", dq)])
            if ("double", "chord") in t:
                f["gain_d"].append(t[("double", "newton")] / t[("double", "chord")])
    if fam:
        p(f"\nPer family, N >= {QUAD_MIN_N} (range over its configurations):\n")
        p("| family | quad/double (default) | before | best variants | default vs before, "
          "quad | chord vs newton, double | within " + f"{QUAD_LIMIT:.0f}x |")
        p("|---|---:|---:|---:|---:|---:|---|")
        rng = lambda xs: f"{min(xs):.1f}-{max(xs):.1f}" if xs else "-"
        for name, f in sorted(fam.items()):
            ok = max(f["r"]) <= QUAD_LIMIT
            p(f"| {name} | {rng(f['r'])} | {rng(f['old'])} | {rng(f['best'])} | "
              f"{rng(f['gain_q'])}x | {rng(f['gain_d'])}x | "
              f"{'yes' if ok else 'no (max ' + format(max(f['r']), '.1f') + ')'} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--md", help="write the tables to this file instead of stdout")
    a = ap.parse_args()
    best, ctr, ctx = load(a.run)
    out = []
    p = out.append
    p(f"Run: `{os.path.basename(a.run)}`; {ctx.get('vistudy_machine', ctx.get('host_name', '?'))}; "
      f"pinned to {ctx.get('vistudy_pinned_core', '?')}; min of cpu_time over "
      f"repetitions.")
    if ctx.get("vistudy_build_type", "release") != "release":
        p(f"\n**Warning: {ctx.get('vistudy_build_type')} build; timings need release.**")
    if ctx.get("vistudy_inject_slowdown", "1") != "1":
        p(f"\n**Note: run with VI_BENCH_INJECT_SLOWDOWN={ctx['vistudy_inject_slowdown']}.**")

    # 1. LU floor against the targets.
    p("\n### Dense LU + two triangular solves (lu/N/double) against the issue's targets\n")
    p("| N | time (us) | target (us) | time / target |")
    p("|---:|---:|---:|---:|")
    for n, tgt in TARGETS_US.items():
        t = best.get(f"lu/{n}/double")
        if t is not None:
            p(f"| {n} | {us(t)} | {tgt} | {t / tgt:.2f} |")
    if "calib/lu/48" in best:
        p(f"\nCalibration kernel calib/lu/48 (frozen LU in the shim): {us(best['calib/lu/48'])} us.")

    # 1b. Extended-precision arithmetic: the same LU kernel per scalar type.
    ns = sorted({int(m.group(1)) for name in best
                 for m in [re.fullmatch(r"arith/lu/(\d+)/double", name)] if m})
    if ns:
        p("\n### Extended-precision arithmetic: one LU kernel per scalar type\n")
        p("arith/lu/N/TYPE: the calibration's LU + solves, written once for every scalar "
          "type, in double, QD's double-double (dd, about 32 digits) and GCC's __float128 "
          "(quad, 34 digits); each against double at the same N (the issue's target: "
          "extended precision at most 30x double).\n")
        p("| N | double (us) | dd (us) | quad (us) | dd / double | quad / double | quad / dd |")
        p("|---:|---:|---:|---:|---:|---:|---:|")
        for n in ns:
            d = best.get(f"arith/lu/{n}/double")
            dd = best.get(f"arith/lu/{n}/dd")
            q = best.get(f"arith/lu/{n}/quad")
            cols = [str(n), us(d), us(dd) if dd else "-", us(q) if q else "-",
                    f"{dd / d:.1f}" if dd else "-", f"{q / d:.1f}" if q else "-",
                    f"{q / dd:.1f}" if q and dd else "-"]
            p("| " + " | ".join(cols) + " |")

    # 2. Newton-iteration linear algebra against the floor of the same N.
    p("\n### Linear algebra of one Newton iteration against the LU floor of the same N\n")
    p("newton_la: LU + solve of the configuration's own Jacobian (from the assemble "
      "hook); floor: lu/N of a random dense matrix, same N, precision and run. "
      "step/(iters x floor): the whole built-in-Newton step over Newton iterations "
      "per step x floor, the per-step cost against what its linear algebra alone "
      "would take.\n")
    p("| system | method | prec | N | newton_la (us) | floor lu/N (us) | la/floor | "
      "step (us) | iters/step | step/(iters x floor) |")
    p("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    over = []
    for name in sorted(best):
        m = re.fullmatch(r"newton_la/([^/]+)/(.+)/(double|quad)", name)
        if not m:
            continue
        sysn, spec, prec = m.groups()
        n = int(ctr[name].get("N", 0))
        floor = best.get(f"lu/{n}/{prec}")
        la = best[name]
        step = best.get(f"step/{sysn}/{spec}/{prec}/newton")
        iters = ctr.get(f"step/{sysn}/{spec}/{prec}/newton", {}).get("newton_iters")
        ratio = la / floor if floor else None
        if ratio is not None and ratio > FLOOR_LIMIT:
            over.append(f"{sysn} {spec} {prec} ({ratio:.2f})")
        cols = [sysn, spec.replace("galerkin:", ""), prec, str(n), us(la),
                us(floor) if floor else "-", f"{ratio:.2f}" if ratio else "-",
                us(step) if step else "-", f"{iters:.2f}" if iters else "-",
                f"{step / (iters * floor):.2f}" if step and iters and floor else "-"]
        p("| " + " | ".join(cols) + " |")
    p(f"\nWithin {FLOOR_LIMIT}x of the floor: "
      + ("all." if not over else "all but " + "; ".join(over) + "."))

    # 3. KINSOL against the built-in Newton.
    p("\n### KINSOL (our LU plugged in) against the built-in Newton, double\n")
    p("Both backends run exact Newton with the same LU; KINSOL stops on its scaled-step "
      "test, the built-in Newton on its error estimate, so their iteration counts can "
      "differ: `per iter` divides each time by its Newton iterations per step.\n")
    p("| kernel | system | method | N | newton (us) | kinsol (us) | kinsol/newton | "
      "per iter | iters newton, kinsol | fevals newton, kinsol |")
    p("|---|---|---|---:|---:|---:|---:|---:|---|---|")
    worst, ratios = {}, {}
    for name in sorted(best):
        m = re.fullmatch(r"(step|solve)/([^/]+)/(.+)/double/kinsol", name)
        if not m:
            continue
        kern, sysn, spec = m.groups()
        nname = f"{kern}/{sysn}/{spec}/double/newton"
        if nname not in best:
            continue
        n = int(ctr[name].get("unknowns", 0))
        r = best[name] / best[nname]
        it_n, it_k = ctr[nname].get("newton_iters", 0), ctr[name].get("newton_iters", 0)
        r_it = (best[name] / it_k) / (best[nname] / it_n) if it_n and it_k else None
        if n >= KINSOL_MIN_N:
            worst[kern] = max(worst.get(kern, 0), r)
            ratios.setdefault(kern, []).append(r)
            if r_it:
                worst[kern + " per iteration"] = max(worst.get(kern + " per iteration", 0), r_it)
                ratios.setdefault(kern + " per iteration", []).append(r_it)
        p(f"| {kern} | {sysn} | {spec.replace('galerkin:', '')} | {n} | {us(best[nname])} | "
          f"{us(best[name])} | {r:.2f}{'' if n >= KINSOL_MIN_N else ' (N < 24)'} | "
          f"{f'{r_it:.2f}' if r_it else '-'} | {it_n:.2f}, {it_k:.2f} | "
          f"{ctr[nname].get('fevals', 0):.2f}, {ctr[name].get('fevals', 0):.2f} |")
    for kern, r in sorted(worst.items()):
        p(f"\nLargest KINSOL/Newton ratio, {kern}, N >= {KINSOL_MIN_N}: {r:.2f} "
          f"({'within' if r <= KINSOL_LIMIT else 'above'} {KINSOL_LIMIT}x; "
          f"median {statistics.median(ratios[kern]):.2f}, range "
          f"{min(ratios[kern]):.2f}..{r:.2f} over {len(ratios[kern])}).")

    # 4. The solver options and the extended-precision step (issue 25).
    solver_section(best, ctr, p)

    text = "\n".join(out) + "\n"
    if a.md:
        d = os.path.dirname(os.path.abspath(a.md))
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".report-")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, a.md)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
