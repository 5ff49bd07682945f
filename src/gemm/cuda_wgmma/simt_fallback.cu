// The cuda_wgmma family's fallback (launch.hpp): 64 x 64 tiles of C, 256 threads of 4 x 4 outputs each, k in
// steps of 16 staged through shared memory as fp32. Any alignment, stride (0 included), transpose or GPU; about
// a tenth of the wgmma kernel's rate, for the calls the copy engine cannot serve.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/widen.cuh"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr int tile = 64, depth = 16, threads = 256;

template <Input input>
__global__ void __launch_bounds__(threads) simt(const Problem p, std::int64_t batch0) {
  __shared__ float as[depth][tile + 4], bs[depth][tile + 4];
  const std::int64_t problem = batch0 + blockIdx.z;
  const auto* a = static_cast<const std::uint16_t*>(p.a) + problem * p.stride_a;
  const auto* b = static_cast<const std::uint16_t*>(p.b) + problem * p.stride_b;
  const std::int64_t m0 = std::int64_t(blockIdx.x) * tile, n0 = std::int64_t(blockIdx.y) * tile;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (std::int64_t k0 = 0; k0 < p.k; k0 += depth) {
    for (int e = threadIdx.x; e < depth * tile; e += threads) {
      const int kk = e / tile, r = e % tile;
      const std::int64_t l = k0 + kk, i = m0 + r, j = n0 + r;
      as[kk][r] = l < p.k && i < p.m ? widen<input>(a[p.trans_a ? l + i * p.lda : i + l * p.lda]) : 0.f;
      bs[kk][r] = l < p.k && j < p.n ? widen<input>(b[p.trans_b ? j + l * p.ldb : l + j * p.ldb]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < depth; ++kk)
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[u][v] = fmaf(as[kk][ty + 16 * u], bs[kk][tx + 16 * v], acc[u][v]);
    __syncthreads();
  }
  float* const c = p.c + problem * p.stride_c;
  for (int u = 0; u < 4; ++u)
    for (int v = 0; v < 4; ++v) {
      const std::int64_t i = m0 + ty + 16 * u, j = n0 + tx + 16 * v;
      if (i >= p.m || j >= p.n) continue;
      float* const at = c + i + j * p.ldc;
      const float x = p.alpha * acc[u][v];
      *at = p.beta == 0.f ? x : x + p.beta * *at;
    }
}

}  // namespace

void launch_simt(Input input, const Problem& p, cudaStream_t stream) {
  const auto kernel = input == Input::bf16 ? &simt<Input::bf16> : &simt<Input::f16>;
  per_grid_of_problems(p.batch, [&](std::int64_t first, unsigned count) {
    const dim3 grid(unsigned((p.m + tile - 1) / tile), unsigned((p.n + tile - 1) / tile), count);
    kernel<<<grid, threads, 0, stream>>>(p, first);
    PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
  });
}

}  // namespace portkern::gemm_impl::cuda_wgmma
