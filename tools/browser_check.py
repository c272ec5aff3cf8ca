#!/usr/bin/python3
"""browser_check.py: open an HTML page in a real headless Chromium and report
what a reader would run into: a page that does not load, console errors and
warnings, uncaught exceptions, failed resource loads, images that did not
load and links that lead nowhere.

    tools/browser_check.py PAGE.html [--screenshot OUT.png] [--width 1280]
                           [--max-height 4000] [--timeout 60]
                           [--chromium PATH]

Chromium (Debian package `chromium`) is driven through the Chrome DevTools
Protocol with the websocket-client module (Debian package
`python3-websocket`, hence /usr/bin/python3 above). What is checked:

- the page fires its load event within --timeout seconds;
- console messages of level error, warning or assert, uncaught exceptions,
  and log entries of level error (a missing image, style sheet or script
  shows up there, source "network");
- every <img>, once the page has loaded and its images have finished
  loading (lazy images are made eager first, so that an image below the
  fold is checked too): it must be complete with a natural width > 0;
- every <a href>: a link into the page itself (#x, or PAGE.html#x) needs an
  element with id x or an <a name=x> (an empty fragment and #top always
  scroll, as in any browser); a file: link (a relative link on a file://
  page) needs its file or folder on disk; other links (http, https, mailto,
  ...) are counted as external and not fetched.

Nothing goes to the network: host names do not resolve in the browser, so a
page that needs a resource from the web fails the check, as it would for a
reader who is offline. The page is laid out --width CSS pixels wide;
--screenshot writes a PNG of the whole page at that width, its height cut at
--max-height.

Output: one line per problem ("FAIL image not loaded: figs/x.png", ...),
then a summary line. Exit 0 when there is no problem, 1 when there is one,
2 when the check could not run (usage, no page, no Chromium, Chromium does
not start).
"""
import argparse
import base64
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

try:
    import websocket  # Debian: python3-websocket (websocket-client)
except ImportError:
    websocket = None

# The viewport's height while the page loads; the screenshot resizes it to
# the page's height. 800 px is a laptop screen's.
VIEWPORT_HEIGHT = 800

# Image polling interval after the load event: short against a page's load
# time, long enough not to keep the renderer busy answering.
POLL_SECONDS = 0.1

# How long Chromium may take to start and write DevToolsActivePort; a cold
# start here takes well under a second.
START_SECONDS = 30.0


class UsageError(Exception):
    """The check cannot run (exit 2)."""


class CDPError(Exception):
    """The browser answered with an error, went away, or the page crashed."""


class CDPTimeout(CDPError):
    """No answer within the time allowed."""


