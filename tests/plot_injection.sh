#!/usr/bin/env bash
# Input text never reaches gnuplot as script: method,
# dataset, series and machine names from a copied results JSON go into the
# generated .gp files only as quoted string literals, so a key like
#   dlb' ; system 'touch PWNED' ; #
# or one with a newline, a backquote command or an @macro runs nothing, and
# the plots are still drawn.  Skipped when gnuplot is not installed.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
here=$PWD/tests
if ! command -v gnuplot >/dev/null; then echo "skip: gnuplot not installed"; exit 0; fi

mkdir "$tmp/run" "$tmp/rep" "$tmp/cwd"
cp "$here/fixtures/run-a/cpu.json" "$here/fixtures/run-a/bounds.json" "$here/fixtures/run-a/spheres.json" "$tmp/run/"
P="$tmp/PWNED"
python3 - "$tmp/run" "$P" <<'EOF'
import json, sys
run, pw = sys.argv[1], sys.argv[2]
evil = [
    "dlb' ; system 'touch %s-quote' ; #" % pw,
    "nl\nsystem 'touch %s-newline'\n" % pw,
    "bq `touch %s-backquote`" % pw,
    'dq" ; system "touch %s-dquote" ; #' % pw,
    "mac @evil \\' ; system 'touch %s-backslash' #" % pw,
]
c = json.load(open(run + "/cpu.json"))
c["machine"]["key"] = "host' ; system 'touch %s-machine' ; #\nx" % pw
for ds in c["datasets"].values():
    ms = ds["ms"]
    for i, k in enumerate(list(ms)[:len(evil)]):
        ms[evil[i]] = ms.pop(k)
ds0 = list(c["datasets"])[0]
c["datasets"]["ds' ; system 'touch %s-dataset' ; #\n" % pw] = c["datasets"].pop(ds0)
json.dump(c, open(run + "/cpu.json", "w"))
# the run's one machine key, in every file (a key in one file alone is another run's file: refused)
import os
for f in os.listdir(run):
    if f.endswith(".json") and f != "cpu.json":
        d = json.load(open(os.path.join(run, f)))
        if isinstance(d, dict) and isinstance(d.get("machine"), dict):
            d["machine"]["key"] = c["machine"]["key"]
            json.dump(d, open(os.path.join(run, f), "w"))
s = json.load(open(run + "/spheres.json"))
for d in s.get("datasets", {}).values():
    for lv in d.get("levels", []):
        if isinstance(lv, dict):
            for k in [k for k in lv if isinstance(lv[k], dict)][:1]:
                lv[evil[0].replace("quote", "spheres")] = lv.pop(k)
json.dump(s, open(run + "/spheres.json", "w"))
EOF

(cd "$tmp/cwd" && "$exe" report --results "$tmp/run" --out "$tmp/rep") >"$tmp/out" 2>&1
ls "$tmp"/PWNED* "$tmp"/cwd/PWNED* "$tmp"/rep/plots/PWNED* "$tmp"/rep/PWNED* 2>/dev/null | grep -q . \
  && bad "a command from the results JSON ran: $(ls "$tmp"/PWNED* "$tmp"/*/PWNED* "$tmp"/rep/plots/PWNED* 2>/dev/null)" || ok
# the CPU plot is drawn with the hostile names as its (quoted) key titles
gp=$(ls "$tmp"/rep/plots/cpu-times*.gp 2>/dev/null | head -1)
if [ -z "$gp" ]; then bad "no cpu-times script written ($(tail -3 "$tmp/out"))"; else
  [ -s "${gp%.gp}.png" ] && [ -s "${gp%.gp}.svg" ] && ok || bad "cpu-times plot not drawn: $(cat "${gp%.gp}.log" 2>/dev/null | head -5)"
  grep -qF "title 'dlb'' ; system ''touch" "$gp" && ok || bad "hostile key not quoted as a title in $gp"
  # every line of the script is a command we generated: none starts with input text
  grep -vE "^(#|set |unset |plot |$)" "$gp" && bad "unexpected script line(s) in $gp (a newline got through)" || ok
fi
sp=$(ls "$tmp"/rep/plots/sphere-radii*.gp 2>/dev/null | head -1)
[ -n "$sp" ] && [ -s "${sp%.gp}.png" ] && ok || bad "sphere plot not drawn"

summary plot_injection
