"""gd (one iteration) == F.soft_margin_loss(A @ x, y) + (lambda/2)|x|^2 for the objective, the sign error rate,
and x - alpha * (A^T r / m + lambda x) with r = -sigmoid(-y z) y, i.e. the gradient of soft_margin_loss
(what optim.SGD(lr=alpha, weight_decay=lambda) applies). A and A^T are torch.sparse_csr_tensor."""
import torch
import torch.nn.functional as F

TOLERANCE = {"objective_error": 1e-4, "x": 1e-4}


def _csr(rp, ci, v, size):
    return torch.sparse_csr_tensor(rp.long(), ci.long(), v, size=size)


def outputs(t, params):
    m, n, lam, alpha = params["m"], params["n"], params["lambda"], params["alpha"]
    A = _csr(t["row_ptr"], t["col_idx"], t["values"], (m, n))
    At = _csr(t["t_row_ptr"], t["t_col_idx"], t["t_values"], (n, m))
    x, y = t["x_before"], t["labels"]
    z = (A @ x[:, None])[:, 0]
    objective = F.soft_margin_loss(z, y) + 0.5 * lam * (x * x).sum()
    sign = torch.where(z >= 0, torch.ones_like(z), -torch.ones_like(z))
    error = 1.0 - (sign == y).float().mean()
    r = -torch.sigmoid(-y * z) * y
    grad = (At @ r[:, None])[:, 0] / m + lam * x
    return {"x": x - alpha * grad, "objective_error": torch.stack([objective, error])}


def inputs(params, device):
    m, n, nnz = params["m"], params["n"], params["nnz"]
    per_row = max(1, nnz // m)
    rp = torch.arange(0, m + 1, device=device) * per_row
    ci = torch.sort(torch.randint(0, n, (m, per_row), device=device), dim=1).values.reshape(-1)
    v = torch.rand(m * per_row, device=device) * 2 - 1
    A = torch.sparse_csr_tensor(rp, ci, v, size=(m, n))
    At = A.to_sparse_coo().t().coalesce().to_sparse_csr()
    return {"row_ptr": rp, "col_idx": ci, "values": v,
            "t_row_ptr": At.crow_indices(), "t_col_idx": At.col_indices(), "t_values": At.values(),
            "labels": (torch.rand(m, device=device) < 0.5).float() * 2 - 1,
            "x_before": torch.randn(n, device=device) * 0.1}
