// multinomial: one inverse-CDF sample per row from non-negative weights and a given uniform per row, as
// PyTorch's sampleMultinomialOnce (HeCBench `multinomial`, seed 004).
//
//   p = w[r] / sum(w[r]), C_j = p_0 + ... + p_j;  out[r] = the j with C_{j-1} <= u[r] < C_j and w[r][j] > 0.
//   A row whose sum is not > 0 (all zeros; also NaN) gives 0. If rounding leaves no such j (u close to 1),
//   the last j with w[r][j] > 0 is returned.
//
// Deterministic form in PyTorch: torch.searchsorted(torch.cumsum(w / w.sum(1, keepdim=True), 1), u[:, None],
// right=True), which agrees within +-1 index (rounding at bucket edges: the spec's check).
// Memory-bound: reads each row once when categories <= 2048 (the row stays in registers between the sum and
// the scan), twice otherwise (the second pass stops at the chunk holding the sample); writes rows ints.
//
// Decisions and the original's flaws fixed:
// - the search compares un-normalised prefix sums with u * sum(w) (one multiply per row instead of one
//   divide per weight); same definition, rounding differs by at most the spec's one index.
// - a zero weight is never returned while a positive one exists (the test w > 0 is explicit, not inferred
//   from two prefix sums that may round alike); u outside [0, 1) gives the first / last positive weight.
// - 16-byte vector loads when w is 16-byte aligned and categories % 4 == 0 (checked once per call).
// - weights are assumed >= 0 (device data, not checked); a negative weight gives an unspecified valid index.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// rows >= 0 (0 returns at once), categories >= 1. weights: [rows][categories] floats; uniforms: [rows]
// floats in [0, 1); out: [rows] ints. All the queue's device memory.
void multinomial(Queue& queue, std::int64_t rows, std::int64_t categories, const float* weights,
                 const float* uniforms, int* out);

}  // namespace portkern::ops
