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
#elif defined(__F16C__) || defined(__AVX512F__)
#include <immintrin.h>
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

PORTKERN_INLINE float to_float(half h) {
#if defined(__CUDACC__)
  return __half2float(__ushort_as_half(h.bits));
#else
  // On the CPU in integer and float arithmetic that GCC vectorises (it keeps _Float16 conversions scalar):
  // the exponent and mantissa move into a float's place and a normal half's exponent is rebiased by 112; a
  // subnormal half m * 2^-24 is read as the float 2^-14 * (1 + m / 1024), minus 2^-14 exactly. No step
  // touches a float subnormal, which costs x86 cores a microcode assist of about a hundred cycles per
  // instruction (1 subnormal half in 64 made the conversion 6x slower). Inf stays Inf, NaN keeps its payload
  // and is quieted. Equal to the hardware's conversion for all 65536 halves (tests/test_half.cpp).
  const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16, magnitude = h.bits & 0x7fffu;
  const std::uint32_t shifted = magnitude << 13;
  const std::uint32_t normal = shifted + 0x38000000u;
  const std::uint32_t subnormal = std::bit_cast<std::uint32_t>(std::bit_cast<float>(shifted + 0x38800000u) - 0x1p-14f);
  const std::uint32_t special = shifted | 0x7f800000u | (magnitude > 0x7c00u ? 0x00400000u : 0u);
  // The three cases joined with masks, as in to_half below.
  const std::uint32_t is_special = 0u - std::uint32_t(magnitude >= 0x7c00u), is_sub = 0u - std::uint32_t(magnitude < 0x0400u);
  const std::uint32_t out = (special & is_special) | (subnormal & is_sub) | (normal & ~(is_special | is_sub));
  return std::bit_cast<float>(out | sign);
#endif
}

PORTKERN_INLINE half to_half(float f) {
#if defined(__CUDACC__)
  return half{__half_as_ushort(__float2half_rn(f))};
#else
  // Round to nearest even, as the hardware does, in vectorisable selects. Below 2^-14 (half subnormals and
  // zero) adding 0.5 leaves the value's 2^-24 units in the float's low mantissa bits, rounded by the float
  // addition itself; normal halves rebias the exponent and round the 13 dropped bits (a carry may reach Inf);
  // from 2^16 on, Inf, and NaN keeps its sign and top payload bits, quieted. Equal to the hardware's
  // conversion for every float (tests/test_half.cpp).
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  const std::uint32_t small = std::bit_cast<std::uint32_t>(std::bit_cast<float>(a) + 0.5f) - 0x3f000000u;
  const std::uint32_t normal = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
  const std::uint32_t large = a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : 0x7c00u;
  // The three cases joined with masks rather than nested selects, which GCC 12 leaves unvectorised in some
  // loops ("relevant stmt not supported" in cross_entropy's f16 phases).
  const std::uint32_t is_large = 0u - std::uint32_t(a >= 0x47800000u), is_small = 0u - std::uint32_t(a < 0x38800000u);
  const std::uint32_t out = (large & is_large) | (small & is_small) | (normal & ~(is_large | is_small));
  return half{std::uint16_t(out | sign)};
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

// N halves at p widened to float, and N floats rounded to half (nearest even) and stored at p, as vectors
// straight from and to memory: on an x86 CPU with AVX-512 or F16C one instruction per 16 or 8 lanes
// (vcvtph2ps, vcvtps2ph), which GCC 12 never emits for scalar conversions in a vectorised loop; elsewhere
// (CUDA, other CPUs) the scalar conversions above, lane by lane. The same bits either way (tests/
// test_half.cpp). For an item's 16 halves a CPU then spends two instructions where the integer forms take
// about 25. They read and write memory, not a vec<half, N>: a vec built element by element and reloaded
// whole costs the CPU a store-forwarding stall per vector (gelu f16 ran 2.1x slower through one).
template <int N>
PORTKERN_INLINE vec<float, N> load_float(const half* p) {
  vec<float, N> f;
#if !defined(__CUDACC__) && defined(__AVX512F__)
  if constexpr (N % 16 == 0) {
    PORTKERN_UNROLL
    for (int i = 0; i < N; i += 16)
      _mm512_storeu_ps(f.v + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
    return f;
  }
#endif
#if !defined(__CUDACC__) && defined(__F16C__)
  if constexpr (N % 8 == 0) {
    PORTKERN_UNROLL
    for (int i = 0; i < N; i += 8)
      _mm256_storeu_ps(f.v + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))));
    return f;
  }
#endif
  PORTKERN_LANES
  for (int i = 0; i < N; ++i) f.v[i] = to_float(p[i]);
  return f;
}

template <int N>
PORTKERN_INLINE void store_half(const vec<float, N>& f, half* p) {
#if !defined(__CUDACC__) && defined(__AVX512F__)
  if constexpr (N % 16 == 0) {
    PORTKERN_UNROLL
    for (int i = 0; i < N; i += 16)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + i),
                          _mm512_cvtps_ph(_mm512_loadu_ps(f.v + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    return;
  }
#endif
#if !defined(__CUDACC__) && defined(__F16C__)
  if constexpr (N % 8 == 0) {
    PORTKERN_UNROLL
    for (int i = 0; i < N; i += 8)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i),
                       _mm256_cvtps_ph(_mm256_loadu_ps(f.v + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    return;
  }
#endif
  PORTKERN_LANES
  for (int i = 0; i < N; ++i) p[i] = to_half(f.v[i]);
}

// N floats rounded to half precision and widened back: the value a half would hold, still a float.
template <int N>
PORTKERN_INLINE vec<float, N> round_to_half(const vec<float, N>& f) {
  vec<half, N> h;
  store_half(f, h.v);
  return load_float<N>(h.v);
}

}  // namespace kernel
}  // namespace portkern
