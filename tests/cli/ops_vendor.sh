#!/usr/bin/env bash
# `bench ops` on the CPU carries oneDNN beside the portable kernel where oneDNN has the primitive: on concat
# (a vendor row) and flip (none), --size small, one thread, every row has the vendor fields; where the build
# found oneDNN ($2 = 1) each concat row has oneDNN's time, implementation and error within its tolerance, its
# ratio is vendor time / portable time, and "ok" includes the vendor's check. flip's vendor fields are null.
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
print("OK: bench ops rows carry the vendor's time, implementation and error" if have_onednn else
      "OK: bench ops rows carry null vendor fields (a build without oneDNN)")
PY