class CDP:
    """One DevTools connection to the browser, carrying one page session
    (Target.attachToTarget with flatten: commands and events of the page
    travel on the browser's socket, marked with the session id).

    Responses and events arrive interleaved on the socket: every read goes
    through _read, which files a response under its id and keeps every event
    of the page, in order, in `events`, so that waiting for one answer never
    loses a console message that came before it."""

    def __init__(self, url, timeout):
        # Chromium refuses DevTools connections that send an Origin header
        # (since version 111) unless started with --remote-allow-origins.
        try:
            self.ws = websocket.create_connection(url, timeout=timeout, suppress_origin=True)
        except (websocket.WebSocketException, OSError) as e:
            raise CDPError(f"cannot connect to {url}: {e}") from None
        self.last_id = 0
        self.responses = {}
        self.unawaited = set()  # ids of commands whose answer nobody reads
        self.events = []
        self.session = None

    def close(self):
        # No closing handshake: the browser is killed right after.
        self.ws.shutdown()

    def call(self, method, params=None, timeout=30.0, browser=False):
        """The result of one command, to the page session unless `browser`."""
        mid = self._send(method, params, browser)
        deadline = time.monotonic() + timeout
        while mid not in self.responses:
            self._read(deadline, method)
        resp = self.responses.pop(mid)
        if "error" in resp:
            raise CDPError(f"{method}: {resp['error'].get('message', resp['error'])}")
        return resp.get("result", {})

    def _send(self, method, params, browser=False):
        self.last_id += 1
        msg = {"id": self.last_id, "method": method, "params": params or {}}
        if not browser:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        return self.last_id

    def wait_event(self, method, start, deadline):
        """The params of the first event `method` at index `start` or later
        of `events`, or None when the deadline passes first."""
        i = start
        while True:
            while i < len(self.events):
                if self.events[i][0] == method:
                    return self.events[i][1]
                i += 1
            try:
                self._read(deadline, method)
            except CDPTimeout:
                return None

    def _read(self, deadline, waiting_for):
        left = deadline - time.monotonic()
        if left <= 0:
            raise CDPTimeout(f"no answer to {waiting_for} in time")
        self.ws.settimeout(left)
        try:
            msg = json.loads(self.ws.recv())
        except websocket.WebSocketTimeoutException:
            raise CDPTimeout(f"no answer to {waiting_for} in time") from None
        except (websocket.WebSocketException, OSError) as e:
            raise CDPError(f"the DevTools connection closed ({e or type(e).__name__}): "
                           "did Chromium crash?") from None
        if "id" in msg:
            if msg["id"] in self.unawaited:
                self.unawaited.discard(msg["id"])
            else:
                self.responses[msg["id"]] = msg
        elif self.session is not None and msg.get("sessionId") == self.session:
            if msg["method"] == "Inspector.targetCrashed":
                raise CDPError("the page's renderer crashed")
            if msg["method"] == "Page.javascriptDialogOpening":
                # An alert, confirm or prompt stops the page until it is
                # answered: answer at once, or the page would never load.
                self.unawaited.add(self._send("Page.handleJavaScriptDialog", {"accept": True}))
            self.events.append((msg["method"], msg.get("params", {})))


def find_chromium(path):
    if path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise UsageError(f"--chromium {path}: not an executable file")
        return path
    found = shutil.which("chromium")
    if not found:
        raise UsageError("no chromium on PATH: install the Debian package `chromium` "
                         "(apt-get install --no-install-recommends chromium) or pass --chromium PATH")
    return found


class Browser:
    """A headless Chromium in a temporary folder (its profile, its HOME and
    its log), killed with all its processes and the folder removed on close,
    whatever happened in between."""

    def __init__(self, exe):
        self.exe = exe
        self.proc = None
        self.tmp = tempfile.mkdtemp(prefix="browser_check.")
        self.log = os.path.join(self.tmp, "chromium.log")

    def start(self):
        """The DevTools websocket URL of the browser. `--headless=new` is
        tried first; a Chromium too old to start with it gets `--headless`."""
        for headless in ("--headless=new", "--headless"):
            url = self._start(headless)
            if url:
                return url
        with open(self.log, errors="replace") as f:
            tail = f.read().splitlines()[-15:] or ["(none)"]
        raise UsageError(f"{self.exe} did not start; its last output:\n  " + "\n  ".join(tail))

    def _start(self, headless):
        self._kill()
        profile = os.path.join(self.tmp, "profile")
        shutil.rmtree(profile, ignore_errors=True)
        os.makedirs(profile)
        args = [
            self.exe, headless, "--no-sandbox",  # root cannot use the sandbox
            "--disable-gpu", "--hide-scrollbars", "--mute-audio",
            # containers have a small /dev/shm, where Chromium would crash
            "--disable-dev-shm-usage",
            "--disable-breakpad", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-default-apps", "--disable-sync",
            "--disable-component-update", "--disable-background-networking",
            # the check must not reach the network, neither for the page's
            # resources nor for Chromium's own services: no name resolves
            "--host-resolver-rules=MAP * ~NOTFOUND",
            # port 0: the system picks a free one, which Chromium writes to
            # DevToolsActivePort in the profile (no race for a fixed port)
            "--remote-debugging-port=0", f"--user-data-dir={profile}",
            "about:blank",
        ]
        # HOME, TMPDIR and XDG folders in the temporary folder: what Chromium
        # writes outside its profile (crash reports in ~/.config, ~/.cache,
        # ~/.pki, its singleton socket's folder in TMPDIR, which only a clean
        # shutdown removes) goes away with it.
        env = dict(os.environ, HOME=self.tmp, TMPDIR=self.tmp,
                   XDG_CONFIG_HOME=os.path.join(self.tmp, ".config"),
                   XDG_CACHE_HOME=os.path.join(self.tmp, ".cache"))
        with open(self.log, "ab") as log:
            # The log is a file, not a pipe: Chromium writes a lot to stderr
            # (D-Bus complaints) and would block on a pipe nobody reads.
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         env=env, start_new_session=True)
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with open(port_file) as f:
                    lines = f.read().split()
            except FileNotFoundError:
                lines = []
            # Both lines (port, browser path): the file may be caught half-written.
            if len(lines) == 2:
                return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
            time.sleep(0.02)
        return None

    def _kill(self):
        if self.proc is None:
            return
        try:
            # Chromium's zygotes, renderers and GPU process share its process
            # group (start_new_session made Chromium its leader).
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.proc = None
        # Crashpad's handlers leave the group (they daemonize) and would
        # only exit a moment later. (--disable-crashpad-for-testing would
        # keep them from starting, but crashes Chromium 156's network service.)
        deadline = time.monotonic() + 5.0
        while True:
            pids = self._own_processes()
            if not pids or time.monotonic() > deadline:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)

    def _own_processes(self):
        """The live processes of this Chromium, wherever they went: each
        names the temporary folder in its command line (the profile, or for
        crashpad's handler its database under HOME). A zombie's command line
        is empty: it is dead already."""
        key = self.tmp.encode()
        pids = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        if key in f.read():
                            pids.append(int(entry))
                except OSError:  # gone meanwhile
                    pass
        return pids

    def close(self):
        self._kill()
        shutil.rmtree(self.tmp, ignore_errors=True)


