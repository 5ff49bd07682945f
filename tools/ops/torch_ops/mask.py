"""mask == x.masked_fill(cond, fill), cond built from arange/triu/tril per kind (the spec's equivalences)."""
import torch

TOLERANCE = 0.0


def _condition(params, per_row, device):
    n, m = params["rows"], params["cols"]
    k = torch.arange(m, device=device)[None, :]
    j = torch.arange(n, device=device)[:, None]
    kind = params["kind"]
    if kind == "sequence":
        return k >= per_row[:, None]
    if kind == "window":
        r = params["radius"]
        return (k < per_row[:, None] - r) | (k > per_row[:, None] + r)
    ones = torch.ones((n, m), dtype=torch.bool, device=device)
    if kind == "upper":
        return ones.triu(1)
    if kind == "lower":
        return ones.tril(-1)
    if kind == "upperDiag":
        return ones.triu(0)
    if kind == "lowerDiag":
        return ones.tril(0)
    raise ValueError(kind)


def outputs(t, params):
    x = t["in"]
    cond = _condition(params, t.get("per_row"), x.device)
    return {"out": x.masked_fill(cond, params["fill"])}


def inputs(params, device):
    b, n, m = params["batch"], params["rows"], params["cols"]
    t = {"in": torch.randint(0, m * n, (max(b, 1), n, m), dtype=torch.int32, device=device)}
    if params["kind"] in ("sequence", "window"):
        hi = m // 2 if params["kind"] == "sequence" else m
        t["per_row"] = torch.randint(0, hi, (n,), dtype=torch.int32, device=device)
    return t
