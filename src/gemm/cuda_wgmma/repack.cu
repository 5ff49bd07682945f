// The copy behind launch_repack (launch.hpp): an operand whose leading dimension or batch stride the copy
// engine cannot take, rewritten with columns a multiple of 8 values apart. One pass over 16-bit values, 64-bit
// indices.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/launch.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

namespace {

// One block per column (a grid-stride loop over columns of every problem: one division per column), its
// threads along the column.
__global__ void repack(const std::uint16_t* src, std::int64_t inner, std::int64_t outer, std::int64_t ld,
                       std::int64_t stride, std::int64_t columns, std::uint16_t* dst, std::int64_t ld_dst) {
  for (std::int64_t column = blockIdx.x; column < columns; column += gridDim.x) {
    const std::uint16_t* from = src + column % outer * ld + column / outer * stride;
    std::uint16_t* to = dst + column * ld_dst;
    for (std::int64_t i = threadIdx.x; i < inner; i += blockDim.x) to[i] = from[i];
  }
}

}  // namespace

void launch_repack(const void* src, std::int64_t inner, std::int64_t outer, std::int64_t ld, std::int64_t stride,
                   std::int64_t batch, void* dst, std::int64_t ld_dst, cudaStream_t stream) {
  constexpr int threads = 128;
  const std::int64_t columns = outer * batch;
  const unsigned blocks = unsigned(std::min<std::int64_t>(columns, 132 * 64));
  repack<<<blocks, threads, 0, stream>>>(static_cast<const std::uint16_t*>(src), inner, outer, ld, stride, columns,
                                         static_cast<std::uint16_t*>(dst), ld_dst);
  PORTKERN_CUDA_CHECK("portkern::gemm (cuda_wgmma)", cudaGetLastError());
}

}  // namespace portkern::gemm_impl::cuda_wgmma
