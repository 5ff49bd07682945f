"""flip == torch.flip(x, dims)."""
import torch

TOLERANCE = 0.0


def outputs(t, params):
    return {"out": torch.flip(t["in"], dims=params["dims"])}


def inputs(params, device):
    dtype = getattr(torch, params["dtype"])
    return {"in": torch.rand(params["shape"], dtype=dtype, device=device)}
