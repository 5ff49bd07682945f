import numpy as np
import pytest

import normalise


PERF = np.array([[100.0, 95.0, 90.0, 85.0, 0.0],
                 [0.0, 0.0, 0.0, 0.0, 0.0],
                 [10.0, 20.0, 40.0, 38.0, 36.0]])


def test_standard_divides_by_best_and_keeps_failed_rows_zero():
    s = normalise.standard(PERF)
    assert s[0].tolist() == pytest.approx([1.0, 0.95, 0.9, 0.85, 0.0])
    assert s[1].tolist() == [0.0] * 5
    assert s[2].tolist() == pytest.approx([0.25, 0.5, 1.0, 0.95, 0.9])
    assert s.max() == 1.0


def test_raw_cutoff_clamps_below_90_percent():
    r = normalise.raw_cutoff(PERF)
    assert r[0].tolist() == pytest.approx([1.0, 0.95, 0.9, 0.0, 0.0])
    assert r[2].tolist() == pytest.approx([0.0, 0.0, 1.0, 0.95, 0.9])


def test_standard_cutoff_rescales_kept_range_to_unit_interval():
    c = normalise.standard_cutoff(PERF)
    assert c[0].tolist() == pytest.approx([1.0, 0.5, 0.0, 0.0, 0.0])
    assert c[2].tolist() == pytest.approx([0.0, 0.0, 1.0, 0.5, 0.0])
    assert ((c >= 0) & (c <= 1)).all()


def test_sigmoid_centre_and_tail():
    s = normalise.sigmoid(PERF)
    assert s[0, 3] == pytest.approx(0.5)                      # 85% -> 0.5
    assert s[0, 0] == pytest.approx(1 / (1 + np.exp(50 * (0.85 - 1.0))))
    assert (normalise.sigmoid(np.array([[1.0, 0.79, 0.5]]))[0, 1:] < 0.1).all()   # < 80% -> < 0.1
    assert ((s > 0) & (s < 1)).all()
