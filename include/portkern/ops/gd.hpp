// gd: one iteration of full-batch gradient descent for L2-regularised logistic regression on a sparse CSR
// matrix (HeCBench `gd`, seed 004; PyTorch F.soft_margin_loss(A @ x, y) + optim.SGD(lr=alpha,
// weight_decay=lambda)). With A m x n (rows scaled to unit L2 norm by the caller), labels y in {-1, +1}:
//
//   z = A x
//   objective = (1/m) sum_i log(1 + exp(-y_i z_i)) + (lambda/2) |x|^2       (of x before the update)
//   error     = 1 - #{i : (z_i >= 0 ? +1 : -1) == y_i} / m                   (of x before the update)
//   x <- x - alpha * ((1/m) sum_i -sigmoid(-y_i z_i) y_i a_i + lambda x)
//
// Memory/latency-bound: each call reads A twice (as rows for z, as columns for the gradient: 2 * nnz * 8
// bytes) plus x, y and the O(m + n) vectors; at gisette's size (~2.4e6 nonzeros) that is ~40 MB, a few
// microseconds of bandwidth, so launch latency and the irregular gathers of x and r matter.
//
// Decisions:
// - Deterministic, no float atomics (HeCBench scatters the gradient with atomicAdd per nonzero and adds the
//   objective and the count with atomics): the gradient is A^T r computed column by column from the
//   transposed matrix (a CSR of A^T, built once by the caller with gd_transpose), and every sum (row dot
//   products, per-group partial objective / count / |x|^2, their final sums in float64) has a fixed order.
//   Repeated runs give bit-identical results.
// - Three launches: rows (z, r_i = -sigmoid(-y_i z_i) y_i, loss, correct), columns (gradient, |x|^2 of the
//   old x, the update in place), and a one-group finish that writes objective and error. No memsets.
// - log(1 + e^t) evaluated stably (t + log1p(e^-t) for t > 0); sigmoid stable at both ends. The
//   prediction is z >= 0, which is HeCBench's sigmoid(z) >= 0.5 in exact arithmetic (its float sigmoid
//   also calls tiny negative z positive).
// - 64-bit row offsets (nnz may pass 2^31), 32-bit column indices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// A in CSR and the same matrix transposed (A^T in CSR), all in the queue's device memory.
struct GdMatrix {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const std::int64_t* row_ptr = nullptr;     // [rows + 1], row_ptr[0] = 0, row_ptr[rows] = nnz, non-decreasing
  const std::int32_t* col_idx = nullptr;     // [nnz], each in [0, cols)
  const float* values = nullptr;             // [nnz]
  const std::int64_t* t_row_ptr = nullptr;   // A^T: [cols + 1]
  const std::int32_t* t_col_idx = nullptr;   // A^T: [nnz], row indices of A, each in [0, rows)
  const float* t_values = nullptr;           // A^T: [nnz]
};

// Host helper: A^T in CSR from A in CSR (counting sort; rows ascending within each column). Checks the CSR
// (Error naming the entry that is wrong) - the device call cannot.
struct HostCsr {
  std::vector<std::int64_t> row_ptr;
  std::vector<std::int32_t> col_idx;
  std::vector<float> values;
};
HostCsr gd_transpose(std::int64_t rows, std::int64_t cols, std::span<const std::int64_t> row_ptr,
                     std::span<const std::int32_t> col_idx, std::span<const float> values);

// Floats of workspace gd_step needs for an m x n matrix.
std::int64_t gd_workspace_size(std::int64_t rows, std::int64_t cols);

// One iteration. rows, cols >= 1 (the objective of no samples or no features is meaningless), nnz >= 0.
// labels: [rows], each -1 or +1; x: [cols], updated in place; objective_error: 2 floats, receives
// {objective, error} of x before the update; workspace: gd_workspace_size(rows, cols) floats. All in the
// queue's device memory. Asynchronous on a GPU queue (read objective_error after queue.wait()).
void gd_step(Queue& queue, const GdMatrix& A, const float* labels, float lambda, float alpha, float* x,
             float* objective_error, float* workspace);

}  // namespace portkern::ops
