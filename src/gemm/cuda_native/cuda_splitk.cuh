// Family `splitk`: split-K GEMM for small m x n with large k (e.g. m=32, k=12321, n=27: a 2-D tiling gives one
// or a few blocks, starving the 132 SMs; cuBLAS runs it at ~1 TFLOP/s).
//
// Computes C = alpha*op(A)*op(B) + beta*C by partitioning k into `splits` slices of k_per_split (a multiple of
// the tile's BK). Two launches on the stream: (1) C = beta*C (beta == 0 writes zeros, never reads C), (2) the
// simt tile kernel (cuda_simt.cuh) with blockIdx.z = batch*splits + split, each block adding alpha * its partial
// product into C with fp32/fp64 atomics (RED.ADD). Exact BLAS semantics; the summation order of the slices
// varies between runs (results are not bitwise reproducible, errors stay at the level of the type).
// Parameters: the tile config (SimtCfg) and the split count (auto: enough blocks to fill the SMs twice, with at
// least max(4*BK, 64) of k per slice, at most 256 slices).
// When it wins: output tiles * batch well under the SM count and k >= a few hundred.
#pragma once

#include "cuda_simt.cuh"

namespace portkern::gemm_impl::cuda_native::detail {

// Split count that gives about `target_blocks` blocks without slicing k thinner than min_k.
inline int auto_splits(std::int64_t tiles, std::int64_t k, int bk, int target_blocks) {
  const std::int64_t min_k = (4 * bk > 64 ? 4 * bk : 64);
  std::int64_t s = (target_blocks + tiles - 1) / tiles;
  const std::int64_t kmax = k / min_k;
  if (s > kmax) s = kmax;
  if (s > 256) s = 256;
  return s < 1 ? 1 : (int)s;
}

template <class T, class Cfg>
inline void launch_splitk(cudaStream_t s, bool ta, bool tb, GemmArgs<T> args, int splits) {
  std::int64_t per = (args.k + splits - 1) / splits;
  per = (per + Cfg::BK - 1) / Cfg::BK * Cfg::BK;
  const std::int64_t eff = (args.k + per - 1) / per;
  if (eff <= 1) {
    args.splits = 1;
    args.k_per_split = args.k;
    return launch_simt<T, Cfg>(s, ta, tb, args);
  }
  launch_scale_c<T>(s, args.c, args.m, args.n, args.ldc, args.sc, args.batch, args.beta);
  args.splits = (int)eff;
  args.k_per_split = per;
  launch_simt<T, Cfg>(s, ta, tb, args);
}

}  // namespace portkern::gemm_impl::cuda_native::detail
