#!/bin/bash
# run-fuzz.sh FUZZER SEEDS SECONDS: a short libFuzzer run on a scratch corpus
# seeded from SEEDS (the source tree is never written).
set -eu
fuzzer=$1 seeds=$2 secs=$3
corpus=$(mktemp -d /tmp/sbx-fuzz-corpus.XXXXXX)
trap 'rm -rf "$corpus"' EXIT
cp "$seeds"/* "$corpus"/ 2>/dev/null || true
"$fuzzer" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 -timeout=20 "$corpus"
