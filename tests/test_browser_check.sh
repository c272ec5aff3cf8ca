#!/usr/bin/env bash
# test_browser_check.sh [PATH/TO/browser_check.py]: tools/browser_check.py
# on pages made here, in a real headless Chromium: a good page (an image,
# a link to a file, a #fragment link with its target) passes; a missing
# image, a missing image below the fold (lazy), a link to a missing file,
# a #fragment without target, console.error and an uncaught exception
# each fail (exit 1) and are named; --screenshot writes a PNG as wide as
# --width; a missing page is a usage error (exit 2). No Chromium process
# and no temporary folder of the checker is left behind.
# Exit 77 (skipped) when Chromium or python3-websocket is not installed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bc=${1:-$here/../tools/browser_check.py}
if ! command -v chromium >/dev/null; then
  echo "browser_check: skipped: no chromium (apt-get install --no-install-recommends chromium)"
  exit 77
fi
if ! /usr/bin/python3 -c 'import websocket' 2>/dev/null; then
  echo "browser_check: skipped: no python3-websocket (apt-get install python3-websocket)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The checker's own temporary folders go here, where they can be counted.
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"
checks=0
fails=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; cat "$dir/out"; }
# check 'SHELL CONDITION' 'MESSAGE WHEN IT DOES NOT HOLD'
check() { if eval "$1"; then ok; else bad "$2"; fi; }

# run WANT PATTERN PAGE [ARGS...]: the checker's exit status on PAGE, and a
# fixed string its output must contain (empty: any). Bounded in time: a
# checker that hangs fails here.
run() {
  local want=$1 pat=$2 page=$3
  shift 3
  timeout 120 "$bc" "$dir/$page" "$@" >"$dir/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    bad "$page: exit $got, want $want"
  elif [ -n "$pat" ] && ! grep -qF -e "$pat" "$dir/out"; then
    bad "$page: output lacks '$pat'"
  else
    ok
  fi
}

# page NAME BODY: an HTML page in $dir.
page() { printf '<!doctype html>\n<html><head><meta charset="utf-8"><title>%s</title></head>\n<body>\n%s\n</body></html>\n' "$1" "$2" >"$dir/$1"; }

# A 24x16 red PNG, written byte by byte (zlib and CRCs from Python's stdlib).
python3 - "$dir/red.png" <<'PY'
import struct, sys, zlib
w, h = 24, 16
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
raw = b"".join(b"\0" + b"\xff\0\0" * w for _ in range(h))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
open(sys.argv[1], "wb").write(png)
PY
echo "notes" >"$dir/notes.txt"

# (a) a good page
page good.html '<h1>Good</h1><p><img src="red.png" alt="red"> <a href="notes.txt">notes</a>
<a href="#sec">to the section</a> <a href="https://example.org/">external</a></p>
<div style="height: 2000px"></div><h2 id="sec">Section</h2>
<script>console.log("fine");</script>'
run 0 "good.html loaded in" good.html
check 'grep -qF "1 images, 3 links (1 external, not fetched), 1 console messages; 0 problems" "$dir/out"' \
  "good.html: summary line"

# (b) a missing image; below the fold with loading=lazy, it is checked too
page noimg.html '<img src="red.png"><img src="figs/missing.png">'
run 1 "image not loaded: figs/missing.png" noimg.html
page lazy.html '<div style="height: 5000px"></div><img src="figs/far.png" loading="lazy">'
run 1 "image not loaded: figs/far.png" lazy.html

# (c) a link to a missing file; a #fragment without its target
page nolink.html '<a href="notes.txt">ok</a> <a href="missing.html">gone</a>'
run 1 "link not found: missing.html" nolink.html
page nofrag.html '<a href="#nowhere">nowhere</a>'
run 1 "link target not found: #nowhere" nofrag.html

# (d) console.error
page console.html '<script>console.error("x");</script>'
run 1 "console error: x" console.html

# (e) an uncaught exception
page throws.html '<script>throw new Error("boom");</script>'
run 1 "uncaught exception: Error: boom" throws.html

# (f) --screenshot: a PNG, --width pixels wide
run 0 "0 problems" good.html --screenshot "$dir/shot.png" --width 640 --max-height 1000
read -r magic width height < <(python3 - "$dir/shot.png" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read(24)
print(d[:8].hex(), *struct.unpack(">II", d[16:24]))
PY
)
check '[ "$magic" = 89504e470d0a1a0a ]' "shot.png: not a PNG (magic $magic)"
check '[ "$width" = 640 ]' "shot.png: width $width, want 640"
# The page is over 2000 px high: the screenshot is cut at --max-height.
check '[ "$height" = 1000 ]' "shot.png: height $height, want 1000"

# A missing page: a usage error, exit 2.
run 2 "no such file" nosuch.html

# Nothing left behind: no temporary folder, no process naming this folder.
left=$(find "$TMPDIR" -mindepth 1 -maxdepth 1 | wc -l)
check '[ "$left" = 0 ]' "$left temporary folder(s) left in $TMPDIR"
check '! pgrep -f "$TMPDIR" >/dev/null' "a process of the checker's Chromium still runs"

echo "browser_check: $checks checks, $fails failed"
[ "$fails" = 0 ]
