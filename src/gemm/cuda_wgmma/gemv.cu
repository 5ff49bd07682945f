// The cuda_wgmma family's matrix-vector product (launch.hpp): m == 1 with B's columns contiguous along k (B not
// transposed), C = alpha * a B + beta * C for a row a. Bound by reading B once: one warp per column of B, the
// row a staged in shared memory as fp32 in chunks of k, B read two values at a time where aligned, sums
// reduced across the warp. Any GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "gemm/cuda_wgmma/widen.cuh"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr int threads = 256, warps = threads / 32, chunk = 4096;

template <Input input>
__global__ void __launch_bounds__(threads) gemv(const Problem p, std::int64_t batch0, bool pairs) {
  __shared__ float row[chunk];
  const std::int64_t problem = batch0 + blockIdx.y;
  const auto* a = static_cast<const std::uint16_t*>(p.a) + problem * p.stride_a;
  const auto* b = static_cast<const std::uint16_t*>(p.b) + problem * p.stride_b;
  const int lane = threadIdx.x % 32;
  const std::int64_t j = std::int64_t(blockIdx.x) * warps + threadIdx.x / 32;
  float sum = 0.f;
  for (std::int64_t k0 = 0; k0 < p.k; k0 += chunk) {
    const int length = int(std::min<std::int64_t>(chunk, p.k - k0));
    __syncthreads();
    for (int i = threadIdx.x; i < length; i += threads) row[i] = widen<input>(a[p.trans_a ? k0 + i : (k0 + i) * p.lda]);
    __syncthreads();
    if (j >= p.n) continue;
    const std::uint16_t* column = b + j * p.ldb + k0;
    int i = 0;
    if (pairs)   // k0 and ldb even, B 4-byte aligned: 128 bytes per warp load
      for (i = 2 * lane; i + 1 < length; i += 64) {
        const std::uint32_t two = *reinterpret_cast<const std::uint32_t*>(column + i);
        sum = fmaf(row[i], widen<input>(std::uint16_t(two & 0xffff)), sum);
        sum = fmaf(row[i + 1], widen<input>(std::uint16_t(two >> 16)), sum);
      }
    for (i = (pairs ? length / 2 * 2 : 0) + lane; i < length; i += 32) sum = fmaf(row[i], widen<input>(column[i]), sum);
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0 && j < p.n) {
    float* const at = p.c + problem * p.stride_c + j * p.ldc;
    *at = p.beta == 0.f ? p.alpha * sum : p.alpha * sum + p.beta * *at;
  }
}

}  // namespace

bool gemv_fits(const Problem& p) { return p.m == 1 && !p.trans_b && (p.n + warps - 1) / warps < (std::int64_t(1) << 31); }

void launch_gemv(Input input, const Problem& p, cudaStream_t stream) {
  const bool pairs = reinterpret_cast<std::uintptr_t>(p.b) % 4 == 0 && p.ldb % 2 == 0 && (p.batch == 1 || p.stride_b % 2 == 0);
  const auto kernel = input == Input::bf16 ? &gemv<Input::bf16> : &gemv<Input::f16>;
  per_grid_of_problems(p.batch, [&](std::int64_t first, unsigned count) {
    kernel<<<dim3(unsigned((p.n + warps - 1) / warps), count), threads, 0, stream>>>(p, first, pairs);
    PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
  });
}

}  // namespace portkern::gemm_impl::cuda_wgmma
