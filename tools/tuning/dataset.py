"""Loading benchmark datasets into a performance matrix.

A dataset is a long-format CSV with the header
    device,op,family,config,<shape columns of the op>,gflops,time_ms,reps
one row per (shape, configuration); a configuration that failed to run (or does not apply to the shape) has
gflops = 0 and reps = 0. The shape columns (SHAPE_COLUMNS) are
    gemm    m,n,k,batch,trans_a,trans_b
    conv2d  batch,in_h,in_w,in_c,out_h,out_w,out_c,window_h,window_w,stride_h,stride_w,pad_h,pad_w
and a shape is the key (op, shape columns...); `config` is an opaque, stable string ("tiled/r8_a4_c4_wg16x16",
"winograd/f4"); for conv2d the family is the algorithm.

`load` concatenates datasets, filters them (device, op, family), keeps the maximum GFLOP/s of duplicated
(shape, config) rows and pivots to a `PerfTable`: shapes (rows) x configurations (columns) of GFLOP/s, with 0
for failed or missing measurements. Shapes on which every configuration failed are dropped (they carry no
information about which configuration to choose).

`read_networks` maps shapes to the networks using them, for the leave-networks-out evaluation (analyze.py
--networks): GEMM shapes from shape lists with a `net` column (data/shapes/gemm_*.csv), convolutions from layer
lists (data/shapes/conv_*.csv) whose `layer` names the network before a '/', or else whose file name names it, at
each batch of the dataset.

`read` tolerates what an interrupted `portkern tune` may leave: a last line without its newline (a row cut
short) and whole lines that are not rows (a wrong number of cells, or cells that are not numbers) are
skipped with a `DatasetWarning`; the tuner measures those rows again when it resumes.
"""
from __future__ import annotations

import csv
import io
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

import precision as precisions
from features import SHAPE_COLUMNS

def columns(op: str) -> list[str]:
    """Every column of an `op` dataset, in order."""
    return ["device", "op", "family", "config", *SHAPE_COLUMNS[op], "gflops", "time_ms", "reps"]


def shape_key(op: str) -> list[str]:
    """The columns that identify a shape of `op`."""
    return ["op", *SHAPE_COLUMNS[op]]




class DatasetError(ValueError):
    """A dataset that does not have the expected format or content."""


class DatasetWarning(UserWarning):
    """Lines of a dataset that were skipped (a row cut short by an interruption, a malformed line)."""


def _whole_rows(path: str | Path, op: str) -> pd.DataFrame:
    """The rows of the dataset at `path`, without a cut last line or lines that are not rows (warned about)."""
    text = Path(path).read_text()
    lines = text.split("\n")
    cut = lines.pop()   # "" when the text ends with a newline, else a row cut short
    if not lines:
        raise DatasetError(f"{path}: no header line")
    width = lines[0].count(",") + 1
    kept = [lines[0]] + [line for line in lines[1:] if line.count(",") + 1 == width]
    skipped = len(lines) - len(kept)
    if cut:
        warnings.warn(f"{path}: the last row was cut short ({len(cut)} characters without a newline): skipped",
                      DatasetWarning, stacklevel=3)
    df = pd.read_csv(io.StringIO("\n".join(kept) + "\n"), dtype={"device": str, "op": str, "family": str, "config": str})
    bad = pd.Series(False, index=df.index)
    for col in [*SHAPE_COLUMNS[op], "reps"]:
        if col in df.columns:
            bad |= pd.to_numeric(df[col], errors="coerce").isna()
    for col in ("device", "op", "family", "config"):
        if col in df.columns:
            bad |= df[col].isna()
    skipped += int(bad.sum())
    if skipped:
        warnings.warn(f"{path}: {skipped} lines are not rows of a {op} dataset (wrong number of cells or not "
                      f"numbers): skipped", DatasetWarning, stacklevel=3)
    return df[~bad].reset_index(drop=True)


@dataclass
class PerfTable:
    """GFLOP/s of every configuration (columns) on every shape (rows).

    shapes   DataFrame with the op's shape_key columns, one row per shape, index 0..S-1
    configs  configuration strings, one per column of perf
    families family of each configuration
    perf     float64 array S x C; 0 = failed / not measured
    """
    shapes: pd.DataFrame
    configs: list[str]
    families: list[str]
    perf: np.ndarray
    device: str = ""
    op: str = "gemm"
    sources: list[str] = field(default_factory=list)
    dropped_shapes: int = 0

    @property
    def shape_key(self) -> list[str]:
        return shape_key(self.op)

    @property
    def n_shapes(self) -> int:
        return self.perf.shape[0]

    @property
    def n_configs(self) -> int:
        return self.perf.shape[1]

    def subset(self, rows: Sequence[int] | None = None, cols: Sequence[int] | None = None) -> "PerfTable":
        """The table restricted to some shapes and/or configurations (shapes keep their order, index reset)."""
        rows = np.arange(self.n_shapes) if rows is None else np.asarray(rows)
        cols = np.arange(self.n_configs) if cols is None else np.asarray(cols)
        return PerfTable(self.shapes.iloc[rows].reset_index(drop=True), [self.configs[c] for c in cols],
                         [self.families[c] for c in cols], self.perf[np.ix_(rows, cols)], self.device, self.op,
                         list(self.sources), self.dropped_shapes)

    def family_names(self) -> list[str]:
        """Distinct families, sorted."""
        return sorted(set(self.families))

    def family(self, name: str) -> "PerfTable":
        """Only the configurations of family `name`, dropping the shapes on which all of them failed."""
        cols = [i for i, f in enumerate(self.families) if f == name]
        if not cols:
            raise DatasetError(f"no configurations of family {name!r}; families: {self.family_names()}")
        sub = self.subset(cols=cols)
        ok = np.flatnonzero(sub.perf.max(axis=1) > 0)
        out = sub.subset(rows=ok)
        out.dropped_shapes = sub.n_shapes - len(ok)
        return out


