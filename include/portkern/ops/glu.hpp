// glu: the gated linear unit along one axis, like torch.nn.functional.glu / Caffe2 `Glu` (HeCBench `glu`,
// seed 004).
//
//   X (shape, row-major) is split along `axis` into halves P = X[..., :s/2, ...] and Q = X[..., s/2:, ...];
//   Y = P * sigmoid(Q), shaped like X with s/2 along `axis`.
//
// With M = the product of the extents before the axis and L = (s/2) * (product after it), Y[m][l] =
// X[m][l] * sigmoid(X[m][L + l]) for m < M, l < L: one pass, whatever the axis.
// Memory-bound: reads X once, writes Y once (numel(X) * 4 + numel(X) / 2 * 4 bytes).
//
// Decisions: the sigmoid is the overflow-free form (kernel::sigmoid: 1 / (1 + e^-q) for q >= 0,
// e^q / (1 + e^q) below), as the HeCBench CPU reference, not the kernel's 1 / (1 + exp(-q)); NaN propagates
// as in PyTorch. An odd split length is an error (HeCBench silently skipped the axis). 64-bit indexing
// throughout (the original's int index would overflow beyond 2^31 elements). 16-byte vector loads when L is a
// multiple of 4 and both pointers are 16-byte aligned, scalar otherwise.
#pragma once

#include <cstdint>
#include <span>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// shape: rank 1 ... 8, every extent >= 0 (no elements: returns at once). axis: in [-rank, rank) (negative
// counts from the end, -1 = last); shape[axis] must be even. x: numel(shape) floats; y: numel / 2 floats,
// the queue's device memory, not overlapping x.
void glu(Queue& queue, std::span<const std::int64_t> shape, int axis, const float* x, float* y);

}  // namespace portkern::ops
