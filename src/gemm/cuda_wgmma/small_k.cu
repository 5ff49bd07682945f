// The cuda_wgmma family's kernel for k <= 32 (launch.hpp): such products are bound by writing C, not by the
// multiplications, so plain fp32 FMA suffices and what matters is C's traffic. Each block: a 128 x 32 tile of
// C, its op(A) (128 x k) and op(B) (k x 32) staged in shared memory as fp32, each thread 4 consecutive rows x 4
// columns, written as one 16-byte store per column where C's layout allows (a warp writes 512 contiguous
// bytes), else value by value. Any alignment, transpose or stride.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/widen.cuh"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr int tile_rows = 128, tile_cols = 32, threads = 256;

template <Input input>
__global__ void __launch_bounds__(threads) small_k(const Problem p, std::int64_t batch0, bool vector_c) {
  __shared__ __align__(16) float as[small_k_limit][tile_rows];
  __shared__ float bs[small_k_limit][tile_cols + 1];
  const std::int64_t problem = batch0 + blockIdx.z;
  const auto* a = static_cast<const std::uint16_t*>(p.a) + problem * p.stride_a;
  const auto* b = static_cast<const std::uint16_t*>(p.b) + problem * p.stride_b;
  const std::int64_t m0 = std::int64_t(blockIdx.x) * tile_rows, n0 = std::int64_t(blockIdx.y) * tile_cols;
  const int k = int(p.k);
  // Loads walk each operand along its contiguous dimension.
  for (int e = threadIdx.x; e < k * tile_rows; e += threads) {
    const int l = p.trans_a ? e % k : e / tile_rows, r = p.trans_a ? e / k : e % tile_rows;
    const std::int64_t i = m0 + r;
    as[l][r] = i < p.m ? widen<input>(a[p.trans_a ? l + i * p.lda : i + l * p.lda]) : 0.f;
  }
  for (int e = threadIdx.x; e < k * tile_cols; e += threads) {
    const int l = p.trans_b ? e / tile_cols : e % k, c = p.trans_b ? e % tile_cols : e / k;
    const std::int64_t j = n0 + c;
    bs[l][c] = j < p.n ? widen<input>(b[p.trans_b ? j + l * p.ldb : l + j * p.ldb]) : 0.f;
  }
  __syncthreads();

  const int row_group = threadIdx.x % 32, col_group = threadIdx.x / 32;   // a warp: 128 rows of 4 columns
  float acc[4][4] = {};
  for (int l = 0; l < k; ++l) {
    const float4 x = *reinterpret_cast<const float4*>(&as[l][4 * row_group]);
    const float xs[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const float y = bs[l][4 * col_group + v];
#pragma unroll
      for (int u = 0; u < 4; ++u) acc[u][v] = fmaf(xs[u], y, acc[u][v]);
    }
  }

  float* const c = p.c + problem * p.stride_c;
  const std::int64_t row = m0 + 4 * row_group;
#pragma unroll
  for (int v = 0; v < 4; ++v) {
    const std::int64_t col = n0 + 4 * col_group + v;
    if (col >= p.n || row >= p.m) continue;
    float* const at = c + row + col * p.ldc;
    if (vector_c && row + 3 < p.m) {
      float4 out = make_float4(p.alpha * acc[0][v], p.alpha * acc[1][v], p.alpha * acc[2][v], p.alpha * acc[3][v]);
      if (p.beta != 0.f) {
        const float4 old = *reinterpret_cast<const float4*>(at);
        out.x += p.beta * old.x, out.y += p.beta * old.y, out.z += p.beta * old.z, out.w += p.beta * old.w;
      }
      *reinterpret_cast<float4*>(at) = out;
    } else {
      for (int u = 0; u < 4 && row + u < p.m; ++u)
        at[u] = p.beta == 0.f ? p.alpha * acc[u][v] : p.alpha * acc[u][v] + p.beta * at[u];
    }
  }
}

}  // namespace

bool small_k_fits(const Problem& p) { return p.k <= small_k_limit && (p.n + tile_cols - 1) / tile_cols <= 65535; }

// Measured on the H100 beside the wgmma pipeline (docs/precision.md): ahead at 1.0-1.14x cuBLAS for k <= 8 or
// n <= 32, where writing C is all the work; behind where k and n are both larger (k = 24, n = 144: 0.48 against
// the pipeline's 0.52).
bool small_k_wins(const Problem& p) { return small_k_fits(p) && (p.k <= 16 || p.n <= tile_cols); }

void launch_small_k(Input input, const Problem& p, cudaStream_t stream) {
  const bool vector_c = reinterpret_cast<std::uintptr_t>(p.c) % 16 == 0 && p.ldc % 4 == 0 &&
                        (p.batch == 1 || p.stride_c % 4 == 0);
  const auto kernel = input == Input::bf16 ? &small_k<Input::bf16> : &small_k<Input::f16>;
  per_grid_of_problems(p.batch, [&](std::int64_t first, unsigned count) {
    const dim3 grid(unsigned((p.m + tile_rows - 1) / tile_rows), unsigned((p.n + tile_cols - 1) / tile_cols), count);
    kernel<<<grid, threads, 0, stream>>>(p, first, vector_c);
    PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
  });
}

}  // namespace portkern::gemm_impl::cuda_wgmma
