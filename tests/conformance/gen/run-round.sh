#!/usr/bin/env bash
# run-round.sh OUTDIR SEED COUNT [AREAS]: generate, ask the real OpenClaw, check sbx.
# GEN names the generator (default gen-configs.py; gen-conf7.py takes SEED COUNT [valid]).
# OUTDIR must be outside /tmp (the oracle and the check run on a private /tmp).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; seed="$2"; count="$3"; areas="${4:-}"
SBX="${SBX:-$HERE/../../../build/sbx}"
mkdir -p "$out"
python3 "$HERE/${GEN:-gen-configs.py}" "$seed" "$count" $areas > "$out/cases.jsonl"
bash "$HERE/oracle-batch.sh" < "$out/cases.jsonl" > "$out/ans.jsonl"
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
