// channel_sum: per-channel sum and sum of squares of an int32 tensor, the BatchNorm statistics (HeCBench
// `channelSum`, seed 004), like torch's x.sum((0, 2, 3)) and (x * x).sum((0, 2, 3)) on int32 input.
//
//   sum[c] = sum over n, p of x[n][c][p],   sumsq[c] = sum over n, p of x[n][c][p]^2   (NCHW; NHWC: x[n][p][c])
//
// Memory-bound: reads the input once (N * C * HW * 4 bytes), writes 2 * C int64.
//
// Decisions (against the HeCBench original):
// - Outputs are int64, accumulated exactly (the original's int32 sum of squares overflows for N >= 4 at
//   224x224 and was never checked). Like torch's int64 accumulation, a result that does not fit int64
//   wraps modulo 2^64 (the accumulation is done in uint64, so the wrap is defined and order-independent);
//   it is exact whenever the true sums fit, e.g. |x| < 2^16 and fewer than 2^31 elements per channel.
// - Not one block per channel (C = 32 blocks cannot fill a GPU): the work is split into ~4096 groups, each
//   reducing a slice of one channel (NCHW: a segment of one (n, c) plane, 16-byte vector loads when
//   HW % 4 == 0 and the input is 16-byte aligned) or of 32 channels (NHWC: a tile of 32 channels over a
//   range of pixels, coalesced 128-byte rows instead of the original's stride-C accesses), combining its
//   items in group-local memory and adding to the outputs with 64-bit integer atomics. Integer atomics are
//   exact, so the result is deterministic. The outputs are zeroed by the call (a first small kernel).
// - NCHW with HW = 1 has the NHWC memory layout and takes that path.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// n, c, hw (= H * W): the extents, each >= 0; n * hw = 0 zeroes the outputs, c = 0 returns at once.
// in: n * c * hw int32; sum, sumsq: c int64 each. All the queue's device memory; outputs do not overlap.
void channel_sum_nchw(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, const std::int32_t* in,
                      std::int64_t* sum, std::int64_t* sumsq);
void channel_sum_nhwc(Queue& queue, std::int64_t n, std::int64_t c, std::int64_t hw, const std::int32_t* in,
                      std::int64_t* sum, std::int64_t* sumsq);

}  // namespace portkern::ops
