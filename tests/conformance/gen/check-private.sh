#!/usr/bin/env bash
# check-private.sh SBX CORPUS.jsonl [check.sh options]: ../corpus/check.sh in a private
# mount namespace with its own /tmp, so /tmp/sbx-conf-home is not shared with a
# conformance run going on beside it (root only).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SBX="$(readlink -f "$1")"; CASES="$(readlink -f "$2")"; shift 2
exec unshare -m --propagation private sh -c 'mount -t tmpfs -o mode=1777 tmpfs /tmp && exec bash "$@"' \
  check-private "$HERE/../corpus/check.sh" "$SBX" "$CASES" "$@"
