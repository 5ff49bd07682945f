"""tools/baselines/before_after.py on two small runs written here: geomeans, the changed rows and their
speed-ups, --all, and a row present in one run only."""
import json
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "before_after.py"


def gemm_row(m, config, gflops, ratio):
    return {"op": "gemm", "m": m, "n": 8, "k": 4, "batch": 1, "trans_a": False, "trans_b": False,
            "config": config, "gflops": gflops, "ratio": ratio}


def run(tmp_path, before_rows, after_rows, *flags):
    paths = []
    for name, rows in (("before", before_rows), ("after", after_rows)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"rows": rows}))
        paths.append(str(path))
    return subprocess.run([sys.executable, str(TOOL), *paths, *flags], capture_output=True, text=True)


def test_changed_rows_and_their_speedups(tmp_path):
    before = [gemm_row(1, "a", 100, 0.5), gemm_row(2, "a", 100, 1.0), gemm_row(3, "b", 100, 2.0)]
    after = [gemm_row(1, "b", 400, 2.0), gemm_row(2, "a", 90, 0.9), gemm_row(3, "c", 100, 0.5)]
    out = run(tmp_path, before, after)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "before: 3 rows, geomean ratio 1.000"
    assert lines[1] == "after:  3 rows, geomean ratio 0.965"
    # Two rows changed configuration: speed-ups 4.0 and 1.0 (geomean 2.0); ratios 0.5, 2.0 -> 2.0, 0.5.
    assert lines[2] == "2 rows whose configuration changed: speed-up geomean 2.000 (min 1.00, max 4.00); ratio 1.000 -> 1.000"
    assert lines[3].split()[:3] == ["1.00", "3x8x4", "b1"] and "b -> c" in lines[3]
    assert lines[4].split()[:3] == ["4.00", "1x8x4", "b1"] and "a -> b" in lines[4]
    assert len(lines) == 5   # the unchanged row is not listed


def test_every_row_and_rows_of_one_run(tmp_path):
    before = [gemm_row(1, "a", 100, 1.0), gemm_row(2, "a", 100, 1.0)]
    after = [gemm_row(1, "a", 50, 0.5)]
    out = run(tmp_path, before, after, "--all")
    assert out.returncode == 1   # a row in one run only
    assert "2x8x4 b1 NN: in one run only" in out.stdout
    assert "1 rows: speed-up geomean 0.500 (min 0.50, max 0.50); ratio 1.000 -> 0.500" in out.stdout