# Runs in the page: every <img>, with lazy ones turned eager (an image out of
# the viewport would otherwise never load in a browser that never scrolls).
IMAGES_JS = """
Array.from(document.images, img => {
  if (img.loading === 'lazy') img.loading = 'eager';
  return {src: img.getAttribute('src') || img.currentSrc || '', url: img.currentSrc || img.src,
          complete: img.complete, ok: img.complete && img.naturalWidth > 0};
})
"""

# Runs in the page: every <a href>, resolved against the document's base. A
# link into this very document says whether its fragment has a target, as
# the browser looks for it: an element with that id (the fragment as
# written, then decoded), else an <a name>; "" and "top" always scroll.
LINKS_JS = """
Array.from(document.querySelectorAll('a[href]'), a => {
  const href = a.getAttribute('href');
  let url;
  try { url = new URL(href, document.baseURI); } catch (e) { return {href, url: null}; }
  const here = url.href.split('#')[0] === document.URL.split('#')[0];
  let target = true;
  if (here && url.hash) {
    const raw = url.hash.slice(1);
    let frag = raw;
    try { frag = decodeURIComponent(raw); } catch (e) {}
    const named = f => Array.from(document.getElementsByName(f)).some(e => e.localName === 'a');
    target = frag === '' || frag.toLowerCase() === 'top' ||
             [raw, frag].some(f => document.getElementById(f) !== null || named(f));
  }
  return {href, url: url.href, here, target};
})
"""


def evaluate(cdp, expr, timeout):
    """The value of a JavaScript expression in the page."""
    r = cdp.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, timeout=timeout)
    if "exceptionDetails" in r:
        raise CDPError(f"evaluating in the page: {r['exceptionDetails'].get('text')}")
    return r["result"].get("value")


def file_path(url):
    """The path on disk of a file: URL, without its query and fragment."""
    return urllib.request.url2pathname(urllib.parse.urlsplit(url).path)


class Report:
    """The problems found and the counts for the summary line."""

    def __init__(self, page_dir):
        self.page_dir = page_dir
        self.problems = []
        self.load_seconds = None
        self.images = self.links = self.external = self.console = 0
        self.failed_images = []  # [(src, url, still loading)]

    def fail(self, text):
        if text not in self.problems:
            self.problems.append(text)

    def short(self, url):
        """A file: URL as a path relative to the page's folder (as the page's
        author wrote it, most often); any other URL as it is."""
        if not url.startswith("file:"):
            return url
        path = file_path(url)
        rel = os.path.relpath(path, self.page_dir)
        return path if rel.startswith("..") else rel

    def where(self, url, line=None):
        """A message's source as " (FILE:LINE)", or "" when it has none."""
        if not url:
            return ""
        return f" ({self.short(url)}:{line + 1})" if line is not None else f" ({self.short(url)})"


