#!/usr/bin/env bash
# A real `portkern tune conv2d` (CPU, a tiny shape set) killed with SIGKILL at random points, resumed after
# each kill, once more after a cut row (what a machine that stops mid-write leaves), then run to the end:
# the dataset must hold each (configuration, shape) row exactly once, every line a well-formed row, and the
# analysis pipeline (tools/tuning/analyze.py, the step behind `tune --deploy`) must deploy from it.
# Usage: tune_kill.sh PATH/TO/portkern [PYTHON]   (without PYTHON, the analysis step is left out, said so)
set -euo pipefail
portkern=$1
python=${2:-}
kills=${KILLS:-15}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf 'layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k\n3x3,3,1,9,9,5,9,9,7\n1x1,1,1,6,6,8,6,6,3\n5x5s2,5,2,11,11,4,4,4,6\n' \
  > "$dir/layers.csv"
csv=$dir/conv.csv
tune=("$portkern" tune conv2d --device cpu --nets "$dir/layers.csv" --batches 1 2 3 --time-ms 10 --pause-ms 0
      --threads 1 --out "$csv")

RANDOM=${SEED:-$$}
killed=0
for ((i = 1; i <= kills; ++i)); do
  "${tune[@]}" 2> "$dir/log.$i" &
  pid=$!
  if (( i == kills / 2 + 1 )); then   # the run after the cut row: until it has repaired it (a slow host
    for ((wait_steps = 0; wait_steps < 100; ++wait_steps)); do   # may take longer than 0.4 s to start)
      grep -q "the last row was cut short" "$dir/log.$i" 2> /dev/null && break
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    sleep 0.1
  else
    sleep "0.$(( RANDOM % 5 ))$(( RANDOM % 10 ))"   # 0 to 0.49 s
  fi
  if kill -KILL "$pid" 2> /dev/null; then killed=$((killed + 1)); fi
  wait "$pid" 2> /dev/null || true
  if (( i == kills / 2 )); then   # the machine stopped in the middle of a write
    tail -n 1 "$csv" | cut -c1-25 | tr -d '\n' >> "$csv"
    cut_at=$i
  fi
  if grep -q "^error:" "$dir/log.$i"; then cat "$dir/log.$i"; fail "run $i failed"; fi
done
(( killed >= kills / 2 )) || fail "only $killed of $kills runs were killed before they ended: the shape set is too small"
grep -q "warning: .*the last row was cut short" "$dir/log.$((cut_at + 1))" || fail "the resume after a cut row did not repair it: $(head -3 "$dir/log.$((cut_at + 1))")"

"${tune[@]}" 2> "$dir/log.final" || { cat "$dir/log.final"; fail "the last run failed"; }
"${tune[@]}" 2> "$dir/log.again"
grep -q ": 0 to measure" "$dir/log.again" || fail "a run after the end measured again: $(head -1 "$dir/log.again")"

# "tuning conv2d: C configurations x S shapes on cpu: ..."
expected=$(( $(head -1 "$dir/log.again" | sed -E 's/.* ([0-9]+) configurations x ([0-9]+) shapes.*/\1 * \2/') ))
(( expected > 0 )) || fail "nothing to measure: $(head -1 "$dir/log.again")"
[[ $(tail -c 1 "$csv" | od -An -c | tr -d ' ') == '\n' ]] || fail "$csv does not end with a newline"
rows=$(( $(wc -l < "$csv") - 1 ))
[[ $rows == "$expected" ]] || fail "$csv: $rows rows, expected $expected (one per configuration and shape)"
malformed=$(tail -n +2 "$csv" | grep -Evc '^[a-z0-9-]+,conv2d,[a-z_0-9]+,[a-z_0-9]+/[a-z_0-9]+(,[0-9]+){13},[0-9.e+-]+,[0-9.]*,[0-9]+$' || true)
(( malformed == 0 )) || fail "$csv: $malformed malformed rows"
keys=$(tail -n +2 "$csv" | cut -d, -f3-17 | sort -u | wc -l)
[[ $keys == "$expected" ]] || fail "$csv: $keys distinct (configuration, shape) keys in $rows rows"
echo "$killed kills, a cut row repaired, $rows rows, each (configuration, shape) once"

if [[ -z $python ]]; then
  echo "OK: no Python environment (make venv): the analysis step was not run"
  exit 0
fi
device_class=$(sed -n 2p "$csv" | cut -d, -f1)
"$python" "$(dirname "$0")/../../tools/tuning/analyze.py" "$csv" --out "$dir/analysis" --op conv2d \
  --device "$device_class" --deploy-header "$dir/conv2d.hpp" --device-class "$device_class" > "$dir/analysis.log" 2>&1 \
  || { tail -20 "$dir/analysis.log"; fail "the analysis of the dataset failed"; }
grep -q "struct conv2d" "$dir/conv2d.hpp" || fail "the analysis wrote no deployment header"
echo "OK: tune conv2d survives $killed kills and a cut row; the dataset deploys"
