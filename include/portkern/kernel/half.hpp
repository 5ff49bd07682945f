// portkern::half: IEEE binary16 as a storage type that host code, CPU kernels and CUDA kernels share (the
// same 16 bits as CUDA's __half and GCC's _Float16). Arithmetic happens in float: to_float() widens exactly,
// to_half() rounds to nearest even. A half-precision add, a + b rounded to half, is to_half(to_float(a) +
// to_float(b)) exactly (float holds 2 * 11 + 2 bits, so the double rounding is innocuous).
#pragma once

#include <bit>
#include <cstdint>

#include "portkern/kernel/model.hpp"

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

namespace portkern {

struct alignas(2) half {
  std::uint16_t bits;
};

namespace kernel {

PORTKERN_INLINE float to_float(half h) {
#if defined(__CUDACC__)
  return __half2float(__ushort_as_half(h.bits));
#else
  return float(std::bit_cast<_Float16>(h.bits));
#endif
}

PORTKERN_INLINE half to_half(float f) {
#if defined(__CUDACC__)
  return half{__half_as_ushort(__float2half_rn(f))};
#else
  return half{std::bit_cast<std::uint16_t>(static_cast<_Float16>(f))};
#endif
}

}  // namespace kernel
}  // namespace portkern
