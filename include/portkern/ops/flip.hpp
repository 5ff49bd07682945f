// flip: reverses a row-major tensor along chosen dimensions, like torch.flip (HeCBench `flip`, seed 004).
//
//   out[i0, ..., ir] = in[i0', ..., ir'], where ik' = shape[k] - 1 - ik if k is in dims, else ik.
//
// Memory-bound: reads and writes every element once (2 * numel * sizeof(T) bytes).
#pragma once

#include <cstdint>
#include <span>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// shape: rank 1 ... 8, every extent >= 0 (a zero extent returns at once). dims: the dimensions to reverse,
// each in [0, rank), no repeats (empty: a copy). in, out: the queue's device memory, numel elements each,
// not overlapping.
void flip(Queue& queue, std::span<const std::int64_t> shape, std::span<const int> dims, const float* in, float* out);
void flip(Queue& queue, std::span<const std::int64_t> shape, std::span<const int> dims, const double* in,
          double* out);

}  // namespace portkern::ops
