"""adam: mode 1 == torch.optim.AdamW(lr, betas, eps, weight_decay=decay) on grad g/grad_scale with a fresh step
counter, `steps` steps with the same gradient; mode 0 (eps inside the sqrt) has no torch option, so it is the
same loop written with tensor ops."""
import torch

TOLERANCE = 1e-4


def outputs(t, params):
    lr, b1, b2 = params["lr"], params["beta1"], params["beta2"]
    eps, decay, steps = params["eps"], params["decay"], params["steps"]
    p, m, v = t["p0"].clone(), t["m0"].clone(), t["v0"].clone()
    grad = t["g"] / params["grad_scale"]
    if params["mode"] == 1:
        p = torch.nn.Parameter(p)
        opt = torch.optim.AdamW([p], lr=lr, betas=(b1, b2), eps=eps, weight_decay=decay)
        opt.state[p] = {"step": torch.tensor(0.0), "exp_avg": m, "exp_avg_sq": v}
        for _ in range(steps):
            p.grad = grad
            opt.step()
        return {"p": p.detach(), "m": m, "v": v}
    for step in range(1, steps + 1):
        m.mul_(b1).add_(grad, alpha=1 - b1)
        v.mul_(b2).addcmul_(grad, grad, value=1 - b2)
        denom = (v / (1 - b2 ** step) + eps).sqrt()
        p = p - lr * ((m / (1 - b1 ** step)) / denom + decay * p)
    return {"p": p, "m": m, "v": v}


def inputs(params, device):
    n = params["count"]
    return {name: torch.rand(n, device=device) for name in ("p0", "m0", "v0", "g")}
