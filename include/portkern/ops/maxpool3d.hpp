// maxpool3d: HeCBench's "3-D" max-pool (seed 004), which is a batched 2-D max-pool over a stack of images
// (no pooling across z), like torch.nn.functional.max_pool2d(x, window, stride) on x = [Z][Hin][Win]:
//
//   out[z][y][x] = max over r, c in [0, window) of in[z][y * stride + r][x * stride + c],
//   Hout = (Hin - window) / stride + 1, Wout likewise (floor; no padding, no dilation).
//
// The spec's case is window = stride = 2 (Hout = Hin / 2). Memory-bound: reads the input once, writes the
// output once (4 * Z * (Hin * Win + Hout * Wout) bytes when window >= stride).
//
// Decisions (against the HeCBench original):
// - The running max starts at -infinity, not 0 (the original clamped negative inputs to 0), and NaN
//   propagates as in torch's max_pool2d: an element replaces the running max when it is greater or NaN,
//   so a window with a NaN gives NaN (fmaxf would have dropped it). All -infinity gives -infinity.
// - Window and stride are arguments (any >= 1); window = stride = 2 with Win % 8 == 0 and 16-byte aligned
//   pointers takes a vector path (each item: 4 outputs from two 32-byte runs of two rows), the rest a
//   scalar path. Sizes need not be multiples of anything; Hin or Win < window is an error (as in torch).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// The output extent along one dimension: (extent - window) / stride + 1.
std::int64_t maxpool3d_output_extent(std::int64_t extent, std::int64_t window, std::int64_t stride);

// z >= 0 (0 returns at once); h_in, w_in >= window >= 1; stride >= 1. in: z * h_in * w_in floats,
// out: z * Hout * Wout floats, the queue's device memory, not overlapping.
void maxpool3d(Queue& queue, std::int64_t z, std::int64_t h_in, std::int64_t w_in, std::int64_t window,
               std::int64_t stride, const float* in, float* out);

}  // namespace portkern::ops
