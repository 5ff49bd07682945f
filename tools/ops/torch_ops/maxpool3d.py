"""maxpool3d == F.max_pool2d(x, window, stride) on x = [Z, H, W] (== F.max_pool3d(x[None], (1,k,k), (1,s,s)))."""
import torch
import torch.nn.functional as F

TOLERANCE = 0.0


def outputs(t, params):
    return {"out": F.max_pool2d(t["in"], params["window"], params["stride"])}


def inputs(params, device):
    return {"in": torch.rand((params["z"], params["h"], params["w"]), device=device)}
