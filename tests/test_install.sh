#!/usr/bin/env bash
# test_install.sh: vistudy as a library people build on (issue 27; e2e
# suite). `meson install --destdir` of this build into a temporary
# directory, then from there alone:
#   - what is installed: the shared and static library, the public headers
#     and none of the private ones, vistudy.pc, the program, one man page per
#     command, the published values and the docs;
#   - every installed header compiles on its own as C11;
#   - examples/order_study.c (a system of the user's own + a registered
#     family + the order study) built with `pkg-config --cflags --libs
#     vistudy`, against the shared and against the static library, measures
#     every declared order of its family on that system;
#   - examples/symplectic_euler.c (a stepper of the user's own) passes the
#     conformance checks;
#   - each man page shows the same words as its command's --help;
#   - the installed `vistudy --version` names the release and the git
#     description.
# Usage: test_install.sh VISTUDY BUILD_DIR SOURCE_ROOT SANITIZE (meson's
# b_sanitize); VISTUDY is the build's program (lib.sh), the installed one
# is tested.
. "$(dirname "$0")/lib.sh" "$1"
build="$2" src="$3" sanitize="$4"

dest="$tmp/dest"
if ! meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log" >&2
  echo "install: meson install failed"
  exit 1
fi
# The prefix and directories this build installs into.
intro() {
  python3 -c 'import json,sys; o={x["name"]:x["value"] for x in json.load(open(sys.argv[1]))}; print(o[sys.argv[2]])' \
    "$build/meson-info/intro-buildoptions.json" "$1"
}
prefix=$(intro prefix)
root="$dest$prefix"
libdir="$root/$(intro libdir)"
inc="$root/$(intro includedir)/vistudy"
export PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$libdir/pkgconfig"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# What is installed, and what is not.
for f in "$libdir/libvistudy.a" "$libdir/libvistudy.so" "$libdir/pkgconfig/vistudy.pc" \
         "$root/bin/vistudy" "$inc/vistudy.h" "$inc/vistudy_methods.h" "$inc/fit.h" \
         "$inc/methods/galerkin.h" "$root/share/vistudy/published/wenger2017_table1_gauss.csv" \
         "$root/share/doc/vistudy/README.md" "$root/share/doc/vistudy/docs/library.md" \
         "$root/share/doc/vistudy/examples/order_study.c"; do
  [ -e "$f" ] && ok || bad "not installed: ${f#"$dest"}"
done
for f in kit_tmpl.h methods/kit_tmpl.h system_impl.h solve_impl_tmpl.h refcache.h spec.h \
         reference_impl_tmpl.h methods/nhprk_lie_tmpl.h; do
  [ ! -e "$inc/$f" ] && ok || bad "a private header is installed: $f"
done
grep -q 'tests/' "$inc/vistudy_methods.h" && bad "vistudy_methods.h names test-only families" || ok
# The installed registry: every family of methods.def, and the test-only
# ones exactly when this configuration builds them (-Dtest_families).
"$root/bin/vistudy" list methods >"$tmp/methods.txt" 2>&1
for id in $(sed -n 's/^VI_METHOD(\(.*\))$/\1/p' "$src/core/methods/methods.def"); do
  grep -q "^$id " "$tmp/methods.txt" && ok || bad "the installed vistudy lacks the family $id"
done
tf=$(intro test_families)
for id in $(sed -n 's/^VI_TEST_METHOD(\(.*\))$/\1/p' "$src/core/methods/methods.def"); do
  if grep -q "^$id " "$tmp/methods.txt"; then has=True; else has=False; fi
  [ "$has" = "$tf" ] && ok || bad "test-only family $id installed: $has, test_families: $tf"
done

# Sanitized builds: the examples link the sanitizers' runtimes too.
cflags=(-std=c11 -Wall -Wextra -Werror)
if [ "$sanitize" != none ]; then
  cflags+=("-fsanitize=$sanitize")
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1"
fi

