"""clink == nn.LSTM(1, 5, batch_first=True) + nn.Linear(5, 1), portkern's gate order (i, f, o, g) reordered to
PyTorch's (i, f, g, o), bias_ih = the one bias, bias_hh = 0. Weights: 146 floats in HeCBench's file order."""
import torch

TOLERANCE = 1e-3
ORDER = [0, 1, 3, 2]   # PyTorch gate k takes portkern gate ORDER[k]


def model(weights, device):
    w = weights.float().to(device)
    in_w, rec_w = w[:20].reshape(4, 5), w[20:120].reshape(4, 5, 5)
    bias, out_w, out_b = w[120:140].reshape(4, 5), w[140:145], w[145:146]
    lstm = torch.nn.LSTM(1, 5, batch_first=True).to(device)
    head = torch.nn.Linear(5, 1).to(device)
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(in_w[ORDER].reshape(20, 1))
        lstm.weight_hh_l0.copy_(rec_w[ORDER].reshape(20, 5))
        lstm.bias_ih_l0.copy_(bias[ORDER].reshape(20))
        lstm.bias_hh_l0.zero_()
        head.weight.copy_(out_w.reshape(1, 5))
        head.bias.copy_(out_b)
    return lstm, head


def outputs(t, params):
    x = t["x"]
    lstm, head = model(t["weights"], x.device)
    with torch.no_grad():
        h, _ = lstm(x.unsqueeze(-1))
        return {"y": head(h).squeeze(-1)}


def inputs(params, device):
    return {"x": torch.randn(params["sequences"], params["steps"], device=device),
            "weights": torch.rand(146, device=device) - 0.5}
