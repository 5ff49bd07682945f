// channel_shuffle: the ShuffleNet channel shuffle (Caffe2 `ChannelShuffle`, HeCBench `channelShuffle`,
// seed 004), like torch.nn.functional.channel_shuffle. With C = groups * K channels, output channel c takes
// input channel (c mod groups) * K + floor(c / groups): reshape the channels to (groups, K), transpose,
// flatten.
//
//   NCHW: out[n][c][p] = in[n][src(c)][p]      (p over the H*W pixels)
//   NHWC: out[n][p][c] = in[n][p][src(c)]      (channels innermost; torch's channels_last)
//
// Memory-bound: reads and writes every element once (2 * N * C * HW * 4 bytes).
//
// Decisions (against the HeCBench original):
// - NCHW moves whole channel planes: a group copies a chunk of one output plane and finds its source plane
//   once (no per-element div/mod), with 16-byte vector loads when HW % 4 == 0 and both pointers are
//   16-byte aligned (checked once per call, scalar fallback otherwise).
// - NHWC has no limit on C (the original staged a pixel's channels in a shared array of at most 512 and
//   left 7/8 of its threads idle for C = 32): 32 items cover 32 channels of a pixel (or, for C < 32, as
//   many whole pixels as fit in 32), the source channel of each item is computed once per group, and the
//   items walk down the pixels, so reads and writes stay within 128-byte rows.
// - C % groups != 0 is an error (torch requires it too); groups = 1 or groups = C is a plain copy.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// n, c, hw (= H * W): the tensor's extents, each >= 0 (zero elements return at once). groups >= 1 and
// c % groups == 0. in, out: the queue's device memory, n * c * hw floats each, not overlapping.
void channel_shuffle_nchw(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups,
                          const float* in, float* out);
void channel_shuffle_nhwc(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t groups,
                          const float* in, float* out);

}  // namespace portkern::ops
