"""logprob == log_softmax(logits[:, :-1, :V]).gather(ids[:, 1:]) masked to t < len - 1, and its sum over t."""
import torch

TOLERANCE = {"log_probs": 1e-3, "cum_log_probs": 1e-1}   # the spec's checks


def outputs(t, params):
    vocab = params["vocab"]
    logits, ids, lengths = t["logits"], t["ids"].long(), t["lengths"].long()
    lp = torch.log_softmax(logits[:, :-1, :vocab].float(), dim=-1).gather(-1, ids[:, 1:, None]).squeeze(-1)
    steps = torch.arange(lp.shape[1], device=lp.device)
    lp = torch.where(steps[None, :] < (lengths[:, None] - 1), lp, torch.zeros_like(lp))
    return {"log_probs": lp, "cum_log_probs": lp.sum(1)}


def inputs(params, device):
    b, t, v, vp = params["batch"], params["steps"], params["vocab"], params["padded_vocab"]
    return {"logits": torch.rand(b, t, vp, device=device) * 12 - 6,
            "ids": torch.randint(0, v, (b, t), dtype=torch.int32, device=device),
            "lengths": torch.full((b,), t, dtype=torch.int32, device=device)}
