"""Precisions in the tuning pipeline: the arithmetic of configuration names, what each precision allows (the
same table as include/portkern/precision.hpp), the rows a deployment for a precision keeps, and the header
of such a deployment (its own struct, naming its precision, compiling beside the default one)."""
import json
import shutil
import subprocess

import pandas as pd
import pytest

import codegen
import dataset
import precision
from conftest import ROOT


def test_arithmetic_is_in_the_names():
    assert precision.arithmetic("tiled/r8a1c4_wg8x16_staged_k32_s2_x3") == "tf32x3"
    assert precision.arithmetic("tiled/r8a1c4_wg8x16_staged_k32_s2_tf32") == "tf32"
    assert precision.arithmetic("implicit/r8a1c8_wg16x16_staged_k32_s3_tf32") == "tf32"
    assert precision.arithmetic("tiled/r4a1c4_wg16x8_staged_k16_s2") == "ieee"
    assert precision.arithmetic("cuda_native/tf32x3") == "tf32x3"
    assert precision.arithmetic("cuda_native/auto", "accurate") == "tf32x3"
    assert precision.arithmetic("cuda_native/auto", "ieee") == "ieee"


def test_allows_matches_the_library():
    table = {(p, a): precision.allows(p, a) for p in precision.PRECISIONS for a in ("ieee", "tf32x3", "tf32")}
    assert [a for (p, a), ok in table.items() if p == "ieee" and ok] == ["ieee"]
    assert [a for (p, a), ok in table.items() if p == "accurate" and ok] == ["ieee", "tf32x3"]
    assert [a for (p, a), ok in table.items() if p == "tf32" and ok] == ["ieee", "tf32x3", "tf32"]
    with pytest.raises(ValueError):
        precision.allows("fp16", "ieee")


def test_adaptive_rows_count_only_where_they_compute_alike():
    # cuda_native/auto measured at the default precision computes there as at tf32, not as at ieee
    assert precision.usable("cuda_native/auto", "tf32")
    assert not precision.usable("cuda_native/auto", "ieee")
    assert precision.usable("cuda_native/simt", "ieee")
    # implicit_wgmma runs as im2col at ieee: its tensor-core rows serve accurate and tf32 deployments only
    assert precision.usable("implicit_wgmma/default", "accurate") and precision.usable("implicit_wgmma/default", "tf32")
    assert not precision.usable("implicit_wgmma/default", "ieee")
    assert not precision.usable("tiled/r8a1c4_wg8x16_staged_k32_s2_x3", "ieee")
    assert not precision.usable("tiled/r8a1c4_wg8x16_staged_k32_s2_tf32", "accurate")


def test_load_keeps_what_the_precision_allows(tmp_path):
    configs = ["tiled/r4a1c4_wg16x8_staged_k16_s2", "tiled/r8a1c4_wg8x16_staged_k32_s2_x3",
               "tiled/r8a1c4_wg8x16_staged_k32_s2_tf32", "cuda_native/auto"]
    rows = [{"device": "gpu", "op": "gemm", "family": c.split("/")[0], "config": c, "m": m, "n": 64, "k": 64,
             "batch": 1, "trans_a": 0, "trans_b": 0, "gflops": 100.0 + i, "time_ms": 1.0, "reps": 3}
            for m in (64, 128) for i, c in enumerate(configs)]
    path = tmp_path / "rows.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    kept = {p: set(dataset.load([path], precision=p).configs) for p in precision.PRECISIONS}
    assert kept["ieee"] == {configs[0]}
    assert kept["accurate"] == {configs[0], configs[1], configs[3]}
    assert kept["tf32"] == set(configs)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_header_for_a_precision_is_its_own_struct(tmp_path):
    selection = {"op": "gemm", "precision": "ieee", "device": "gpu", "datasets": ["x.csv"], "generated": "2026-01-01",
                 "score": 0.9, "n_configs": 1, "selection": "top_n", "classifier": "none", "family_tree": None,
                 "families": [{"name": "tiled", "configs": ["tiled/r4a1c4_wg16x8_staged_k16_s2"], "tree": None}]}
    ieee = codegen.header(json.loads(json.dumps(selection)), "cuda-test")
    assert "struct gemm_ieee {" in ieee and "static constexpr Precision precision = Precision::ieee;" in ieee
    default = codegen.header({**selection, "precision": "accurate"}, "cuda-test")
    assert "struct gemm {" in default and "Precision" not in default
    (tmp_path / "gemm.hpp").write_text(default)
    (tmp_path / "gemm_ieee.hpp").write_text(ieee)
    (tmp_path / "main.cpp").write_text(
        '#include "gemm.hpp"\n#include "gemm_ieee.hpp"\n'
        "static_assert(portkern::deploy::cuda_test::gemm_ieee::precision == portkern::Precision::ieee);\n"
        "int main() { return portkern::deploy::cuda_test::gemm_ieee::select_tiled({}) + "
        "portkern::deploy::cuda_test::gemm::select_tiled({}); }\n")
    subprocess.run(["g++", "-std=c++20", "-Wall", "-Wextra", "-Werror", "-I", str(ROOT / "include"), "-I",
                    str(tmp_path), str(tmp_path / "main.cpp"), "-o", str(tmp_path / "main")], check=True)
    assert subprocess.run([str(tmp_path / "main")]).returncode == 0
