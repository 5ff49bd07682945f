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

// Two halves side by side, for arithmetic on pairs (CUDA's __half2).
struct alignas(4) half2 {
  half x, y;
};

namespace kernel {

#if !defined(__CUDACC__)
// The host compiler's IEEE binary16 type: _Float16 (GCC 12 on x86-64), __fp16 on Arm (GCC 12 has no C++
// _Float16 there); both convert to and from float with round-to-nearest-even.
#if defined(__aarch64__) || defined(__arm__)
using host_half = __fp16;
#else
using host_half = _Float16;
#endif
#endif

PORTKERN_INLINE float to_float(half h) {
#if defined(__CUDACC__)
  return __half2float(__ushort_as_half(h.bits));
#else
  return float(std::bit_cast<host_half>(h.bits));
#endif
}

PORTKERN_INLINE half to_half(float f) {
#if defined(__CUDACC__)
  return half{__half_as_ushort(__float2half_rn(f))};
#else
  return half{std::bit_cast<std::uint16_t>(static_cast<host_half>(f))};
#endif
}

// (a.x + b.x, a.y + b.y) rounded to half: one HADD2 on CUDA, two float adds and roundings on the CPU (the
// same results: see the header comment).
PORTKERN_INLINE half2 add(half2 a, half2 b) {
#if defined(__CUDA_ARCH__)
  const __half2 r = __hadd2(__halves2half2(__ushort_as_half(a.x.bits), __ushort_as_half(a.y.bits)),
                            __halves2half2(__ushort_as_half(b.x.bits), __ushort_as_half(b.y.bits)));
  return half2{half{__half_as_ushort(__low2half(r))}, half{__half_as_ushort(__high2half(r))}};
#else
  return half2{to_half(to_float(a.x) + to_float(b.x)), to_half(to_float(a.y) + to_float(b.y))};
#endif
}

}  // namespace kernel
}  // namespace portkern
