#!/usr/bin/env python3
"""manpage.py: a man page of vistudy or one of its commands, made from the
program's own --help text at build time (meson.build), so that the page and
--help cannot drift apart (issue 27).

    tools/manpage.py VISTUDY OUT/vistudy.1 OUT/vistudy-COMMAND.1 ...

The pages asked for must be exactly the program's and its commands' (as
listed by `vistudy --help`), so that a command added to the program without
its page in meson.build fails the build instead of going undocumented.

The page's NAME line is the command's line in `vistudy --help`, SYNOPSIS the
"usage:" lines of `vistudy COMMAND --help`, DESCRIPTION the rest, paragraph
by paragraph (indented lines stay as they are). Hyphenation and
justification are off so that the rendered words are the help's words
(tests/test_install.sh compares them).
"""
import argparse
import os
import re
import subprocess
import sys


def run(exe, args):
    p = subprocess.run([exe] + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"manpage.py: {exe} {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def commands(main_help):
    """{name: summary} from the 'commands:' block of vistudy --help."""
    out, cur, inside = {}, None, False
    for line in main_help.splitlines():
        if line.strip() == "commands:":
            inside = True
            continue
        if not inside:
            continue
        if not line.strip():
            break
        if re.match(r"  \S", line):
            name = line.split()[0]
            # the summary follows the synopsis after two or more spaces
            m = re.match(r"\s*\S.*?\s{2,}(\S.*)$", line)
            desc = m.group(1).strip() if m else ""
            cur = name
            out[cur] = desc
        elif cur:
            out[cur] = (out[cur] + " " + line.strip()).strip()
    return out


def esc(text):
    """roff-escape one line of text."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def body(lines):
    """roff of help paragraphs: fill ordinary lines, keep indented ones."""
    out, verbatim = [], False
    for line in lines:
        if not line.strip():
            if verbatim:
                out.append(".fi")
                verbatim = False
            out.append(".PP")
            continue
        indented = line.startswith(" ")
        if indented and not verbatim:
            out.append(".nf")
            verbatim = True
        elif not indented and verbatim:
            out.append(".fi")
            verbatim = False
        out.append(esc(line))
    if verbatim:
        out.append(".fi")
    return out


def page(exe, command, version):
    main_help = run(exe, ["--help"])
    summaries = commands(main_help)
    if command:
        if command not in summaries:
            sys.exit(f"manpage.py: '{command}' is not a command of {exe}; valid: "
                     + " ".join(summaries))
        text = run(exe, [command, "--help"])
        name, summary = f"vistudy-{command}", summaries[command]
    else:
        text = main_help
        name = "vistudy"
        summary = "variational integrators of constrained mechanical systems: studies"
    lines = text.rstrip("\n").splitlines()
    synopsis = []
    while lines and (lines[0].startswith("usage:") or (synopsis and lines[0].startswith(" "))):
        synopsis.append(lines.pop(0))
    while lines and not lines[0].strip():
        lines.pop(0)
    if synopsis:
        # continuation lines are aligned under "usage: vistudy ...": keep
        # them aligned once the label is gone
        cut = len("usage: ")
        synopsis = [synopsis[0][cut:]] + [s[cut:] if s[:cut].isspace() else s
                                          for s in synopsis[1:]]
    out = [f'.TH "{name.upper()}" "1" "" "vistudy {esc(version)}" "vistudy manual"',
           ".nh", ".ad l",
           ".SH NAME", f"{esc(name)} \\- {esc(summary)}",
           ".SH SYNOPSIS", ".nf"] + [esc(s) for s in synopsis] + [".fi",
           ".SH DESCRIPTION"] + body(lines)
    others = [f"vistudy\\-{c}(1)" for c in summaries if c != command]
    if command:
        others = ["vistudy(1)"] + others
    out += [".SH SEE ALSO", ", ".join(others)]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("exe")
    ap.add_argument("pages", nargs="+", help="vistudy.1 and vistudy-COMMAND.1 paths")
    a = ap.parse_args()
    version = run(a.exe, ["--version"]).strip().split(" ", 1)[1]
    want = {"vistudy.1"} | {f"vistudy-{c}.1" for c in commands(run(a.exe, ["--help"]))}
    asked = {os.path.basename(p) for p in a.pages}
    if asked != want:
        sys.exit("manpage.py: the pages asked for (meson.build) are not the program's: "
                 f"missing {sorted(want - asked)}, unknown {sorted(asked - want)}")
    for path in a.pages:
        base = os.path.basename(path)[:-len(".1")]
        command = None if base == "vistudy" else base[len("vistudy-"):]
        with open(path, "w") as f:
            f.write(page(a.exe, command, version))


if __name__ == "__main__":
    main()
