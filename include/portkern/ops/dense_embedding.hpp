// dense_embedding: a ragged [B, *, D] tensor plus a dense [B, 1, D] one, broadcast over each batch's rows
// (PyTorch's `_nested_add_dense_esuhm`, HeCBench `denseEmbedding`, seed 004):
//
//   out[offsets[b] + r * D + j] = input[offsets[b] + r * D + j] + dense[b * D + j]
//
// for every batch b < B, row r < (offsets[b + 1] - offsets[b]) / D and column j < D. Elements outside
// [offsets[0], offsets[B]) are not written. Memory-bound: 4 * (2 * (offsets[B] - offsets[0]) + B * D) bytes.
//
// Decisions (against the HeCBench original):
// - Offsets are validated (on the host copy): offsets[0] >= 0, non-decreasing, each a multiple of D, and
//   offsets[B] <= total (the buffers' length); a violation is a portkern::Error naming the entry. The
//   kernel reads the device copy, which must hold the same values (as torch keeps nested sizes on the host
//   and offsets on the device).
// - Not one block per batch (B = 256 blocks of very different lengths, 1 to 256 rows): a group takes a few
//   whole rows (~8K elements) of the flat buffer, finds each row's batch once by binary search in the
//   offsets (into group-local memory), then streams the rows with 16-byte vector loads when D % 4 == 0 and
//   the three pointers are 16-byte aligned (scalar otherwise). Every row costs the same, so no imbalance,
//   no per-element division, and empty batches cost nothing.
// - out may equal input (in place); otherwise no overlap.
#pragma once

#include <cstdint>
#include <span>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// offsets: B + 1 element offsets on the host (size >= 1; B = 0 returns at once), with the conditions
// above; device_offsets: the same B + 1 values in the queue's memory. dim = D >= 1. total >= 0: the length
// of input and out. input, out: total floats; dense: B * D floats; all the queue's device memory.
void dense_embedding(Queue& queue, std::span<const std::int64_t> offsets, std::int64_t dim, std::int64_t total,
                     const std::int64_t* device_offsets, const float* input, const float* dense, float* out);

}  // namespace portkern::ops