def remote_text(obj):
    """A console argument as the console would print it."""
    if "value" in obj:
        v = obj["value"]
        return v if isinstance(v, str) else json.dumps(v)
    return obj.get("unserializableValue") or obj.get("description") or obj.get("type", "?")


def check_images(cdp, report, deadline, timeout):
    """The images that did not load, once none is still loading (or the
    deadline has passed)."""
    while True:
        imgs = evaluate(cdp, IMAGES_JS, timeout)
        if all(i["complete"] for i in imgs) or time.monotonic() >= deadline:
            break
        time.sleep(POLL_SECONDS)
    report.images = len(imgs)
    report.failed_images = [(i["src"], i["url"], not i["complete"]) for i in imgs if not i["ok"]]


def check_links(cdp, report, timeout):
    for a in evaluate(cdp, LINKS_JS, timeout):
        report.links += 1
        href = a["href"]
        if a["url"] is None:
            report.fail(f"link not a valid URL: {href}")
        elif a["here"]:
            if not a["target"]:
                report.fail(f"link target not found: {href}")
        elif a["url"].startswith("file:"):
            path = file_path(a["url"])
            if not os.path.exists(path):
                report.fail(f"link not found: {href} ({path})")
        else:
            report.external += 1


def report_messages(cdp, report, timeout):
    """Console messages, exceptions, dialogs and log errors, in the order
    they came, then the images that did not load. A failed load of such an
    image goes on the image's line, so that one missing file makes one line."""
    image_urls = {url for _, url, _ in report.failed_images}
    image_errors = {}
    for method, p in cdp.events:
        if method == "Runtime.consoleAPICalled":
            report.console += 1
            if p["type"] in ("error", "warning", "assert"):
                text = " ".join(remote_text(a) for a in p.get("args", []))
                frames = (p.get("stackTrace") or {}).get("callFrames") or [{}]
                at = report.where(frames[0].get("url"), frames[0].get("lineNumber"))
                report.fail(f"console {p['type']}: {text}{at}")
        elif method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = (d.get("exception") or {}).get("description") or d.get("text", "?")
            report.fail(f"uncaught exception: {text.splitlines()[0]}"
                        f"{report.where(d.get('url'), d.get('lineNumber'))}")
        elif method == "Page.javascriptDialogOpening":
            report.fail(f"dialog opened: {p['type']}: {p['message']}")
        elif method == "Log.entryAdded" and p["entry"]["level"] == "error":
            e = p["entry"]
            if e.get("source") == "network" and e.get("url") in image_urls:
                image_errors[e["url"]] = e["text"].split(": ", 1)[-1]
            else:
                report.fail(f"{e.get('source', 'log')} error: {e['text']}{report.where(e.get('url'))}")
    for src, url, loading in report.failed_images:
        why = (f" (still loading after {timeout:g} s)" if loading
               else f" ({image_errors[url]})" if url in image_errors else "")
        report.fail(f"image not loaded: {src or '(no src)'}{why}")


