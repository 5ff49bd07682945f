// The copy behind launch_repack (launch.hpp): an operand whose leading dimension or batch stride the copy
// engine cannot take, rewritten with columns a multiple of 8 values apart. One pass, 16-bit values, a
// grid-stride loop over every value of every problem (64-bit indices).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

__global__ void repack(const std::uint16_t* src, std::int64_t inner, std::int64_t outer, std::int64_t ld,
                       std::int64_t stride, std::int64_t total, std::uint16_t* dst, std::int64_t ld_dst) {
  for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < total;
       e += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t i = e % inner, column = e / inner, j = column % outer, problem = column / outer;
    dst[i + (problem * outer + j) * ld_dst] = src[i + j * ld + problem * stride];
  }
}

}  // namespace

void launch_repack(const void* src, std::int64_t inner, std::int64_t outer, std::int64_t ld, std::int64_t stride,
                   std::int64_t batch, void* dst, std::int64_t ld_dst, cudaStream_t stream) {
  constexpr int threads = 256;
  const std::int64_t total = inner * outer * batch;
  const unsigned blocks = unsigned(std::min<std::int64_t>((total + threads - 1) / threads, 132 * 16));
  repack<<<blocks, threads, 0, stream>>>(static_cast<const std::uint16_t*>(src), inner, outer, ld, stride, total,
                                         static_cast<std::uint16_t*>(dst), ld_dst);
  PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
}

}  // namespace portkern::gemm_impl::cuda_wgmma
