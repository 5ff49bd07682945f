// gelu: bias-add followed by the tanh approximation of GELU, fp16, in place (FasterTransformer's
// `gelu_bias_loop`, HeCBench `gelu`, seed 004).
//
//   u = half(src[b][s][h] + bias[h])     (a half-precision add: rounded to half, as __hadd2)
//   src[b][s][h] <- half_rn(0.5 * u * (1 + tanh(0.79788456 * (u + 0.044715 * u^3))))   (GELU in float)
//
// Memory-bound: reads and writes src once (4 bytes per element; the bias, 2 * hidden bytes, stays in cache).
//
// Decisions: 64-bit indexing (the 2024 original's int index only just fit 2^31 elements) and a flat grid
// (no gridDim.y = S <= 65535 limit, no fixed block size needing hidden <= 2048); rows of any even length,
// not a multiple of a block. Vectors of 8 halves (16 bytes) when hidden % 8 == 0 and src, bias are 16-byte
// aligned; else pairs (half2-style, 4-byte aligned pointers); else single halves. PyTorch's
// F.gelu(x + b, approximate='tanh') does the add in float, so it can differ from this by the add's rounding.
#pragma once

#include <cstdint>

#include "portkern/kernel/half.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// batch, seq >= 0; hidden >= 0 and even (the original's half2 contract). src: batch * seq * hidden halves,
// updated in place; bias: hidden halves; both the queue's device memory, not overlapping. Zero elements:
// returns at once.
void gelu(Queue& queue, std::int64_t batch, std::int64_t seq, std::int64_t hidden, half* src, const half* bias);

}  // namespace portkern::ops
