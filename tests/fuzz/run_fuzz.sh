#!/usr/bin/env bash
# Runs one fuzz target for a bounded time from its seed corpus (tests/fuzz/corpus/<target>/; the inputs it
# finds go to a scratch folder, the repository's corpus is only read). A crash leaves its input in the
# scratch folder's parent, named in the output. Usage: run_fuzz.sh BUILD_DIR TARGET SECONDS
set -euo pipefail
build=$1 target=$2 seconds=$3
seeds=$(cd "$(dirname "$0")" && pwd)/corpus/$target
binary=$build/fuzz_$target
if [[ ! -x $binary ]]; then
  echo "SKIPPED: $binary was not built (no clang++-14 with libFuzzer: see tests/fuzz/CMakeLists.txt)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cd "$work"
# -rss_limit_mb: the targets allocate at most a few MB per input; -timeout: no input may take a second.
if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
     "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     "$work/corpus" "$seeds" > log 2>&1; then
  tail -60 log
  for crash in crash-* timeout-* leak-* oom-*; do
    [[ -e $crash ]] && { echo "input ($crash), base64:"; base64 -w0 "$crash"; echo; }
  done
  echo "FAIL: fuzz_$target found a crash"
  exit 1
fi
grep -E "stat::number_of_executed_units|cov:" log | tail -2
echo "OK: fuzz_$target ran ${seconds}s without a crash"
