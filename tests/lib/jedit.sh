# jedit.sh — sourced by the hostile-input scripts: jedit FILE CODE edits a
# results file in place, CODE being Python statements on d (the document).
jedit() {
  python3 - "$1" "$2" <<'PY'
import json, sys
p, code = sys.argv[1], sys.argv[2]
d = json.load(open(p))
exec(code)
open(p, "w").write(json.dumps(d, indent=1))
PY
}
