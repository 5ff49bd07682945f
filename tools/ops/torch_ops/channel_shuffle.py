"""channel_shuffle == F.channel_shuffle(x, groups); NHWC tensors are dumped as [N, H, W, C] and shuffled as a
channels_last view."""
import torch
import torch.nn.functional as F

TOLERANCE = 0.0


def _shuffle(x, params):
    if params["layout"] == "nhwc":
        return F.channel_shuffle(x.permute(0, 3, 1, 2), params["groups"]).permute(0, 2, 3, 1)
    return F.channel_shuffle(x, params["groups"])


def outputs(t, params):
    return {"out": _shuffle(t["in"], params)}


def inputs(params, device):
    n, c, h, w = params["n"], params["c"], params["h"], params["w"]
    shape = (n, h, w, c) if params["layout"] == "nhwc" else (n, c, h, w)
    return {"in": torch.rand(shape, device=device)}
