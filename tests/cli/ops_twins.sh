#!/usr/bin/env bash
# Every native CUDA twin (portkern_twins) against the float64 reference: `portkern bench ops --size small` on
# the first GPU runs each of the 20 operators' portable kernel and its twin on the same inputs, each over a
# poisoned output buffer (an in-place twin on fresh input), and a row is ok only when both are within the
# operator's tolerance (tools/bench/ops/<op>.cpp). Every row must also carry the twin's time, so no twin is
# left unmeasured. Without a GPU (or in a CPU-only build) it says SKIPPED.
set -euo pipefail
cli=$1
devices=$("$cli" info --no-measure 2>/dev/null || true)
if ! grep -qE '^cuda:0 ' <<<"$devices"; then
  echo "SKIPPED: no CUDA device"
  exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cli" bench ops --device cuda:0 --size small --json "$dir/ops.json" > "$dir/ops.txt"
python3 - "$dir/ops.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
rows = data["rows"] if isinstance(data, dict) else data
ops = sorted({r["op"] for r in rows})
bad = [r for r in rows if not r["ok"] or r["native_time_ms"] is None]
for r in bad:
    print(f"FAILED: {r['op']} {r['variant']}: max_error {r['max_error']} tolerance {r['tolerance']} "
          f"native_time_ms {r['native_time_ms']}")
assert len(ops) == 20, f"{len(ops)} operators: {ops}"
assert not bad, f"{len(bad)} of {len(rows)} rows failed"
print(f"OK: {len(rows)} rows, {len(ops)} operators, every twin within its operator's tolerance")
PY
