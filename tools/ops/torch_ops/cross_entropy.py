"""cross_entropy backward == aten _log_softmax_backward_data(G, L, 1) with G = gamma one-hot at the target,
gamma = -(grad_out + mask * grad_out_neg) * weight: the true gradient of sum(gamma_bh * L[b, t, h]) through
log_softmax (HeCBench's extra L_t factor is a flaw portkern fixes). Computed in float64 from the dumped inputs."""
import torch

# |grad| <= |gamma| (1 + e) < 7.5; half output rounds once (half an ulp below 8 = 2^-9): the spec's 4e-3
# covers f16 (f32 and f64 are far inside it).
TOLERANCE = 4e-3


def outputs(t, params):
    L = t["log_probs"].double()
    gamma = -(t["grad_out"].double() + t["mask"].double() * t["grad_out_neg"].double()) * t["weight"].double()
    G = torch.zeros_like(L).scatter_(1, t["target"].long()[:, None, :], gamma[:, None, :])
    return {"grad": torch._log_softmax_backward_data(G, L, 1, L.dtype)}


def inputs(params, device):
    b, c, h = params["batch"], params["classes"], params["positions"]
    dtype = getattr(torch, params["dtype"])
    return {"log_probs": torch.rand(b, c, h, dtype=dtype, device=device),
            "target": torch.randint(0, 80, (b, h), device=device),
            "weight": torch.rand(b, h, dtype=dtype, device=device),
            "grad_out": torch.rand(b, h, dtype=dtype, device=device),
            "grad_out_neg": torch.rand(b, h, dtype=dtype, device=device),
            "mask": torch.randint(0, 2, (b, h), device=device)}
