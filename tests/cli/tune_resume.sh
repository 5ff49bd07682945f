#!/usr/bin/env bash
# `portkern tune` keeps its promise on a tiny problem set, for conv2d and GEMM alike: one row per
# (configuration, shape), with a configuration that does not apply recorded as gflops 0 and reps 0; a second
# run measures nothing; a row cut short by an interruption is reported, measured again and nothing else is
# (tune_kill.sh kills real runs).
# Usage: tune_resume.sh PATH/TO/portkern
set -euo pipefail
portkern=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# $1: CSV; the rest: the tune command.
check_resume() {
  local csv=$1; shift
  "$@" --out "$csv" 2> "$dir/log" || { cat "$dir/log"; fail "$* failed"; }
  # "tuning ... C configurations x S shapes on cpu: N to measure, 0 already in ..."
  local expected=$(head -1 "$dir/log" | sed -E 's/.* ([0-9]+) configurations x ([0-9]+) shapes.*/\1 * \2/')
  expected=$(( expected ))
  (( expected > 0 )) || fail "nothing to measure: $(head -1 "$dir/log")"
  local rows=$(( $(wc -l < "$csv") - 1 ))
  [[ $rows == "$expected" ]] || fail "$csv: $rows rows, expected $expected"
  local keys=$(tail -n +2 "$csv" | cut -d, -f3- | rev | cut -d, -f4- | rev | sort -u | wc -l)
  [[ $keys == "$expected" ]] || fail "$csv: $keys distinct (configuration, shape) keys in $rows rows"
  cp "$csv" "$dir/first"
  "$@" --out "$csv" 2> "$dir/log"
  cmp -s "$csv" "$dir/first" || fail "$csv: a second run changed the dataset"
  grep -q ": 0 to measure" "$dir/log" || fail "a second run measured again: $(head -1 "$dir/log")"
  # an older tuner's interruption: the last row cut in the middle, then a newline
  head -n -1 "$dir/first" > "$csv"
  tail -n 1 "$dir/first" | cut -c1-20 | tr -d '\n' >> "$csv"
  echo >> "$csv"
  "$@" --out "$csv" 2> "$dir/log"
  grep -q ": 1 to measure" "$dir/log" || fail "after a cut row: $(head -3 "$dir/log")"
  grep -q "warning: .*1 lines are not rows (the first: line $(( expected + 1 )))" "$dir/log" \
    || fail "the cut row was not reported: $(head -3 "$dir/log")"
  [[ $(grep -c . "$csv") == $(( expected + 2 )) ]] || fail "$csv: expected the cut row plus $expected whole rows"
}

printf 'layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k\n3x3,3,1,9,9,5,9,9,7\n1x1,1,1,6,6,8,6,6,3\n' > "$dir/layers.csv"
check_resume "$dir/conv.csv" \
  "$portkern" tune conv2d --device cpu --nets "$dir/layers.csv" --batches 1 2 --time-ms 1 --pause-ms 0 --threads 1
head -1 "$dir/conv.csv" | grep -q '^device,op,family,config,batch,in_h,in_w,in_c,out_h,out_w,out_c,window_h,window_w,stride_h,stride_w,pad_h,pad_w,gflops,time_ms,reps$' \
  || fail "conv2d header: $(head -1 "$dir/conv.csv")"
grep -q ',winograd,winograd/f4,1,6,6,8,6,6,3,1,1,1,1,0,0,0,,0$' "$dir/conv.csv" || fail "winograd on a 1x1 window is not recorded as not applying"
grep -Eq ',gemm_1x1,gemm_1x1/default,2,6,6,8,6,6,3,1,1,1,1,0,0,[0-9.e+-]+,[0-9.]+,[1-9][0-9]*$' "$dir/conv.csv" \
  || fail "gemm_1x1 on a 1x1 window has no time"

printf 'm,k,n,batch\n17,5,3,1\n4,9,11,2\n' > "$dir/gemm.csv"
check_resume "$dir/gemm-out.csv" \
  "$portkern" tune gemm --device cpu --family cpu_packed --shapes "$dir/gemm.csv" --time-ms 1 --pause-ms 0 --threads 1
echo "OK: tune conv2d and tune gemm resume"