# Every installed header alone (and twice: include guards).
for h in "$inc"/*.h "$inc"/methods/*.h; do
  name=${h#"$inc/"}
  case "$name" in prec.h | prec_undef.h | numerics_tmpl.h | api_tmpl.h) continue ;; esac
  printf '#include <vistudy/%s>\n#include <vistudy/%s>\nint main(void) { return 0; }\n' \
    "$name" "$name" >"$tmp/h.c"
  if cc "${cflags[@]}" $(pkg-config --cflags vistudy) -c "$tmp/h.c" -o "$tmp/h.o" 2>"$tmp/h.err"; then
    ok
  else
    bad "installed header $name does not compile alone"; cat "$tmp/h.err" >&2
  fi
done

# examples/order_study.c: shared, then static.
ex="$src/examples"
if cc "${cflags[@]}" "$ex/order_study.c" "$ex/bead.c" $(pkg-config --cflags --libs vistudy) -lm \
     -o "$tmp/order_study" 2>"$tmp/cc.err"; then
  ok
  if "$tmp/order_study" >"$tmp/os.out" 2>&1; then ok; else bad "order_study failed"; fi
  cat "$tmp/os.out"
  ldd "$tmp/order_study" | grep -q "$libdir/libvistudy.so" && ok ||
    bad "order_study does not use the installed shared library"
  # every declared order measured, and one line per quantity
  [ "$(grep -c ': ok$' "$tmp/os.out")" = 3 ] && ok || bad "order_study: not 3 orders ok"
else
  bad "examples/order_study.c does not build with pkg-config"; cat "$tmp/cc.err" >&2
fi
static_libs=$(pkg-config --static --libs vistudy | sed 's/-lvistudy\b//')
if cc "${cflags[@]}" "$ex/order_study.c" "$ex/bead.c" $(pkg-config --cflags vistudy) \
     "$libdir/libvistudy.a" $static_libs -o "$tmp/order_study_static" 2>"$tmp/cc.err"; then
  ok
  ldd "$tmp/order_study_static" | grep -q libvistudy && bad "static build links libvistudy.so" || ok
  "$tmp/order_study_static" >"$tmp/oss.out" 2>&1 && ok || bad "order_study (static) failed"
  cmp -s "$tmp/os.out" "$tmp/oss.out" && ok || bad "static and shared order_study differ"
else
  bad "examples/order_study.c does not link statically"; cat "$tmp/cc.err" >&2
fi

# examples/symplectic_euler.c: a stepper of one's own through conformance.
if [ -f "$ex/symplectic_euler.c" ]; then
  if cc "${cflags[@]}" "$ex/symplectic_euler.c" $(pkg-config --cflags --libs vistudy) -lm \
       -o "$tmp/se" 2>"$tmp/cc.err"; then
    ok
    if "$tmp/se" >"$tmp/se.out" 2>&1; then ok; else bad "symplectic_euler failed"; fi
    tail -3 "$tmp/se.out"
  else
    bad "examples/symplectic_euler.c does not build with pkg-config"; cat "$tmp/cc.err" >&2
  fi
else
  bad "examples/symplectic_euler.c is missing"
fi

# The installed program: its version, and each man page against --help.
V="$root/bin/vistudy"
"$V" --version | grep -qE '^vistudy [0-9]+\.[0-9]+\.[0-9]+( \(git [0-9a-f]+(-dirty)?\))?$' &&
  ok || bad "--version: '$("$V" --version)'"
man1="$root/$(intro mandir)/man1"
for page in "$man1"/*.1; do
  base=$(basename "$page" .1)
  cmd=${base#vistudy}
  cmd=${cmd#-}
  if [ -n "$cmd" ]; then "$V" "$cmd" --help >"$tmp/help.txt"; else "$V" --help >"$tmp/help.txt"; fi
  LC_ALL=C MANWIDTH=100 man -l "$page" 2>"$tmp/man.err" >"$tmp/man.txt"
  if python3 - "$tmp/help.txt" "$tmp/man.txt" "$base" <<'PY'; then ok; else bad "man $base differs from --help"; fi
import re, sys
help_words = open(sys.argv[1]).read().split()
if help_words and help_words[0] == "usage:":
    help_words = help_words[1:]
lines = open(sys.argv[2]).read().splitlines()
# the page between SYNOPSIS and SEE ALSO, without its section heading
body, inside = [], False
for line in lines:
    if line.strip() == "SYNOPSIS":
        inside = True
        continue
    if line.strip() == "SEE ALSO":
        break
    if inside and line.strip() != "DESCRIPTION":
        body.append(line)
man_words = " ".join(body).split()
if man_words != help_words:
    for i, (a, b) in enumerate(zip(help_words, man_words)):
        if a != b:
            print(f"{sys.argv[3]}: word {i}: help '{a}', man '{b}'", file=sys.stderr)
            break
    else:
        print(f"{sys.argv[3]}: {len(help_words)} words in --help, {len(man_words)} in man",
              file=sys.stderr)
    sys.exit(1)
PY
done
[ "$(ls "$man1" | wc -l)" = "$(( $("$V" --help | grep -cE '^  [a-z]') + 1 ))" ] && ok ||
  bad "man pages: $(ls "$man1" | tr '\n' ' ') for the commands of --help"

vi_test_end install
