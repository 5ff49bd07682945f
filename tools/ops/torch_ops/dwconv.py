"""dwconv == F.conv2d(x, w, b, stride=1, padding=pad, groups=C) (depthwise, depth multiplier m)."""
import torch
import torch.nn.functional as F

TOLERANCE = 1e-4   # sums of up to 26 terms in [0, 1] (outputs up to ~26): float32 rounding ~ 1e-5; cuDNN may differ


def outputs(t, params):
    x = t["in"]
    return {"out": F.conv2d(x, t["weight"], t["bias"], stride=1, padding=params["pad"], groups=x.shape[1])}


def inputs(params, device):
    N, C, H, W, m, k = (params[key] for key in ("N", "C", "H", "W", "m", "k"))
    return {"in": torch.rand(N, C, H, W, device=device),
            "weight": torch.rand(C * m, 1, k, k, device=device),
            "bias": torch.rand(C * m, device=device)}
