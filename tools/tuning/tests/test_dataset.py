import numpy as np
import pytest

import dataset
import synthetic
from conftest import synthetic_shapes


def test_load_pivots_takes_max_of_duplicates_and_drops_all_failed_shapes(dataset_csv):
    t = dataset.load([dataset_csv])
    assert t.n_shapes == 60 and t.n_configs == 40 and t.dropped_shapes == 1
    assert t.device == "test-device"
    assert (t.perf.max(axis=1) > 0).all()
    assert (t.perf == 0).any(), "the synthetic dataset should contain failed configurations"
    m, n, k, batch = synthetic_shapes()[0]
    first = synthetic.config_name(synthetic.configs(40)[0])
    row = t.shapes.index[(t.shapes.m == m) & (t.shapes.n == n) & (t.shapes.k == k) & (t.shapes.batch == batch)]
    assert t.perf[row[0], t.configs.index(first)] == pytest.approx(round(synthetic.gflops((m, n, k, batch),
                                                                   synthetic.configs(40)[0]), 4))


def test_filters_and_errors(dataset_csv, two_family_csv, tmp_path):
    assert dataset.load([two_family_csv], family="cpu_packed").configs == ["cpu_packed/default"]
    both = dataset.load([two_family_csv])
    assert both.family_names() == ["cpu_packed", "tiled"]
    with pytest.raises(dataset.DatasetError):
        dataset.load([dataset_csv], op="conv2d")
    other = tmp_path / "other.csv"
    other.write_text(dataset_csv.read_text().replace("test-device", "other-device"))
    with pytest.raises(dataset.DatasetError, match="several devices"):
        dataset.load([dataset_csv, other])
    assert dataset.load([dataset_csv, other], device="other-device").n_shapes == 60
    bad = tmp_path / "bad.csv"
    bad.write_text("m,n,k\n1,2,3\n")
    with pytest.raises(dataset.DatasetError, match="missing columns"):
        dataset.load([bad])
    sub = both.family("tiled")
    assert sub.n_configs == 40 and np.array_equal(sub.perf, dataset.load([dataset_csv]).perf)


def test_a_cut_last_row_and_malformed_lines_are_skipped_with_a_warning(dataset_csv, tmp_path):
    whole = dataset.read([dataset_csv])
    lines = dataset_csv.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.csv"
    cut.write_text("".join(lines) + lines[5][:17])   # an interrupted run: a row without its newline
    with pytest.warns(dataset.DatasetWarning, match="last row was cut short"):
        rows = dataset.read([cut])
    assert len(rows) == len(whole)
    joined = tmp_path / "joined.csv"   # an older tuner's fragment joined to the next row, and a row of text
    joined.write_text("".join(lines[:3]) + lines[3][:17] + "".join(lines[4:]) + "a,b,c\n" +
                      lines[6].replace(lines[6].split(",")[4], "x", 1))
    with pytest.warns(dataset.DatasetWarning, match="3 lines are not rows"):
        rows = dataset.read([joined])
    assert len(rows) == len(whole) - 2   # the rows of lines 3 and 4 are lost: the tuner measures them again
    with pytest.warns(dataset.DatasetWarning):
        assert dataset.load([joined]).n_shapes == dataset.load([dataset_csv]).n_shapes