def read(paths: Iterable[str | Path], op: str = "gemm") -> pd.DataFrame:
    """Concatenate the rows of the `op` datasets at `paths`, checking the header and types."""
    if op not in SHAPE_COLUMNS:
        raise DatasetError(f"unknown op {op!r}; known: {sorted(SHAPE_COLUMNS)}")
    expected = columns(op)
    frames = []
    for path in paths:
        df = _whole_rows(path, op)
        missing = [c for c in expected if c not in df.columns]
        if missing:
            raise DatasetError(f"{path}: missing columns {missing} (an {op} dataset has {','.join(expected)})")
        df = df[expected].copy()
        for col in [*SHAPE_COLUMNS[op], "reps"]:
            df[col] = pd.to_numeric(df[col], errors="raise").astype(np.int64)
        for col in ("gflops", "time_ms"):
            df[col] = pd.to_numeric(df[col], errors="coerce").fillna(0.0).astype(np.float64)
        df["source"] = str(path)
        frames.append(df)
    if not frames:
        raise DatasetError("no datasets given")
    return pd.concat(frames, ignore_index=True)


def load(paths: Iterable[str | Path], op: str = "gemm", family: str | None = None,
         device: str | None = None, precision: str = precisions.DEFAULT) -> PerfTable:
    """Read `op` datasets and pivot them into a PerfTable (see the module docstring), keeping the
    configurations a deployment for `precision` may run (precision.py)."""
    paths = [str(p) for p in paths]
    df = read(paths, op)
    df = df[df["config"].map(lambda c: precisions.usable(c, precision))]
    devices = sorted(df["device"].unique())
    if device is not None:
        df = df[df["device"] == device]
    elif len(devices) > 1:
        raise DatasetError(f"the datasets hold several devices {devices}: choose one with --device")
    ops = sorted(df["op"].unique())
    df = df[df["op"] == op]
    if family is not None:
        df = df[df["family"] == family]
    if df.empty:
        raise DatasetError(f"no rows left for device={device} op={op} family={family} "
                           f"(devices {devices}, ops {ops})")
    families = df.groupby("config")["family"].first()
    df = df.assign(gflops=df["gflops"].where(df["reps"] > 0, 0.0).clip(lower=0.0))
    best = df.groupby(shape_key(op) + ["config"], sort=True)["gflops"].max()
    wide = best.unstack("config", fill_value=0.0).sort_index()
    perf = wide.to_numpy(dtype=np.float64)
    shapes = wide.index.to_frame(index=False)
    keep = perf.max(axis=1) > 0
    configs = [str(c) for c in wide.columns]
    return PerfTable(shapes[keep].reset_index(drop=True), configs, [str(families[c]) for c in configs], perf[keep],
                     device or devices[0], op, paths, int((~keep).sum()))


def read_networks(paths: Iterable[str | Path], op: str = "gemm",
                  batches: Iterable[int] = ()) -> dict[tuple, set[str]]:
    """Shape key (the values of `shape_key(op)`) -> the networks using the shape. A shape listed in several rows,
    of one file or several, belongs to each of their networks; lines starting with # are ignored.
      gemm:   shape lists with columns m,k,n,batch,net (trans_a,trans_b optional, 0 when absent);
      conv2d: layer lists with columns layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k (groups optional, 1
              when absent; grouped layers are left out: the datasets' keys are dense convolutions), the network
              being `layer` up to its '/' (a name without one: the list's file name after "conv_", as the
              seed's conv_vgg16.csv names its layers "conv1_1"); each layer is keyed at every batch of `batches`,
              padded as the C++ tools pad it (tools/bench/conv_layers.cpp: none where the unpadded image yields
              out_h, else half the window)."""
    required = {"gemm": ("m", "k", "n", "batch", "net"),
                "conv2d": ("layer", "window", "stride", "in_h", "in_w", "in_c", "out_h", "out_w", "out_k")}
    if op not in required:
        raise DatasetError(f"no network lists for {op} datasets")
    batches = list(batches)
    if op == "conv2d" and not batches:
        raise DatasetError("conv2d layer lists need the dataset's batches")
    networks: dict[tuple, set[str]] = {}
    for path in paths:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        missing = [c for c in required[op] if rows and c not in rows[0]]
        if not rows or missing:
            what = "a shape list with a net column" if op == "gemm" else "a layer list"
            raise DatasetError(f"{path}: not {what} (missing {missing or 'rows'})")
        for r in rows:
            if op == "gemm":
                keys = [("gemm", *(int(r[c]) for c in ("m", "n", "k", "batch")),
                         *(int(r.get(c) or 0) for c in ("trans_a", "trans_b")))]
                net = r["net"]
            else:
                if int(r.get("groups") or 1) != 1:
                    continue
                window, stride, in_h, in_w, in_c, out_h, out_w, out_k = (
                    int(r[c]) for c in required[op][1:])
                pad = 0 if (in_h - window) // stride + 1 == out_h else (window - 1) // 2
                keys = [("conv2d", b, in_h, in_w, in_c, out_h, out_w, out_k, window, window, stride, stride, pad, pad)
                        for b in batches]
                net = r["layer"].split("/")[0] if "/" in r["layer"] else Path(path).stem.removeprefix("conv_")
            for key in keys:
                networks.setdefault(key, set()).add(net)
    return networks