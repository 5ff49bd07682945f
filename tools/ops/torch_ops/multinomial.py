"""multinomial's deterministic equivalent: searchsorted(cumsum(w / w.sum(1)), u, right=True), clamped to the
last category (torch.multinomial itself draws its own uniforms). Agrees within the spec's one index."""
import torch

TOLERANCE = 1.0


def outputs(t, params):
    w, u = t["weights"].double(), t["uniforms"].double()
    cdf = torch.cumsum(w / w.sum(1, keepdim=True), 1)
    idx = torch.searchsorted(cdf, u[:, None], right=True).squeeze(1)
    return {"out": idx.clamp(max=w.shape[1] - 1).int()}


def inputs(params, device):
    r, k = params["rows"], params["categories"]
    return {"weights": torch.randint(1, 101, (r, k), device=device).float(),
            "uniforms": torch.rand(r, device=device)}
