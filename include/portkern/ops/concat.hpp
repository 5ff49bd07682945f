// concat: two tensors joined along the middle axis, like torch.cat([a, b], dim=1) (LightSeq's
// `ker_concat3_dim1`, HeCBench `concat`, seed 004; in 5-D [B, beam, H, S, Dh] terms a KV-cache append).
//
//   in1 [outer][mid1][inner], in2 [outer][mid2][inner] -> out [outer][mid1 + mid2][inner]
//   out[a][b][e] = b < mid1 ? in1[a][b][e] : in2[a][b - mid1][e]
//
// A pure copy, memory-bound: 2 * outer * (mid1 + mid2) * inner * 4 bytes.
//
// Decisions: each output row is the contiguous mid1 * inner floats of in1 then mid2 * inner of in2, so the
// kernel copies flat chunks with 16-byte vectors when mid1 * inner and mid2 * inner are multiples of 4 and the
// three pointers are 16-byte aligned (scalar otherwise), with no per-element div/mod (the original decoded
// (a, b, e) from a flat index for every element, and used int indices). Either middle extent may be 0 (a
// copy of the other); that input's pointer is then not used.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// outer, mid1, mid2, inner >= 0 (no output elements: returns at once). in1, in2, out: the queue's device
// memory, out not overlapping the inputs.
void concat(Queue& queue, std::int64_t outer, std::int64_t mid1, std::int64_t mid2, std::int64_t inner,
            const float* in1, const float* in2, float* out);

}  // namespace portkern::ops
