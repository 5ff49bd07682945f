// The copy behind launch_tf32_operand (launch.hpp): fp32 operands rewritten as the TF32 wgmma kernels read
// them, K-major rows rounded to TF32 and, for 3xTF32, the rounding of what remains beside them (the kernel
// model's atoms, include/portkern/kernel/cuda/atoms.cuh). One pass in
// 32 x 32 tiles through shared memory, so that both the read (along the source's contiguous dimension) and the
// write (along k) are coalesced whichever the source's layout; 64-bit indices.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "portkern/kernel/cuda/atoms.cuh"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

constexpr int tile = 32, rows_per_pass = 8;   // 32 x 8 threads

__global__ void __launch_bounds__(tile * rows_per_pass)
    to_tf32(const float* src, bool k_major, std::int64_t k, std::int64_t rows, std::int64_t ld, std::int64_t stride,
            float* dst, std::int64_t ld_dst, std::int64_t segment_k, std::int64_t batch0) {
  __shared__ float values[tile][tile + 1];   // [l - l0][r - r0]
  const std::int64_t problem = batch0 + blockIdx.z;
  const float* from = src + problem * stride;
  float* to = dst + problem * rows * ld_dst;
  const std::int64_t k_extent = segment_k > 0 ? segment_k : k;
  const int x = threadIdx.x, y = threadIdx.y;
  for (std::int64_t r0 = std::int64_t(blockIdx.y) * tile; r0 < rows; r0 += std::int64_t(gridDim.y) * tile)
    for (std::int64_t l0 = std::int64_t(blockIdx.x) * tile; l0 < k_extent; l0 += std::int64_t(gridDim.x) * tile) {
      for (int i = y; i < tile; i += rows_per_pass) {   // x runs along the source's contiguous dimension
        const int dl = k_major ? x : i, dr = k_major ? i : x;
        const std::int64_t l = l0 + dl, r = r0 + dr;
        values[dl][dr] = l < k && r < rows ? from[k_major ? l + r * ld : r + l * ld] : 0.f;
      }
      __syncthreads();
      for (int i = y; i < tile; i += rows_per_pass) {   // x runs along k
        const std::int64_t r = r0 + i, l = l0 + x;
        if (r < rows && l < k_extent) {
          // The kernel model's TF32 rounding (nearest, ties away) and 3xTF32 split, with its documented Inf/NaN
          // behaviour; the tensor cores read each stored value's top 19 bits.
          const float v = values[x][i];
          if (segment_k > 0) {
            unsigned big, small;
            kernel::cuda::atoms::split_tf32(v, big, small);
            to[r * ld_dst + l] = __uint_as_float(big);
            to[r * ld_dst + segment_k + l] = __uint_as_float(small);
          } else {
            to[r * ld_dst + l] = __uint_as_float(kernel::cuda::atoms::to_tf32(v));
          }
        }
      }
      __syncthreads();
    }
}

}  // namespace

void launch_tf32_operand(const float* src, bool k_major, std::int64_t k, std::int64_t rows, std::int64_t ld,
                         std::int64_t stride, std::int64_t batch, float* dst, std::int64_t ld_dst,
                         std::int64_t segment_k, cudaStream_t stream) {
  const std::int64_t k_extent = segment_k > 0 ? segment_k : k;
  const dim3 threads(tile, rows_per_pass);
  per_grid_of_problems(batch, [&](std::int64_t first, unsigned count) {
    const dim3 blocks(unsigned(std::min<std::int64_t>((k_extent + tile - 1) / tile, 1024)),
                      unsigned(std::min<std::int64_t>((rows + tile - 1) / tile, 65535)), count);
    to_tf32<<<blocks, threads, 0, stream>>>(src, k_major, k, rows, ld, stride, dst, ld_dst, segment_k, first);
    PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
  });
}

}  // namespace portkern::gemm_impl::cuda_wgmma
