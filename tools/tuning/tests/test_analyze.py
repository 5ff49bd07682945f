"""analyze.py's command line on a one-family dataset, with the header option."""
import json
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, TUNING

import classify


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_command_line_writes_tables_plot_selection_and_header(dataset_csv, tmp_path):
    out = tmp_path / "out"
    header = tmp_path / "deploy" / "cpu-avx512" / "gemm.hpp"
    proc = subprocess.run([sys.executable, str(TUNING / "analyze.py"), str(dataset_csv), "--out", str(out),
                           "--family", "tiled", "--n-max", "5", "--normalisations", "standard,raw_cutoff",
                           "--methods", "top_n,kmeans/geomean,hdbscan/centroid,spectral/centroid",
                           "--deploy-header", str(header), "--device-class", "cpu-avx512"],
                          capture_output=True, text=True, check=True)
    assert "Recommended deployment" in proc.stdout and "DecisionTreeA" in proc.stdout
    sel = json.loads((out / "selection.json").read_text())
    assert sel["family_tree"] is None and len(sel["families"]) == 1
    assert sel["classifier"].startswith(classify.DEPLOYABLE)
    assert (out / "selection_vs_n.png").stat().st_size > 1000
    text = header.read_text()
    assert "namespace portkern::deploy::cpu_avx512 {" in text and "static int select_tiled(" in text
    subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-I", str(ROOT / "include"), "-x", "c++", str(header)],
                   check=True)
