"""How the baselines' tools match, name and summarise the rows of `portkern bench ... --json` runs."""
import math


def key(row):
    """A row's shape: GEMM (m, n, k, batch, transposes), conv2d (layer, batch)."""
    if row["op"] == "conv2d":
        return (row["layer"], row["batch"])
    return (row["m"], row["n"], row["k"], row["batch"], row["trans_a"], row["trans_b"])


def label(k):
    if isinstance(k[0], str):
        return f"{k[0]} b{k[1]}"
    return f"{k[0]}x{k[1]}x{k[2]} b{k[3]} " + ("T" if k[4] else "N") + ("T" if k[5] else "N")


def geomean(values):
    """The geometric mean of the positive values (missing or zero ones left out); nan where none is."""
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")
