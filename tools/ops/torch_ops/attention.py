"""attention == torch.softmax(K @ q, 0) @ V (no 1/sqrt(d) scaling; PyTorch subtracts the max, as portkern)."""
import torch

TOLERANCE = 1e-6   # outputs ~ 2e-5 at the bench data (uniform +-0.01, weights ~ 1/n); float32 on both sides


def outputs(t, params):
    w = torch.softmax(t["K"] @ t["q"], dim=0)
    return {"out": w @ t["V"]}


def inputs(params, device):
    n, d = params["n"], params["d"]
    return {"K": torch.rand(n, d, device=device) * 0.02 - 0.01,
            "V": torch.rand(n, d, device=device) * 0.02 - 0.01,
            "q": torch.rand(d, device=device) * 0.02 - 0.01}
