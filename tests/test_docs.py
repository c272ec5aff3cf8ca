#!/usr/bin/env python3
"""test_docs.py: the documentation stays true to the tree (e2e suite).

Usage: test_docs.py SOURCE_ROOT PATH/TO/vistudy

Checks, on README.md and every docs/*.md:
- every relative link (and image) resolves to an existing file or
  directory, and a #fragment to a heading of the target (GitHub's anchors);
- every repository path quoted as inline code (`core/fit.c`) exists, unless
  it is a pattern (NAME, ID, {a,b}, *) or a file tools write and do not
  commit;
- README.md has at most 400 lines;
- docs/README.md links every page of docs/;
- the generated pages equal what `vistudy list ... --markdown` prints now
  (docs/systems.md, docs/methods.md, docs/studies-list.md, docs/measures.md), so the
  reference of the registries cannot go stale.
Prints every problem and ends with "docs: N checks, N failed".
"""
import os
import re
import subprocess
import sys

root, vistudy = sys.argv[1], sys.argv[2]
checks = fails = 0


def check(ok, msg):
    global checks, fails
    checks += 1
    if not ok:
        fails += 1
        print("FAIL: " + msg, file=sys.stderr)


def prose_lines(text):
    """The lines outside fenced code blocks, with their numbers."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s*(```|~~~)", line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if fence is None:
            yield n, line


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped
    (letters, digits, spaces, '-' and '_' kept), spaces to '-'."""
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    h = "".join(c for c in h if c.isalnum() or c in " -_")
    return h.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    if path not in anchor_cache:
        seen, out = {}, set()
        with open(path, encoding="utf-8") as f:
            for _, line in prose_lines(f.read()):
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    s = slug(m.group(1))
                    k = seen.get(s, 0)
                    seen[s] = k + 1
                    out.add(s if k == 0 else f"{s}-{k}")
        anchor_cache[path] = out
    return anchor_cache[path]


# Paths tools write but the repository does not hold (and results/quick/,
# where reduced runs go).
NOT_COMMITTED = {
    "results/demo-planar-pendulum.csv",
    "results/bench/latest.json",
    "results/bench/quick.json",
    "results/bench/ci-quick.json",
    "results/bench/ci-confirm.json",
    "results/bench/ci-flagged.txt",
}
TOP = ("cli/", "core/", "systems/", "studies/", "tests/", "tools/", "bench/",
       "results/", "docs/", ".ci/")


# Placeholders of the documentation's path patterns (systems/NAME_tmpl.c).
PLACEHOLDERS = {"NAME", "ID", "PAPER", "SOURCE", "SYS", "SPEC", "PREC", "BACKEND", "N",
                "DIR", "FILE", "NEW", "RUN", "X"}


def is_pattern(p):
    return (re.search(r"[{}*<>|\s]", p) or "..." in p
            or any(w in PLACEHOLDERS for w in re.split(r"[/_.-]", p)))


docs = sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
              if f.endswith(".md"))
for rel in ["README.md"] + docs:
    path = os.path.join(root, rel)
    base = os.path.dirname(path)
    text = open(path, encoding="utf-8").read()
    for n, line in prose_lines(text):
        code = re.findall(r"`([^`]+)`", line)
        bare = re.sub(r"`[^`]*`", "", line)
        for target in re.findall(r"\]\(([^)\s]+)\)", bare):
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(base, file)) if file else path
            ok = os.path.exists(dest)
            check(ok, f"{rel}:{n}: link to missing {target}")
            if ok and frag and dest.endswith(".md"):
                check(frag in anchors(dest), f"{rel}:{n}: no heading '#{frag}' in {file or rel}")
        for p in code:
            p = p.rstrip(".,:;")
            if (not p.startswith(TOP) or is_pattern(p) or p in NOT_COMMITTED
                    or p.startswith("results/quick/")):
                continue
            check(os.path.exists(os.path.join(root, p)), f"{rel}:{n}: path `{p}` does not exist")

readme_lines = open(os.path.join(root, "README.md"), encoding="utf-8").read().count("\n")
check(readme_lines <= 400, f"README.md has {readme_lines} lines (at most 400)")

index = open(os.path.join(root, "docs", "README.md"), encoding="utf-8").read()
for d in docs:
    name = os.path.basename(d)
    if name != "README.md":
        check(f"]({name}" in index, f"docs/README.md does not link {name}")

for what, page in (("systems", "systems.md"), ("methods", "methods.md"),
                   ("studies", "studies-list.md"), ("measures", "measures.md")):
    now = subprocess.run([vistudy, "list", what, "--markdown"], capture_output=True,
                         text=True, check=False)
    committed = open(os.path.join(root, "docs", page), encoding="utf-8").read()
    check(now.returncode == 0 and now.stdout == committed,
          f"docs/{page} is not what `vistudy list {what} --markdown` prints: regenerate it "
          f"(tools/run, or build/vistudy list {what} --markdown > docs/{page})")

print(f"docs: {checks} checks, {fails} failed")
sys.exit(1 if fails else 0)
