"""tools/baselines/sweep_report.py on small runs written here: the sweep's fastest configuration per shape, the
chosen one's loss against it, both geomean ratios, a choice faster than every forced configuration, and a shape
missing from the chosen run."""
import json
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "sweep_report.py"


def gemm_row(m, config, gflops, ratio):
    # 2 * m * 500 * 1000 operations: 1e6 * m FLOP, so 1000 GFLOP/s is m microseconds.
    return {"op": "gemm", "m": m, "n": 500, "k": 1000, "batch": 1, "trans_a": False, "trans_b": False,
            "config": config, "gflops": gflops, "ratio": ratio}


def run(tmp_path, chosen, *sweeps):
    paths = []
    for name, rows in (("chosen", chosen), *((f"sweep{i}", s) for i, s in enumerate(sweeps))):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"rows": rows}))
        paths.append(str(path))
    return subprocess.run([sys.executable, str(TOOL), *paths], capture_output=True, text=True)


def test_best_of_the_sweep_and_the_choice_loss(tmp_path):
    chosen = [gemm_row(1, "w64_s2", 500, 0.5), gemm_row(2, "w128", 1000, 1.0)]
    sweep_a = [gemm_row(1, "w64", 1000, 1.0), gemm_row(2, "w64", 500, 0.5)]
    sweep_b = [gemm_row(1, "w128", 250, 0.25), gemm_row(2, "w256", 2000, 2.0)]
    out = run(tmp_path, chosen, sweep_a, sweep_b)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # Shape 1: chosen 2 us, best w64 at 1 us (2.00); shape 2: chosen 2 us, best w256 at 1 us (2.00).
    assert lines[0].split()[0] == "2.00" and "best w64 1.0 us" in lines[0] and "chose w64_s2 2.0 us" in lines[0]
    assert lines[1].split()[0] == "2.00" and "best w256 1.0 us" in lines[1]
    assert lines[2] == ("2 shapes: chosen / best time geomean 2.000 (max 2.00); ratio to the vendor: chosen 0.707, "
                        "best of the sweep 1.414")


def test_a_choice_faster_than_the_sweep_and_a_missing_shape(tmp_path):
    chosen = [gemm_row(1, "auto", 2000, 2.0)]
    sweep = [gemm_row(1, "w64", 1000, 1.0), gemm_row(2, "w64", 1000, 1.0)]
    out = run(tmp_path, chosen, sweep)
    assert out.returncode == 1   # shape 2 is not in the chosen run
    assert "2x500x1000 b1 NN: not in the chosen run" in out.stdout
    assert "1 shapes: chosen / best time geomean 1.000 (max 1.00); ratio to the vendor: chosen 2.000, best of the sweep 2.000" in out.stdout
