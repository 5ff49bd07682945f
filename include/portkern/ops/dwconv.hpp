// dwconv: depthwise 2-D convolution forward, NCHW, stride 1, dilation 1, zero padding, with bias (HeCBench
// `dwconv`, seed 004; PyTorch F.conv2d(x, w, b, padding=pad, groups=C)).
//
//   out[n][c][y][x] = bias[c] + sum_{i,j < k} w[c][i][j] * in[n][c / m][y - pad + i][x - pad + j]
//   (taps outside the image are 0), c < C * m, y < Ho = H + 2 pad - k + 1, x < Wo = W + 2 pad - k + 1.
//
// Memory-bound: reads the input once and writes the output once (4 * (N*C*H*W + N*C*m*Ho*Wo) bytes, plus
// the weights); k = 5 (25 multiply-adds per output) is the least bandwidth-bound case.
//
// Decisions:
// - The padding is a parameter (HeCBench fixes it at 1; pad = 1 is the benchmark's case). For k = 1 and
//   pad = 1 the output is (H+2) x (W+2) and its border ring is the bias, as in PyTorch.
// - One group computes a 32 x 32 output tile of all m output channels of one input channel, so the input
//   tile is read from memory once for the m channels (HeCBench's one-thread-per-output kernel re-reads it
//   per output channel through the cache); an item computes 8 rows of one column, reusing each loaded
//   input row for up to k output rows in registers. k = 1, 3, 5 are compile-time cases, any other k a
//   generic loop.
// - 64-bit plane offsets (the largest default output has 4.2e8 elements; N*C*m*Ho*Wo may pass 2^31).
// - HeCBench has no check (it prints a mean); portkern is verified against a float64 reference.
// - bias may be nullptr (no bias).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

struct DwconvShape {
  std::int64_t batch = 1, channels = 1, height = 1, width = 1;   // N, C, H, W of the input
  int multiplier = 1;                                             // m: output channels per input channel
  int kernel = 3;                                                 // k: the k x k window
  int pad = 1;                                                    // zero padding on every side
  std::int64_t out_height() const { return height + 2 * pad - kernel + 1; }
  std::int64_t out_width() const { return width + 2 * pad - kernel + 1; }
  std::int64_t out_channels() const { return channels * multiplier; }
};

// batch, channels >= 0 (0: returns at once); height, width, multiplier, kernel >= 1; pad >= 0; the padded
// image at least as large as the window (height + 2 pad >= kernel, same for width). in: [N][C][H][W];
// weight: [C*m][k][k] (PyTorch's [C*m][1][k][k]); bias: [C*m] or nullptr; out: [N][C*m][Ho][Wo], not
// overlapping the inputs. All in the queue's device memory. Asynchronous on a GPU queue.
void dwconv(Queue& queue, const DwconvShape& shape, const float* in, const float* weight, const float* bias,
            float* out);

}  // namespace portkern::ops