def screenshot(cdp, out, width, max_height, timeout):
    """A PNG of the whole page at `width` CSS pixels, cut at `max_height`."""
    m = cdp.call("Page.getLayoutMetrics", timeout=timeout)
    size = m.get("cssContentSize") or m["contentSize"]  # cssContentSize: Chromium >= 92
    height = max(1, min(max_height, math.ceil(size["height"])))
    cdp.call("Emulation.setDeviceMetricsOverride",
             {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, timeout=timeout)
    shot = cdp.call("Page.captureScreenshot",
                    {"format": "png", "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
                    timeout=timeout)
    with open(out, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def open_page(cdp, width, timeout):
    """A new about:blank tab, attached, with the Page, Runtime and Log events
    on and the viewport set, before the page is navigated to: no message of
    the page's early scripts is lost."""
    target = cdp.call("Target.createTarget", {"url": "about:blank"}, timeout=timeout, browser=True)
    cdp.session = cdp.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True},
                           timeout=timeout, browser=True)["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        cdp.call(f"{domain}.enable", timeout=timeout)
    cdp.call("Emulation.setDeviceMetricsOverride",
             {"width": width, "height": VIEWPORT_HEIGHT, "deviceScaleFactor": 1, "mobile": False},
             timeout=timeout)


def check(cdp, args, report):
    """Navigate to the page and run the checks that ask the page into
    `report` (its messages are reported after, by report_messages)."""
    url = "file://" + urllib.request.pathname2url(os.path.abspath(args.page))
    t0 = time.monotonic()
    deadline = t0 + args.timeout
    # The page's load event may come before or after the answer to
    # Page.navigate (it comes after, in Chromium 156), so it is looked for
    # from before the command on; about:blank has sent its own before the
    # Page domain was on.
    start = len(cdp.events)
    nav = cdp.call("Page.navigate", {"url": url}, timeout=args.timeout)
    if nav.get("errorText"):
        report.fail(f"page not opened: {nav['errorText']}")
        return
    if cdp.wait_event("Page.loadEventFired", start, deadline) is None:
        report.fail(f"page not loaded within {args.timeout:g} s")
        return
    report.load_seconds = time.monotonic() - t0
    check_images(cdp, report, deadline, args.timeout)
    check_links(cdp, report, args.timeout)
    if args.screenshot:
        screenshot(cdp, args.screenshot, args.width, args.max_height, args.timeout)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="browser_check.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("page", help="the HTML file to check")
    ap.add_argument("--screenshot", metavar="OUT.png", help="write a PNG of the page")
    ap.add_argument("--width", type=int, default=1280, help="viewport width in CSS px (1280)")
    ap.add_argument("--max-height", type=int, default=4000, help="screenshot height at most, px (4000)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds for the page and its images (60)")
    ap.add_argument("--chromium", metavar="PATH", help="the Chromium binary (default: chromium on PATH)")
    args = ap.parse_args(argv)
    for name in ("width", "max_height", "timeout"):
        if getattr(args, name) <= 0:
            ap.error(f"--{name.replace('_', '-')} must be positive")
    return args


def _exit_on_signal(signum, frame):
    # SystemExit unwinds through the finally blocks that kill Chromium (as
    # KeyboardInterrupt would for SIGINT, but without a traceback).
    raise SystemExit(128 + signum)


def main(argv):
    args = parse_args(argv)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _exit_on_signal)
    try:
        if not os.path.isfile(args.page):
            raise UsageError(f"{args.page}: no such file")
        out_dir = os.path.dirname(os.path.abspath(args.screenshot or "."))
        if not os.path.isdir(out_dir):
            raise UsageError(f"--screenshot {args.screenshot}: no folder {out_dir}")
        if websocket is None:
            raise UsageError("the Python module websocket is missing: install the Debian package "
                             "`python3-websocket` and run with /usr/bin/python3")
        exe = find_chromium(args.chromium)
        report = Report(os.path.dirname(os.path.abspath(args.page)))
        browser = Browser(exe)
        cdp = None
        try:
            try:
                cdp = CDP(browser.start(), args.timeout)
                open_page(cdp, args.width, args.timeout)
            except CDPError as e:
                raise UsageError(f"Chromium did not open a page: {e}") from None
            try:
                check(cdp, args, report)
            except CDPError as e:
                # What was collected until then is reported all the same.
                report.fail(f"check aborted: {e}")
            report_messages(cdp, report, args.timeout)
        finally:
            if cdp is not None:
                cdp.close()
            browser.close()
    except UsageError as e:
        print(f"browser_check: error: {e}", file=sys.stderr)
        return 2

    for p in report.problems:
        print(f"FAIL {p}")
    loaded = (f"loaded in {report.load_seconds:.1f} s" if report.load_seconds is not None
              else "not loaded")
    n = len(report.problems)
    print(f"browser_check: {args.page} {loaded}; {report.images} images, {report.links} links "
          f"({report.external} external, not fetched), {report.console} console messages; "
          f"{n} problem{'' if n == 1 else 's'}")
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
