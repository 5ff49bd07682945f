// A 16-bit input value of the cuda_wgmma family as fp32 (exact for both types): bfloat16 is fp32's upper half,
// IEEE half through CUDA's conversion. For the kernels that multiply in fp32 (small_k.cu, gemv.cu,
// simt_fallback.cu).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "gemm/cuda_wgmma/wgmma_gemm.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

template <Input input>
__device__ __forceinline__ float widen(std::uint16_t bits) {
  if constexpr (input == Input::bf16) return __uint_as_float(std::uint32_t(bits) << 16);
  else return __half2float(__ushort_as_half(bits));
}

}  // namespace portkern::gemm_impl::cuda_wgmma
