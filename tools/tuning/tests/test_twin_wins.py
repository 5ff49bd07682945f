"""twin_wins.py: the shapes where a native family's best beats the portable family's, with their reason."""
import csv

import twin_wins

HEADER = "device,op,family,config,m,n,k,batch,trans_a,trans_b,gflops,time_ms,reps"


def write(tmp_path, rows):
    path = tmp_path / "data.csv"
    path.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    return str(path)


def test_lists_only_shapes_the_twin_wins_by_more_than_the_margin_worst_first(tmp_path):
    data = write(tmp_path, [
        # gemv: the twin twice as fast
        "d,gemm,tiled,tiled/a,1,4096,4096,1,0,0,10,1,3", "d,gemm,tiled,tiled/b,1,4096,4096,1,0,0,12,1,3",
        "d,gemm,cpu_packed,cpu_packed/default,1,4096,4096,1,0,0,24,1,3",
        # a large GEMM the portable family wins
        "d,gemm,tiled,tiled/a,2048,2048,2048,1,0,0,200,1,3", "d,gemm,tiled,tiled/b,2048,2048,2048,1,0,0,190,1,3",
        "d,gemm,cpu_packed,cpu_packed/default,2048,2048,2048,1,0,0,195,1,3",
        # within the margin: not listed
        "d,gemm,tiled,tiled/a,512,512,512,1,0,0,100,1,3", "d,gemm,tiled,tiled/b,512,512,512,1,0,0,90,1,3",
        "d,gemm,cpu_packed,cpu_packed/default,512,512,512,1,0,0,101,1,3",
        # shallow: k = 3, the twin 1.25x
        "d,gemm,tiled,tiled/a,12544,64,3,16,0,0,40,1,3", "d,gemm,tiled,tiled/b,12544,64,3,16,0,0,30,1,3",
        "d,gemm,cpu_packed,cpu_packed/default,12544,64,3,16,0,0,50,1,3",
    ])
    rows = twin_wins.twin_wins(data, margin=0.02)
    assert [(r["m"], r["n"], r["k"], r["reason"]) for r in rows] == [(1, 4096, 4096, "gemv"), (12544, 64, 3, "shallow")]
    assert rows[0]["tiled_over_native"] == 0.5 and rows[0]["native"] == "cpu_packed/default"
    assert rows[1]["tiled_gflops"] == 40 and rows[1]["native_gflops"] == 50


def test_writes_a_csv(tmp_path):
    data = write(tmp_path, ["d,gemm,tiled,tiled/a,64,64,64,1,0,0,1,1,3",
                            "d,gemm,cuda_native,cuda_native/simt,64,64,64,1,0,0,3,1,3"])
    out = tmp_path / "wins.csv"
    twin_wins.main([data, "--out", str(out)])
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 1 and rows[0]["reason"] == "tiny" and rows[0]["native"] == "cuda_native/simt"
