// expdist: the Gaussian-overlap (Bhattacharyya-type) cost between two 2-D point sets of HeCBench `expdist`
// (seed 004), f32 and f64:
//
//   cost = sum_i sum_j exp(-|a_i - b_j|^2 / (sigma_a[i] + sigma_b[j])),   i < m, j < n
//
// Compute-bound: m n exponentials and divisions; 9 flops per pair (2 differences, 3 for the squared
// distance, the scale sum, the division, the exponential and the accumulation: exp and division counted as
// 1 flop each), 3 (m + n) values read. Decisions:
// - EVERY point counts: HeCBench's grid size/128 x size/32 (truncating division) silently drops the
//   trailing points (size 10000 sums 9984^2 pairs); here partial blocks are padded and masked;
// - deterministic: no float atomics. Kernel 1 writes one partial per group (128 a-points x 256 b-points) into
//   the caller's workspace (expdist_workspace_size elements of T: no allocation in the call), kernel 2 sums
//   the partials in a fixed order in float64 (also for T = float) and writes cost[0]: the same inputs give
//   the same bits on every run;
// - accurate exp and IEEE division (no fast math); pairs accumulate in T within a group.
// m = 0 or n = 0 writes cost = 0 (the empty sum). sigma_a[i] + sigma_b[j] must be > 0 (not checked: data).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops {

// Elements of T the workspace of expdist(m, n) must hold (>= 1).
std::int64_t expdist_workspace_size(std::int64_t m, std::int64_t n);

// a: [2][m] (all x, then all y), b: [2][n], sigma_a: [m], sigma_b: [n], cost: 1 element, workspace:
// expdist_workspace_size(m, n) elements; all the queue's device memory.
void expdist(Queue& queue, std::int64_t m, std::int64_t n, const float* a, const float* b, const float* sigma_a,
             const float* sigma_b, float* cost, float* workspace);
void expdist(Queue& queue, std::int64_t m, std::int64_t n, const double* a, const double* b, const double* sigma_a,
             const double* sigma_b, double* cost, double* workspace);

}  // namespace portkern::ops
