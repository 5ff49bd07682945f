// meanshift: one iteration of Gaussian BLURRING mean shift of HeCBench `meanshift` (seed 004), N points in
// D = 3, f32. Every point moves at once, to the weighted mean of the current points (the caller swaps in and
// out between iterations):
//
//   out_i = sum_j w_ij x_j / sum_j w_ij,   w_ij = exp(-d_ij^2 / (2 sigma^2)) if d_ij^2 <= radius2, else 0
//
// ("radius" 60 in HeCBench is compared with the SQUARED distance, hence radius2.) w_ii = 1, so the
// denominator is >= 1. Compute-bound: N^2 pairs, 17 flops per pair (3 differences, 3 squares, 2 adds, the
// scale, the exponential, 3 multiply-adds of w x_j and the weight sum: exp counted as 1 flop); 24 N bytes.
// Decisions:
// - two kernels, as HeCBench: `global` (one item per point, every point read from global memory) and
//   `tiled` (the default): tiles of 256 points staged in group-local memory; a group is 16 points x 16
//   slices, slice y takes 16 of each tile's points, and the 16 partial sums of a point are added in a fixed
//   order at the end. The split gives 16x more items than points (10k points: 625 groups, not 157 blocks of
//   64 threads), which is what a latency-bound N^2 loop on 132 SMs needs;
// - no out-of-bounds reads: HeCBench's tiled kernel has threads with index >= N read their own point past
//   the end; here such items use a dummy point and write nothing, and tile loads stop at N (the loop over
//   a partial tile is bounded by its count, so no validity flags are needed);
// - the weight uses kernel::fast_exp (__expf on CUDA; HeCBench builds with --use_fast_math): its argument
//   lies in [-radius2 / (2 sigma^2), 0] (>= -1.875 at the defaults), where __expf's error is ~2 ulp;
// - n = 0 returns at once; sigma > 0, radius2 >= 0, finite; in and out must differ.
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

enum class MeanShiftKernel : int {
  global = 0,   // HeCBench's base kernel: one item per point, neighbours from global memory
  tiled = 1,    // neighbours staged in group-local tiles, each point's sum split over 16 items
};

// in, out: the queue's device memory, n points of 3 floats (x, y, z) each, not overlapping.
void meanshift(Queue& queue, std::int64_t n, const float* in, float* out, float sigma = 4.f, float radius2 = 60.f,
               MeanShiftKernel kind = MeanShiftKernel::tiled);

}  // namespace portkern::ops
