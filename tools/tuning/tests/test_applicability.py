"""The applicability features of features.py (`gemm_1x1_applies`, `winograd_applies`), which the generated
conv2d trees test, against the library's own rules (the conv2d registry's why_not, src/conv2d/<algorithm>/):
`portkern select conv2d --json` reports which algorithms apply to each shape, and the features must say the
same, so that Python and C++ cannot drift; and the layer lists keyed as the library reads them. Needs the CLI
(PORTKERN_CLI, set by CTest); skipped without it."""
from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

import dataset
import features

ROOT = Path(__file__).resolve().parents[3]
CLI = os.environ.get("PORTKERN_CLI")


def synthetic_layers(path: Path) -> None:
    """Windows 1-7 at strides 1-2, each unpadded and padded (layer_desc pads when out != (in - w)/s + 1)."""
    rows = ["layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k"]
    for window in (1, 2, 3, 5, 7):
        for stride in (1, 2):
            size = 17
            valid = (size - window) // stride + 1
            same = (size + 2 * ((window - 1) // 2) - window) // stride + 1
            rows.append(f"w{window}s{stride}v,{window},{stride},{size},{size},8,{valid},{valid},16")
            if same != valid:
                rows.append(f"w{window}s{stride}p,{window},{stride},{size},{size},8,{same},{same},16")
    path.write_text("\n".join(rows) + "\n")


BATCHES = (1, 3)


@dataclass
class Selection:
    """The layer lists (the synthetic one, then every data/shapes/conv_*.csv) and the rows `portkern select conv2d
    --json` reports for them at BATCHES."""
    lists: list[Path]
    rows: list[dict]


@pytest.fixture(scope="module")
def selection(tmp_path_factory: pytest.TempPathFactory) -> Selection:
    if not CLI:
        pytest.skip("PORTKERN_CLI not set (run through CTest)")
    folder = tmp_path_factory.mktemp("select")
    synthetic = folder / "synthetic.csv"
    synthetic_layers(synthetic)
    out = folder / "select.json"
    lists = [synthetic] + sorted((ROOT / "data" / "shapes").glob("conv_*.csv"))
    subprocess.run([CLI, "select", "conv2d", "--nets", *map(str, lists), "--batches", *map(str, BATCHES),
                    "--json", str(out)], check=True, capture_output=True, cwd=ROOT)
    return Selection(lists, json.loads(out.read_text())["rows"])


def test_features_agree_with_the_library_rules(selection: Selection) -> None:
    # Grouped and depthwise layers (conv_grouped.csv) are left out: the features describe dense convolutions, the
    # shape columns of the tuning data have no groups, and every dense algorithm declines groups.
    all_rows = selection.rows
    rows = [r for r in all_rows if r["groups"] == 1]
    assert all(not r["applies"][a] for r in all_rows if r["groups"] != 1 for a in ("gemm_1x1", "winograd", "im2col"))
    shapes = pd.DataFrame({
        "batch": [r["batch"] for r in rows], "in_h": [r["in_h"] for r in rows], "in_w": [r["in_w"] for r in rows],
        "in_c": [r["in_c"] for r in rows], "out_h": [r["out_h"] for r in rows], "out_w": [r["out_w"] for r in rows],
        "out_c": [r["out_k"] for r in rows], "window_h": [r["window"] for r in rows],
        "window_w": [r["window"] for r in rows], "stride_h": [r["stride"] for r in rows],
        "stride_w": [r["stride"] for r in rows], "pad_h": [r["pad_h"] for r in rows], "pad_w": [r["pad_w"] for r in rows]})
    names = ("gemm_1x1_applies", "winograd_applies")
    computed = features.feature_matrix(shapes, names, op="conv2d")
    seen = {name: set() for name in names}
    for row, values in zip(rows, computed):
        for name, value in zip(names, values):
            algorithm = name.removesuffix("_applies")
            assert bool(value) == row["applies"][algorithm], f"{name} on {row['net']}/{row['layer']}: {row}"
            seen[name].add(bool(value))
    assert all(v == {True, False} for v in seen.values()), seen   # both answers occur: the check can fail


def test_layer_lists_keyed_as_the_library_reads_them(selection: Selection) -> None:
    """dataset.read_networks pads a layer list's layers by the rule of the C++ reader (tools/bench/conv_layers.cpp,
    layer_desc), which `portkern tune conv2d` keys the dataset's rows by: both must give every dense layer of every
    list the same shape, or leaving networks out would score shapes that are no network's."""
    library = {("conv2d", r["batch"], r["in_h"], r["in_w"], r["in_c"], r["out_h"], r["out_w"], r["out_k"],
                r["window"], r["window"], r["stride"], r["stride"], r["pad_h"], r["pad_w"])
               for r in selection.rows if r["groups"] == 1}
    keyed = set(dataset.read_networks(selection.lists, "conv2d", BATCHES))
    assert keyed == library, (sorted(keyed - library)[:5], sorted(library - keyed)[:5])
    assert any(k[-1] > 0 for k in keyed) and any(k[-1] == 0 for k in keyed)   # both pad rules occur
