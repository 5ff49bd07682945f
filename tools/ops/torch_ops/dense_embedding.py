"""dense_embedding == nested [B,*,D] + dense [B,1,D]; without nested tensors:
input.view(-1, D) + dense.repeat_interleave(lengths, 0) over the rows the offsets cover (offsets[0] = 0)."""
import torch

TOLERANCE = 1e-6


def outputs(t, params):
    d = params["dim"]
    x, off, dense = t["input"], t["offsets"], t["dense"]
    lengths = (off[1:] - off[:-1]) // d
    rows = x.numel() // d
    return {"out": (x.view(rows, d) + dense.repeat_interleave(lengths, 0, output_size=rows)).flatten()}


def inputs(params, device):
    d, lengths = params["dim"], torch.tensor(params["lengths"], dtype=torch.int64)
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(lengths, 0) * d])
    return {"input": torch.rand(int(offsets[-1]), device=device) * 2 - 1, "offsets": offsets.to(device),
            "dense": torch.rand((params["batches"], d), device=device) * 2 - 1}
