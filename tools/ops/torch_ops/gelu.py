"""gelu == F.gelu(src + bias, approximate='tanh') in fp16 (the add rounds to half, as portkern's; the GELU
runs in float inside PyTorch, then rounds to half)."""
import torch
import torch.nn.functional as F

TOLERANCE = 4e-3   # one half ulp for |y| < 8 (|y| <= 6 here): tanh implementations may round differently


def outputs(t, params):
    return {"out": F.gelu(t["src"] + t["bias"], approximate="tanh")}


def inputs(params, device):
    shape = (params["batch"], params["seq"], params["hidden"])
    return {"src": torch.rand(shape, dtype=torch.float16, device=device),
            "bias": torch.randint(-6, 6, (params["hidden"],), device=device).to(torch.float16)}
