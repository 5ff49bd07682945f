#!/usr/bin/env bash
# `bench ops` on the CPU carries oneDNN beside the portable kernel where oneDNN has the primitive: on concat
# (a vendor row) and flip (none), --size small, one thread, every row has the vendor fields; where the build
# found oneDNN ($2 = 1) each concat row has oneDNN's time, implementation and error within its tolerance, its
# ratio is vendor time / portable time, and "ok" includes the vendor's check. flip's vendor fields are null.
# tools/ops/vendor_table.py turns the runs into the docs' table: one line per vendor row, the best times.
set -euo pipefail
cli=$1
have_onednn=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for op in concat flip; do
  "$cli" bench ops --device cpu --size small --threads 1 --op $op --json "$dir/$op.json" > "$dir/$op.txt"
done
python3 - "$dir" "$have_onednn" <<'PY'
import json, sys
folder, have_onednn = sys.argv[1], sys.argv[2] == "1"
fields = ["vendor", "vendor_impl", "vendor_time_ms", "vendor_gbps", "vendor_max_error", "vendor_tolerance",
          "portable_vs_vendor", "vendor_note"]
for op in ("concat", "flip"):
    rows = json.load(open(f"{folder}/{op}.json"))["rows"]
    assert rows, op
    for r in rows:
        assert all(f in r for f in fields), (op, r)
        assert r["ok"] == (r["max_error"] <= r["tolerance"] and
                           (r["vendor_time_ms"] is None or r["vendor_max_error"] <= r["vendor_tolerance"])), r
        if op == "flip" or not have_onednn:
            assert all(r[f] is None for f in fields), (op, r)
            continue
        assert r["vendor"] == "onednn" and isinstance(r["vendor_impl"], str) and r["vendor_impl"], r
        assert r["vendor_time_ms"] > 0 and r["vendor_gbps"] > 0, r
        assert r["vendor_max_error"] <= r["vendor_tolerance"] and r["ok"], r
        assert abs(r["portable_vs_vendor"] - r["vendor_time_ms"] / r["time_ms"]) < 1e-9 * r["portable_vs_vendor"], r
    text = open(f"{folder}/{op}.txt").read()
    assert ("vendor/portable" in text) == (have_onednn and op == "concat"), text
print("checked: bench ops rows carry the vendor's time, implementation and error" if have_onednn else
      "checked: bench ops rows carry null vendor fields (a build without oneDNN)")
PY
if [ "$have_onednn" = 1 ]; then
  "$cli" bench ops --device cpu --size small --threads 1 --op concat --json "$dir/concat2.json" > /dev/null
  python3 "$(dirname "$0")/../../tools/ops/vendor_table.py" "$dir/concat.json" "$dir/concat2.json" "$dir/flip.json" > "$dir/table.md"
  python3 - "$dir" <<'PY'
import json, sys
folder = sys.argv[1]
runs = [json.load(open(f"{folder}/{name}.json"))["rows"] for name in ("concat", "concat2")]
lines = [l for l in open(f"{folder}/table.md").read().splitlines() if l.startswith("| concat |")]
assert len(lines) == len(runs[0]), lines
for row, line in zip(runs[0], lines):
    cells = [c.strip() for c in line.strip("|").split("|")]
    other = next(r for r in runs[1] if r["variant"] == row["variant"])
    best, vendor = min(row["time_ms"], other["time_ms"]), min(row["vendor_time_ms"], other["vendor_time_ms"])
    assert abs(float(cells[2]) - best) <= 0.006 * best, (cells, best)   # printed to 3 significant digits
    assert abs(float(cells[6].split()[0]) - vendor / best) <= 0.001, (cells, vendor / best)
assert "memory-bound rows" in open(f"{folder}/table.md").read()
print("checked: vendor_table.py gives the best times of the runs")
PY
fi
echo "OK: the vendor columns of bench ops (and their table)"
