"""glu == torch.nn.functional.glu(x, dim=axis)."""
import torch
import torch.nn.functional as F

TOLERANCE = 1e-5   # |y| <= 6; float sigmoid implementations differ by a few ulp


def outputs(t, params):
    return {"y": F.glu(t["x"], dim=params["axis"])}


def inputs(params, device):
    return {"x": torch.rand(params["shape"], dtype=torch.float32, device=device) * 12 - 6}
