// mask: Caffe2's `SequenceMask` in its six kinds (HeCBench `mask`, seed 004): sequence, window and
// triangular masks over a [batch][rows][cols] int32 tensor.
//
//   out[i][j][k] = fill if the kind's condition holds for (j, k), else in[i][j][k]
//     sequence    k >= lengths[j]                 upper        k > j        upper_diag   k >= j
//     window      k < centers[j] - radius         lower        k < j        lower_diag   k <= j
//                 or k > centers[j] + radius
//
// The per-row arrays are indexed by the row j, not the batch (as the original). Memory-bound: reads and
// writes the tensor once (8 bytes per element; the per-row array, 4 * rows bytes, stays in cache).
//
// Decisions: every kind is "keep k in [lo(j), hi(j))", computed in 64-bit (centers[j] +- radius cannot
// overflow), so the six kinds share one kernel template with no per-element div/mod (the original decoded
// (i, j, k) from a flat index for each element). 16-byte vectors when cols % 4 == 0 and in, out are 16-byte
// aligned, scalar otherwise. Negative lengths mask the whole row (the condition read literally; they live in
// device memory, so they are not checked on the host). in == out (in place) is allowed.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

enum class MaskKind { sequence, window, upper, lower, upper_diag, lower_diag };

// batch >= 0 (0: a 2-D [rows][cols] tensor, one "batch"), rows, cols >= 0 (no elements: returns at once).
// in, out: max(batch, 1) * rows * cols int32 of the queue's device memory (equal, or not overlapping).
// per_row: `rows` int32, the lengths (sequence) or centers (window); not used by the other kinds (may be
// null). radius: the window's half-width, >= 0 (window only). fill: the value written where masked.
void mask(Queue& queue, MaskKind kind, std::int64_t batch, std::int64_t rows, std::int64_t cols,
          const std::int32_t* in, std::int32_t* out, std::int32_t fill, const std::int32_t* per_row = nullptr,
          std::int64_t radius = 0);

const char* mask_kind_name(MaskKind kind);   // "sequence", "window", "upper", "lower", "upperDiag", "lowerDiag"

}  // namespace portkern::ops
