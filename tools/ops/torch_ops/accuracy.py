"""accuracy == the exact composition ((X > s) | ((X == s) & (arange(D) <= y))).sum(1) <= k, summed.
(torch.topk agrees only without ties, its tie order being unspecified.)"""
import torch

TOLERANCE = 0.0


def outputs(t, params):
    x, y = t["scores"], t["labels"].long()
    s = x.gather(1, y[:, None])
    cols = torch.arange(x.shape[1], device=x.device)
    rank = ((x > s) | ((x == s) & (cols[None, :] <= y[:, None]))).sum(1)
    return {"count": (rank <= params["top_k"]).sum().reshape(1).int()}


def inputs(params, device):
    n, d = params["rows"], params["classes"]
    return {"scores": torch.rand(n, d, device=device),
            "labels": torch.randint(0, d, (n,), dtype=torch.int32, device=device)}
